"""The words of a result: the one-line summary a model or a person reads, the quoted
choices in it, and the sentence that says who decided a widened question and how.

Pure. Every string goes through the `translate` the caller hands in (the question's
language); `N_` marks words translated later.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from choice.contract.request import ChoiceRequest, Question
from choice.contract.result import QuestionAnswer
from choice.contract.safe_text import closed_bidi
from choice.contract.vocabulary import SummarySource


def N_(message: str) -> str:
    """Marks `message` for the catalogs; it is translated where it is shown."""
    return message


SOURCE_WORDS: dict[SummarySource, str] = {
    "discussion_extraction": N_("taking the agent's summary of the discussion"),
    "owner_override": N_("in their own words over the agent's summary"),
    "manual": N_("in their own words"),
    "quorum": N_("by the team's quorum"),
}
"""How the summary sentence says where the answer came from (`summary_json.source`)."""


def decided_sentence(answer: str, source: SummarySource, teammates: int,
                     _: Callable[[str], str]) -> str:
    """Who decided and how, before the answer's own line: the owner (alone, or after a
    discussion with `teammates`), or the team's quorum."""
    if source == "quorum":
        return _("Decided by quorum: {text}").format(text=answer)
    if not teammates:
        return _("Decided by the owner: {answer}").format(answer=answer)
    ngettext = plural_of(_)
    return ngettext("Decided by the owner after discussing it with {count} teammate, "
                    "{how}: {answer}",
                    "Decided by the owner after discussing it with {count} teammates, "
                    "{how}: {answer}", teammates).format(
                        count=teammates, how=_(SOURCE_WORDS[source]), answer=answer)


def plural_of(_: Callable[[str], str]) -> Callable[[str, str, int], str]:
    """The translator's `ngettext` (`core.i18n.Translator` has one), or English's rule for
    a plain `str` translator."""
    found: Callable[[str, str, int], str] | None = getattr(_, "ngettext", None)
    return found or (lambda singular, plural, n: singular if n == 1 else plural)


def summary_of(request: ChoiceRequest, answers: dict[str, QuestionAnswer],
             _: Callable[[str], str], global_note: str | None, by_deadline: bool) -> str:
    """One line for one question; for several, a line per question under its header."""
    questions = request.asked()
    if not request.several:
        only = questions[0]
        if by_deadline:
            return _("No answer before the deadline; the defaults were submitted: "
                     "{choices}.").format(choices=quoted_choices(
                         only, answers[only.id].selected_ids))
        return with_note(request, _answer_line(only, answers[only.id], _), global_note, _)
    lines = [f"{question.header or question.id}: {_answer_line(question, answers[question.id], _)}"
             for question in questions]
    if by_deadline:
        defaulted = [question.header or question.id for question in questions
                     if answers[question.id].state == "defaulted"]
        lines.insert(0, _("No answer before the deadline; the defaults were submitted for "
                          "{count} of {total} questions ({names}), the others were not "
                          "answered.").format(count=len(defaulted), total=len(questions),
                                              names=", ".join(defaulted)))
    return with_note(request, "\n".join(lines), global_note, _)


def with_note(request: ChoiceRequest, summary: str, global_note: str | None,
              _: Callable[[str], str]) -> str:
    """The summary with the answer's note after it: on the same line for one question, on a
    line of its own under several."""
    if not global_note:
        return summary
    note = _("Note: {note}.").format(note=clip(global_note, 80))
    return f"{summary}\n{note}" if request.several else f"{summary} {note}"


def _answer_line(question: Question, answer: QuestionAnswer, _: Callable[[str], str]) -> str:
    if answer.state == "unanswered":
        return _("Not answered (no defaults).")
    parts = []
    if answer.selected_ids:
        parts.append(_("Selected {choices}.").format(
            choices=quoted_choices(question, answer.selected_ids)))
    if answer.custom_input:
        parts.append(_("Typed answer: {text}.").format(text=clip(answer.custom_input)))
    for option_id, text in answer.option_annotations.items():
        parts.append(_("Note on {option}: {note}.").format(option=option_id, note=clip(text, 80)))
    return " ".join(parts) or _("Nothing selected.")


def in_option_order(question: Question | ChoiceRequest, ids: list[str]) -> list[str]:
    wanted = set(ids)
    return [option.id for option in question.options if option.id in wanted]


def labels_of(question: Question | ChoiceRequest, ids: list[str]) -> list[str]:
    by_id = {option.id: option.label for option in question.options}
    return [by_id[i] for i in ids]


def clip(text: str, limit: int = 120) -> str:
    """One line, bounded: summaries are read by models and by people scanning a log."""
    flat = re.sub(r"\s+", " ", text).strip()
    clipped = flat if len(flat) <= limit else flat[: limit - 1] + "…"
    return '"' + closed_bidi(clipped) + '"'  # an open RTL override must not mirror the rest


def quoted_choices(question: Question | ChoiceRequest, ids: list[str]) -> str:
    return ", ".join(f"{clip(label, 60)} ({oid})" for oid, label in
                     zip(ids, labels_of(question, ids), strict=True))
