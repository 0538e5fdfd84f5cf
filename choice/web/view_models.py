"""What the templates see: an interaction turned into plain values for one render.

Owns the shaping only (which options are checked, which stage to show, the list's rows);
the templates own the markup and the service owns every decision about state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from choice.contract import (
    OPEN_STATUSES,
    UNRESOLVED_STATUSES,
    ChoiceRequest,
    FieldError,
    Preferences,
)
from choice.endings import request_of
from choice.store.records import Interaction

if TYPE_CHECKING:
    from choice.web.decision_views import DecisionView
    from choice.web.team_views import DiscussionView

Stage = Literal["form", "review", "outcome"]
LIST_COMPLETED = 5


@dataclass(frozen=True)
class Draft:
    """What the human has entered so far (from a form post), to re-render it intact."""

    selected: tuple[str, ...] | None = None
    custom_input: str = ""
    notes: dict[str, str] = field(default_factory=dict)
    global_note: str = ""


@dataclass(frozen=True)
class OptionView:
    index: int
    id: str
    label: str
    description: str | None
    recommended: bool
    rationale: str | None
    checked: bool
    note: str


@dataclass(frozen=True)
class InteractionView:
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
    """The team panel, once the question was widened (`team_actions.owner_team`)."""
    decision: DecisionView | None = None
    """The decision panel of a widened or deferred question (`decision_views`)."""

    @property
    def input_type(self) -> str:
        return "checkbox" if (self.request.max_selections or 0) > 1 else "radio"

    @property
    def pending(self) -> bool:
        return self.row.status in OPEN_STATUSES

    @property
    def selected_options(self) -> list[OptionView]:
        return [option for option in self.options if option.checked]


def interaction_view(row: Interaction, prefs: Preferences, *, stage: Stage | None = None,
                     draft: Draft | None = None, errors: list[FieldError] | None = None,
                     notice: str | None = None,
                     team: DiscussionView | None = None,
                     decision: DecisionView | None = None) -> InteractionView:
    request = request_of(row)
    draft = draft or Draft()
    chosen = set(draft.selected if draft.selected is not None else request.default_selection_ids)
    options = [
        OptionView(index=index, id=o.id, label=o.label, description=o.description,
                   recommended=o.recommended, rationale=o.rationale, checked=o.id in chosen,
                   note=draft.notes.get(o.id, ""))
        for index, o in enumerate(request.options, start=1)
    ]
    result = json.loads(row.result_json) if row.result_json else None
    if row.status not in UNRESOLVED_STATUSES:  # a deferred one is still to be decided
        stage = "outcome"
    return InteractionView(
        row=row, request=request, stage=stage or "form", options=options, draft=draft,
        show_placeholder=bool(request.placeholder) and prefs.show_placeholder,
        errors=errors or [], result=result, notice=notice, team=team,
        decision=decision,
    )


@dataclass(frozen=True)
class ListView:
    """The sidebar: active interactions plus the most recent completed ones."""

    items: list[Interaction]
    filter: str
    current_id: str | None
    active_count: int
    deferred_count: int = 0


LIST_FILTERS = ("active", "deferred", "completed")


def split_for_list(active: list[Interaction], deferred: list[Interaction],
                   completed: list[Interaction], which: str, current_id: str | None) -> ListView:
    """`all`: the open ones, then the deferred (still to decide), then the latest answered."""
    recent = completed[:LIST_COMPLETED]
    items = {"active": active, "deferred": deferred, "completed": recent}.get(
        which, active + deferred + recent)
    return ListView(items=items, filter=which if which in LIST_FILTERS else "all",
                    current_id=current_id, active_count=len(active),
                    deferred_count=len(deferred))
