"""What the templates see: an interaction turned into plain values for one render.

Owns the shaping only (which options are checked, which stage to show, the list's rows);
the templates own the markup and the service owns every decision about state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from msgspec import Struct, field

from choice.contract import (
    OPEN_STATUSES,
    UNRESOLVED_STATUSES,
    ChoiceRequest,
    FieldError,
    Option,
    Preferences,
    Question,
)
from choice.contract.attachments import Attachment, SentFile
from choice.contract.preferences import hidden_option_ids
from choice.core.endings import request_of
from choice.core.replies import answered_in
from choice.store.records import Interaction
from choice.web.views.decision import DecisionView
from choice.web.views.team import DiscussionView

Stage = Literal["form", "review", "outcome"]
WIDEN_HINT_TAG = "[WIDEN-HINT] "
LIST_COMPLETED = 5


class Draft(Struct, frozen=True):
    """What the human has entered so far (from a form post), to re-render it intact."""

    selected: tuple[str, ...] | None = None
    custom_input: str = ""
    notes: dict[str, str] = field(default_factory=dict)
    global_note: str = ""
    answers: dict[str, Draft] = field(default_factory=dict)
    """Several questions: each question's draft by its id (their global_note unused)."""


class OptionView(Struct, frozen=True):
    index: int
    id: str
    label: str
    description: str | None
    recommended: bool
    rationale: str | None
    checked: bool
    note: str
    hidden: bool = False
    """Its label is among those the person hid (docs/guides/browser.md): the form shows it under
    "N hidden options". Never a picked one: nothing is sent that is not shown."""
    attachments: tuple[Attachment, ...] = ()
    """The request's files this option points at (`attachment_ids`), e.g. its mock-up."""


class QuestionView(Struct, frozen=True):
    """One of several questions, as its section shows it (and the review step lists it)."""

    number: int
    question: Question
    options: list[OptionView]
    draft: Draft
    show_placeholder: bool
    errors: list[FieldError]
    """This question's own errors, named as inside its answer (`selected_ids`)."""

    @property
    def id(self) -> str:
        return self.question.id

    @property
    def input_type(self) -> str:
        return "checkbox" if (self.question.max_selections or 0) > 1 else "radio"

    @property
    def selected_options(self) -> list[OptionView]:
        return [option for option in self.options if option.checked]

    @property
    def answered(self) -> bool:
        """Something picked (its defaults included) or typed: what the progress counts."""
        return bool(self.selected_options) or bool(self.draft.custom_input.strip())

    @property
    def keeps_defaults(self) -> bool:
        """Its defaults, untouched: the review says so rather than calling them a choice."""
        defaults = set(self.question.default_selection_ids)
        return bool(defaults) and {o.id for o in self.selected_options} == defaults \
            and not self.draft.custom_input.strip()


def option_views(options: list[Option], draft: Draft, defaults: list[str],
                 hidden_labels: Sequence[str] = (),
                 files: Sequence[Attachment] = ()) -> list[OptionView]:
    chosen = set(draft.selected if draft.selected is not None else defaults)
    hidden = hidden_option_ids(hidden_labels, options) - chosen
    by_id = {file.id: file for file in files}
    return [OptionView(index=index, id=o.id, label=o.label, description=o.description,
                       recommended=o.recommended, rationale=o.rationale, checked=o.id in chosen,
                       note=draft.notes.get(o.id, ""), hidden=o.id in hidden,
                       attachments=tuple(by_id[i] for i in o.attachment_ids if i in by_id))
            for index, o in enumerate(options, start=1)]


def question_views(request: ChoiceRequest, draft: Draft, prefs: Preferences,
                   errors: list[FieldError]) -> list[QuestionView]:
    """Several questions' sections, each with its draft and the errors named after it
    (`answers.<id>.<field>`); an empty list for one question."""
    if not request.several:
        return []
    views = []
    for number, question in enumerate(request.asked(), start=1):
        mine = draft.answers.get(question.id, Draft())
        at = f"answers.{question.id}."
        views.append(QuestionView(
            number=number, question=question,
            options=option_views(question.options, mine, question.default_selection_ids,
                                 prefs.hidden_options, request.attachments),
            draft=mine, show_placeholder=bool(question.placeholder) and prefs.show_placeholder,
            errors=[error.model_copy(update={"field": error.field.removeprefix(at)})
                    for error in errors if error.field.startswith(at)]))
    return views


