"""The team's and the decision's field errors as a person reads them on a page: a sentence
written for people, in their language (the domain's `FieldError.message` is written for an
agent or a script: it names JSON fields, `selected_ids`, `PUT /api/settings`). And what an
error page says for a failed request's status (`page_problem`), where the JSON error's
message would name API paths.

By the error's code and the field it is about (`audience[2]` is `audience`,
`quorum.min_votes` is `quorum`); an error no sentence here covers keeps its own message
(translated when it is a catalog's own, as the pages' `N_` messages are).
Shaping only: the rules that raise these errors live in `choice.team` and `choice.decision`.
"""

from __future__ import annotations

import re

from msgspec import Struct

from choice.contract import CUSTOM_INPUT_MAX, NAME_MAX, RATIONALE_MAX, TEAM_MAX, FieldError
from choice.core.i18n import N_, Translator
from choice.team.models import COMMENT_MAX, WIDEN_NOTE_MAX

_BY_FIELD: dict[tuple[str, str], tuple[str, int | None]] = {
    # The decision panel (`views.decision.form_errors` names its fields).
    ("defer_rationale", "required"): (N_("Say why you are deferring it: the agent and the "
                                         "team see this reason."), None),
    ("defer_rationale", "too_long"): (N_("The reason is too long: shorten it to at most {n} "
                                         "characters."), RATIONALE_MAX),
    ("rationale", "too_long"): (N_("The reason is too long: shorten it to at most {n} "
                                   "characters."), RATIONALE_MAX),
    ("final_answer", "required"): (N_("An empty answer decides nothing: write the answer or "
                                      "pick an option, or defer the question and say why."),
                                   None),
    ("final_answer", "too_long"): (N_("The answer is too long: shorten it to at most {n} "
                                      "characters."), CUSTOM_INPUT_MAX),
    ("selected", "required"): (N_("Pick the option you decide on, or defer the question and "
                                  "say why."), None),
    ("selected", "too_many"): (N_("You picked more options than this question takes: pick "
                                  "fewer."), None),
    ("selected", "too_few"): (N_("You picked fewer options than this question needs: pick "
                                 "more, or write the answer in your words if it takes one."),
                              None),
    ("selected", "unknown_option"): (N_("That option is not one of this question's: pick one "
                                        "of those shown."), None),
    ("min_votes", "no_options"): (N_("This question has no options to vote on, so it takes "
                                     "no quorum."), None),
    ("min_votes", "owner_only"): (N_("Only you can decide this question: it asks to allow "
                                     "the agent's own action on your machine. The team's votes "
                                     "advise."), None),
    ("min_votes", "out_of_range"): (N_("Enter a number of votes from 1 to {n}."), TEAM_MAX),
    # The widen dialog.
    ("audience", "empty"): (N_("Nobody to invite: type your teammates' names, or add them to "
                               "the team list in the settings."), None),
    ("audience", "too_many"): (N_("At most {n} people can be invited: shorten the list."),
                               TEAM_MAX),
    ("audience", "too_long"): (N_("A name is at most {n} characters: shorten it."), NAME_MAX),
    ("audience", "invalid_characters"): (N_("A name may not hold a comma or invisible "
                                            "characters: type the names plainly, separated "
                                            "by commas."), None),
    ("members", "unknown_member"): (N_("A member you ticked is no longer on this server: "
                                       "open the dialog again and tick the people shown, or "
                                       "invite them as a guest by name."), None),
    ("members", "owner"): (N_("You own this question and take part already: untick "
                              "yourself."), None),
    ("members", "team_mode_only"): (N_("Members can be named on a team server only: type "
                                       "the people's names instead."), None),
    ("members", "too_many"): (N_("At most {n} members can be invited: tick fewer."),
                              TEAM_MAX),
    ("questions", "not_widenable"): (N_("Teammates vote on one question's options, and this "
                                        "asks several: answer it yourself."), None),
    ("quorum", "no_options"): (N_("This question has no options to vote on, so it takes no "
                                  "quorum: leave the quorum empty."), None),
    ("quorum", "out_of_range"): (N_("Enter a number of votes from 1 to {n}."), TEAM_MAX),
    ("note", "too_long"): (N_("The note is too long: shorten it to at most {n} characters."),
                           WIDEN_NOTE_MAX),
    # A participant's comment and vote.
    ("text", "blank"): (N_("Your comment is empty: write something first."), None),
    ("text", "too_short"): (N_("Your comment is empty: write something first."), None),
    ("text", "too_long"): (N_("Your comment is too long: shorten it to at most {n} "
                              "characters."), COMMENT_MAX),
    ("option_ids", "no_options"): (N_("This question has no options to vote on: say what "
                                      "you think in a comment."), None),
    ("option_ids", "too_many"): (N_("You picked more options than this question takes: pick "
                                    "fewer."), None),
    ("option_ids", "unknown_option"): (N_("That option is not one of this question's: reload "
                                          "the page and vote again."), None),
    ("option_ids", "duplicate"): (N_("That option is not one of this question's: reload the "
                                     "page and vote again."), None),
}
_SAME_FIELD = {"selected_ids": "selected"}


