"""Claude Code's AskUserQuestion as a compatibility shape: its input mapped onto a request
with several questions, and its answers (question text -> chosen label(s) or the "Other"
text) read back out of our result.

Owns only the mapping; every rule is still checked by `validation.validate_request`, and
`compat.parse_request` detects the shape and calls `mapped`. An agent trained on that tool
calls ours with the same input and reads the same kind of answer.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from choice.contract import (
    TITLE_MAX,
    ChoiceRequest,
    ChoiceResult,
    InterfaceChoice,
    Language,
    Option,
    RequestContext,
)
from choice.contract.model import Model

RECOMMENDED = " (Recommended)"
"""Models mark the option they recommend by this label suffix
(docs/internals.md#claude-codes-askuserquestion). It is read as the option's mark and taken
off the label the person sees, and put back, exactly, on the label the answer carries: only
this exact suffix, so that the label the model gets back is always the one it wrote."""
SEPARATOR = ", "
"""How several chosen labels are joined in one answer, as the tool's own multiSelect does."""


class _Compat(Model):
    model_config = ConfigDict(extra="forbid")


class AskOption(_Compat):
    label: str = Field(description="The choice shown to the user; end it with ' (Recommended)' "
                                   "to mark the one you recommend.")
    description: str | None = Field(default=None, description="What picking it means.")


class AskQuestion(_Compat):
    question: str = Field(description="The full question, ending with a question mark, with "
                                      "the task context the user needs: they see only this.")
    header: str = Field(description="A very short label shown as a chip (at most 12 characters).")
    options: list[AskOption] = Field(description="The choices (2-4); the user may always "
                                                 "answer 'Other' in their own words.")
    multiSelect: bool = Field(default=False, description="Let the user pick several options.")


class AskUserQuestion(_Compat):
    """Claude Code's AskUserQuestion input, plus the portal's optional knobs."""

    questions: list[AskQuestion] = Field(description="The questions to ask (1-4 in Claude "
                                                     "Code; up to 10 here), answered together.")
    metadata: dict[str, Any] | None = Field(default=None,
                                            description="Tracking data; kept out of the page.")
    title: str | None = Field(default=None, description="A heading; default: the questions' "
                                                        "headers.")
    timeout_seconds: int | None = None
    interface: InterfaceChoice = "auto"
    language: Language | None = None
    context: RequestContext = Field(default_factory=RequestContext)


def looks_like(payload: Any) -> bool:
    """`questions` whose items carry `question` (ours carry `prompt`)."""
    questions = payload.get("questions") if isinstance(payload, dict) else None
    return isinstance(questions, list) and any(
        isinstance(item, dict) and "question" in item and "prompt" not in item
        for item in questions)


def mapped(asked: AskUserQuestion) -> tuple[dict[str, Any], dict[str, str]]:
    """Our request for it (questions `q1`..., options `1`...; every question hybrid, so
    "Other" is always possible), and how our field names read in the caller's words."""
    questions = []
    renames: dict[str, str] = {}
    for index, question in enumerate(asked.questions):
        at = f"questions[{index}]."
        renames[at + "prompt"] = at + "question"
        questions.append({
            "id": f"q{index + 1}", "header": question.header, "prompt": question.question,
            "selection_mode": "hybrid",
            "max_selections": len(question.options) if question.multiSelect else 1,
            "options": [{"id": str(number + 1), **_marked(option.label),
                         "description": option.description}
                        for number, option in enumerate(question.options)],
        })
    return {
        "title": asked.title or _title(asked), "questions": questions,
        "timeout_seconds": asked.timeout_seconds, "interface": asked.interface,
        "language": asked.language, "context": asked.context.model_dump(),
    }, renames


def _marked(label: str) -> dict[str, Any]:
    """The label the person sees and whether it is the recommended one: the suffix comes
    off only where a label is left (`answer_label` puts it back)."""
    shown = label.removesuffix(RECOMMENDED)
    if shown == label or not shown.strip():
        return {"label": label, "recommended": False}
    return {"label": shown, "recommended": True}


def answer_label(option: Option) -> str:
    """The label exactly as the model wrote it (`_marked` in reverse)."""
    return option.label + RECOMMENDED if option.recommended else option.label


def _title(asked: AskUserQuestion) -> str:
    if len(asked.questions) == 1:
        text = asked.questions[0].question
    else:
        text = " · ".join(question.header.strip() for question in asked.questions)
    flat = " ".join(text.split()) or "Questions"
    return flat if len(flat) <= TITLE_MAX else flat[: TITLE_MAX - 1] + "…"


def answers_by_question(request: ChoiceRequest, result: ChoiceResult) -> dict[str, str]:
    """The tool's own answer shape: each question's text -> the chosen label(s) joined by
    ", ", then the "Other" text; a question nobody answered maps to ""."""
    answers = result.answers or {}
    shaped = {}
    for question in request.asked():
        answer = answers.get(question.id)
        options = {option.id: option for option in question.options}
        parts = [*(answer_label(options[picked]) for picked in answer.selected_ids
                   if picked in options),
                 *([answer.custom_input] if answer.custom_input else [])] if answer else []
        shaped[question.prompt] = SEPARATOR.join(parts)
    return shaped


def answered_line(answers: dict[str, str]) -> str:
    """What Claude Code's own tool tells the model once the user answered."""
    pairs = ", ".join(f'"{question}"="{answer}"' for question, answer in answers.items())
    return (f"User has answered your questions: {pairs}. You can now continue with the "
            "user's answers in mind.")