class InteractionView(Struct, frozen=True):
    row: Interaction
    request: ChoiceRequest
    stage: Stage
    options: list[OptionView]
    draft: Draft
    show_placeholder: bool
    errors: list[FieldError]
    result: dict[str, Any] | None
    notice: str | None = None
    team: DiscussionView | None = None
    """The team panel, once the question was widened (`OwnerViews.team_view`)."""
    decision: DecisionView | None = None
    """The decision panel of a widened or deferred question (`views.decision`)."""
    questions: list[QuestionView] = field(default_factory=list)
    """Several questions (`request.several`): each one's section; empty for one question."""
    focus: str | None = None
    """Several questions: the id of the question to take the focus (back from the review)."""
    waiting: list[Interaction] = field(default_factory=list)
    """The other questions still waiting for this person, oldest deadline first: after
    deciding, the outcome leads to the first one (`next_waiting`)."""
    answer_files: list[SentFile] = field(default_factory=list)
    """The files the person attached to the answer being written (the draft's)."""

    @property
    def next_waiting(self) -> Interaction | None:
        return self.waiting[0] if self.waiting else None

    @property
    def waiting_count(self) -> int:
        return len(self.waiting)

    @property
    def widen_hint(self) -> str:
        """The agent's hint to widen, without the `[WIDEN-HINT] ` tag some agents put in
        front of it: the page shows it dim, which says as much."""
        return (self.request.widen_hint or "").removeprefix(WIDEN_HINT_TAG).strip()

    @property
    def loose_attachments(self) -> list[Attachment]:
        """The files no option shows as its own: they go under the prompt."""
        owned = {i for question in self.request.asked() for o in question.options
                 for i in o.attachment_ids}
        return [file for file in self.request.attachments if file.id not in owned]

    @property
    def shown_prompt(self) -> str:
        """The prompt, unless it only repeats the title (a `hitl_request` asks one question,
        which becomes both): then the page shows the question once, as the title."""
        return "" if same_words(self.request.prompt or "", self.request.title) else (
            self.request.prompt or "")

    @property
    def input_type(self) -> str:
        return "checkbox" if (self.request.max_selections or 0) > 1 else "radio"

    @property
    def pending(self) -> bool:
        return self.row.status in OPEN_STATUSES

    @property
    def selected_options(self) -> list[OptionView]:
        return [option for option in self.options if option.checked]

    @property
    def answered_count(self) -> int:
        return sum(1 for question in self.questions if question.answered)

    @property
    def general_errors(self) -> list[FieldError]:
        """The errors no question's section shows (several questions)."""
        return [error for error in self.errors if not any(
            error.field.startswith(f"answers.{q.id}.") for q in self.questions)]


def same_words(one: str, other: str) -> bool:
    """Whether two texts read the same once their spacing is evened out."""
    return re.sub(r"\s+", " ", one).strip() == re.sub(r"\s+", " ", other).strip()


def interaction_view(row: Interaction, prefs: Preferences, *, stage: Stage | None = None,
                     draft: Draft | None = None, errors: list[FieldError] | None = None,
                     notice: str | None = None,
                     team: DiscussionView | None = None,
                     decision: DecisionView | None = None,
                     focus: str | None = None,
                     waiting: list[Interaction] | None = None,
                     answer_files: list[SentFile] | None = None) -> InteractionView:
    request = request_of(row)
    draft = draft or Draft()
    options = option_views(request.options, draft, request.default_selection_ids,
                           prefs.hidden_options, request.attachments)
    result = row.result_json
    if row.status not in UNRESOLVED_STATUSES:  # a deferred one is still to be decided
        stage = "outcome"
    return InteractionView(
        row=row, request=request, stage=stage or "form", options=options, draft=draft,
        show_placeholder=bool(request.placeholder) and prefs.show_placeholder,
        errors=errors or [], result=result, notice=notice, team=team,
        decision=decision, questions=question_views(request, draft, prefs, errors or []),
        focus=focus, waiting=waiting or [], answer_files=answer_files or [],
    )


class ListView(Struct, frozen=True):
    """The sidebar: active interactions plus the most recent completed ones."""

    items: list[Interaction]
    filter: str
    current_id: str | None
    active_count: int
    deferred_count: int = 0
    widened_to_me: list[Interaction] = []
    """Team mode: other members' questions widened to this member, still under discussion
    (each opens on the member's participant page)."""

    @staticmethod
    def where(item: Interaction) -> str:
        """The interface badge of a line (`answered_in`)."""
        return answered_in(item)


LIST_FILTERS = ("active", "deferred", "completed")


def soonest_first(open_rows: list[Interaction], but: str | None = None) -> list[Interaction]:
    """The open questions (but `but`) in the order a person should take them: the one whose
    time runs out first leads ("Next question", the welcome's "Answer the next")."""
    return sorted((row for row in open_rows if row.id != but), key=lambda row: row.expires_at)


def split_for_list(active: list[Interaction], deferred: list[Interaction],
                   completed: list[Interaction], which: str, current_id: str | None) -> ListView:
    """`all`: the open ones, then the deferred (still to decide), then the latest answered."""
    recent = completed[:LIST_COMPLETED]
    items = {"active": active, "deferred": deferred, "completed": recent}.get(
        which, active + deferred + recent)
    return ListView(items=items, filter=which if which in LIST_FILTERS else "all",
                    current_id=current_id, active_count=len(active),
                    deferred_count=len(deferred))