QUORUM_TOO_LARGE = N_("A quorum of {m} votes cannot be reached by the {n} people invited: "
                      "lower it to at most {n}, or invite more people.")
_QUORUM_NUMBERS = re.compile(r"quorum of (\d+) votes cannot be reached by the (\d+)")
"""The two numbers in `team.quorum`'s message (the page has no other way to know `n`
before the widening counted who is invited)."""


def field_of(error: FieldError) -> str:
    """`audience[2]` -> `audience`, `quorum.min_votes` -> `quorum`, `selected_ids` ->
    `selected`."""
    name = re.split(r"[\[.]", error.field, maxsplit=1)[0]
    return _SAME_FIELD.get(name, name)


def person_message(error: FieldError, _: Translator, field: str | None = None) -> str:
    """`error` as a sentence for a person in `_`'s language (`field`: the name the page
    gives it, when it differs from the error's)."""
    numbers = _QUORUM_NUMBERS.search(error.message)
    if error.code == "quorum_too_large" and numbers:
        return _(QUORUM_TOO_LARGE).format(m=numbers[1], n=numbers[2])
    found = _BY_FIELD.get((field or field_of(error), error.code))
    if found is None:  # the message itself, translated if it is a catalog's (an `N_`)
        message = _(error.message)
        return message[:1].upper() + message[1:]
    text, n = found
    return _(text).format(n=n) if n is not None else _(text)


def person_errors(errors: list[FieldError], _: Translator) -> list[FieldError]:
    """The same errors, each with a person's sentence for its message."""
    return [error.model_copy(update={"message": person_message(error, _)}) for error in errors]


class Problem(Struct, frozen=True):
    """An error page's heading and its sentence, both translated."""

    title: str
    detail: str


QUESTION_GONE = (N_("This question is not here"),
                 N_("Its link may be mistyped, or the question is old and the portal has "
                    "removed it."))
_BY_STATUS: dict[int, tuple[str, str]] = {
    404: (N_("There is no page at this address"),
          N_("The link may be mistyped or out of date.")),
    409: (N_("This question has changed meanwhile"),
          N_("It was answered, ended or changed elsewhere, so nothing was changed here. Open "
             "it again to see where it stands.")),
    410: (N_("This is no longer here"), N_("What the link led to has been removed.")),
    413: (N_("That was too much to send at once"),
          N_("The portal takes at most {size} in one request. Nothing was saved: go back, "
             "shorten the text, and send it again.")),
    422: (N_("The portal could not take what was sent"),
          N_("Part of it is not in a form the portal reads (an address changed by hand, or "
             "a page from an older version). Nothing was changed: open the page again and "
             "retry.")),
    429: (N_("Too many at once"), N_("Wait {seconds} s, then try again.")),
    500: (N_("Something went wrong on the portal"),
          N_("It hit an unexpected error; the details are in the portal's log. Try again in "
             "a moment.")),
}
_REFUSED = (N_("The portal cannot do that here"),
            N_("This request did not come from one of the portal's own pages, or the page "
               "was out of date. Nothing was changed: open the page again and use its "
               "buttons."))
"""Any other refusal (400, 405, 415): what a person's browser sends only from a forged or
stale page."""


def page_problem(status: int, _: Translator, *, question: bool = False, size: int = 0,
                 seconds: int = 60) -> Problem:
    """What an error page says for `status` (`question`: a 404 for a question's id; `size`:
    a 413's body limit in bytes; `seconds`: a 429's Retry-After). A server error (5xx) is
    the 500's sentence, whatever its code."""
    if question and status == 404:
        title, detail = QUESTION_GONE
    else:
        title, detail = _BY_STATUS.get(500 if status >= 500 else status, _REFUSED)
    return Problem(_(title), _(detail).format(size=_bytes(size), seconds=seconds))


def _bytes(size: int) -> str:
    """`262144` -> `256 KiB`, `10485760` -> `10 MiB`."""
    return f"{round(size / 2**20)} MiB" if size >= 2**20 else f"{max(1, size // 1024)} KiB"
