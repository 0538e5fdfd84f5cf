"""Reading the portal's own HTML form posts (`application/x-www-form-urlencoded`).

Only the portal's pages post forms, with the session cookie and a same-origin `Origin`
(checked by `security.guards.OriginCheck`). Any other body type is refused (415).
"""

from __future__ import annotations

import math
from typing import Any
from urllib.parse import parse_qs

from litestar import Request
from litestar.exceptions import HTTPException

from choice.contract import ChoiceRequest, PreferencesPatch, Question, Submission
from choice.contract.field_errors import parse_model
from choice.team.audience import is_cancel, split_names
from choice.web.views.interactions import Draft

Form = dict[str, list[str]]


async def read_form(request: Request[Any, Any, Any]) -> Form:
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/x-www-form-urlencoded":
        raise HTTPException(status_code=415, detail="send the portal's own form")
    return parse_qs((await request.body()).decode(errors="replace"), keep_blank_values=True)


def first(form: Form, name: str, default: str = "") -> str:
    return form.get(name, [default])[0]


def typed_text(form: Form, name: str) -> str:
    """A textarea's text with the CRLF line breaks browsers post turned into LF: what the
    same words sent through the API would be."""
    return first(form, name).replace("\r\n", "\n")


def draft_from(form: Form, request: ChoiceRequest) -> Draft:
    if request.several:
        return Draft(answers={question.id: _question_draft(form, question, f"q.{question.id}.")
                              for question in request.asked()},
                     global_note=first(form, "global_annotation"))
    known = [option.id for option in request.options]
    picked = set(form.get("selected", []))
    return Draft(
        selected=tuple(option_id for option_id in known if option_id in picked),
        custom_input=first(form, "custom_input"),
        notes={option_id: first(form, f"note.{option_id}") for option_id in known
               if first(form, f"note.{option_id}").strip()},
        global_note=first(form, "global_annotation"),
    )


def _question_draft(form: Form, question: Question, at: str) -> Draft:
    """One of several questions as typed: its fields are named `q.<id>.selected`,
    `q.<id>.custom_input` and `q.<id>.note.<option id>`."""
    known = [option.id for option in question.options]
    picked = set(form.get(at + "selected", []))
    return Draft(
        selected=tuple(option_id for option_id in known if option_id in picked),
        custom_input=typed_text(form, at + "custom_input"),
        notes={option_id: typed_text(form, f"{at}note.{option_id}") for option_id in known
               if first(form, f"{at}note.{option_id}").strip()},
    )


def submission_from(form: Form, draft: Draft, *, confirmed: bool | None) -> Submission:
    """What the form says, as the same Submission the API and the terminal send.
    Unknown option ids posted by a forged form are kept, so validation names them.
    Several questions: every question is on the form, so each gets its answer (a question
    with options and nothing picked is answered with no options, not left to its defaults)."""
    if draft.answers:
        return parse_model(Submission, {
            "answers": {question_id: _answer_of(form, f"q.{question_id}.", answer)
                        for question_id, answer in draft.answers.items()},
            "global_annotation": draft.global_note or None,
            "confirmed": confirmed,
            "interface": "web",
        })
    return parse_model(Submission, {
        "selected_ids": [v for v in form.get("selected", []) if v],
        "custom_input": draft.custom_input or None,
        "option_annotations": draft.notes,
        "global_annotation": draft.global_note or None,
        "confirmed": confirmed,
        "submission": "auto" if first(form, "submission") == "auto" else "manual",
        "interface": "web",
    })


def _answer_of(form: Form, at: str, draft: Draft) -> dict[str, Any]:
    answer: dict[str, Any] = {"selected_ids": [v for v in form.get(at + "selected", []) if v],
                              "custom_input": draft.custom_input or None,
                              "option_annotations": draft.notes}
    return answer


BOOLEAN_SETTINGS = ("allow_annotations", "show_placeholder", "single_submit", "sound",
                    "terminal_hints")


def preferences_from(form: Form) -> PreferencesPatch:
    """The settings form: every checkbox is on the form, so an absent one means off."""
    values: dict[str, Any] = {name: first(form, name) == "on" for name in BOOLEAN_SETTINGS}
    if first(form, "interface") in ("web", "terminal"):
        values["interface"] = first(form, "interface")
    if first(form, "language") in ("en", "zh"):
        values["language"] = first(form, "language")
    elif "language" in form and not first(form, "language"):
        values["language"] = None  # "the browser's": nothing saved, `Accept-Language` speaks
    when = first(form, "notifications")
    if when:  # when to notify; "on" (an older form's checkbox) means the default
        values["notifications"] = True if when == "on" else when
    volume = first(form, "sound_volume").strip()
    if volume:
        values["sound_volume"] = int(volume) if volume.isdigit() else volume
    minutes = first(form, "timeout_minutes").strip()
    timeout = first(form, "timeout_seconds").strip()  # an older page's field
    if minutes:
        values["timeout_seconds"] = seconds_of(minutes)
    elif timeout:
        values["timeout_seconds"] = int(timeout) if timeout.isdigit() else timeout
    return parse_model(PreferencesPatch, values)


def seconds_of(minutes: str) -> int | str:
    """The settings' default time as typed in minutes (`30`, `1.5`, `2,5`) in whole seconds;
    anything else as typed, for the model's own error."""
    try:
        value = float(minutes.replace(",", "."))
    except ValueError:
        return minutes
    return round(value * 60) if math.isfinite(value) and abs(value) < 1e9 else minutes


def widen_from(form: Form) -> tuple[dict[str, Any], bool]:
    """The widen dialog as `WidenRequest` fields (an optional `quorum`), and whether the
    owner typed `cancel`.
    Names go through `team.audience.split_names`, as the terminal's line does; an empty
    line means the whole team (no `audience`). `members` (team mode): the ticked members'
    emails."""
    names = first(form, "names")
    extra = first(form, "extra_seconds").strip()
    values: dict[str, Any] = {"mode": first(form, "mode", "block") or "block",
                              "note": typed_text(form, "note").strip() or None}
    if split_names(names):
        values["audience"] = split_names(names)
    members = [email.strip() for email in form.get("members", []) if email.strip()]
    if members:  # team mode's ticked members (a forged one is refused by the service)
        values["members"] = members
    if extra and extra != "0":
        values["timeout_seconds"] = int(extra) if extra.isdigit() else extra
    quorum = first(form, "quorum").strip()
    if quorum:  # not a number: the model's own error names the field
        values["quorum"] = {"min_votes": int(quorum) if quorum.isdigit() else quorum}
    return values, is_cancel(names)


TEAM_FIELDS = ("name", "handle", "email")


def team_rows(form: Form) -> list[dict[str, str]]:
    """The settings' team rows as typed (`team.name`, `team.handle`, `team.email`, one of
    each per row, in order; `team.remove` holds the indexes of rows to drop)."""
    columns = {name: form.get(f"team.{name}", []) for name in TEAM_FIELDS}
    removed = set(form.get("team.remove", []))
    rows = []
    for index in range(max(len(values) for values in columns.values())):
        row = {name: (values[index] if index < len(values) else "").strip()
               for name, values in columns.items()}
        if str(index) not in removed and any(row.values()):
            rows.append(row)
    return rows


def team_from(rows: list[dict[str, str]]) -> PreferencesPatch:
    """The team list to save; `InvalidInput` with `team[i].field` errors (the row's index in
    `rows`) or a `team` error for a duplicate name."""
    members = [{key: value for key, value in row.items() if value or key == "name"}
               for row in rows]
    return parse_model(PreferencesPatch, {"team": members})
