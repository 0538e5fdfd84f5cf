"""What the write-back looks like on a page: the owner's decision panel of a widened or
deferred question (the review's state, the candidate, the quorum, what the owner typed and
its field errors), and the part of it a participant may see while it is open (deferred and
why, the quorum).

Shaping only: the decision feature owns every rule (the review's state, the
provenance of an answer, who may defer); the templates own the markup.
"""

from __future__ import annotations

from msgspec import Struct, field

from choice.contract import FieldError
from choice.contract.clock import now, parse_iso
from choice.core.i18n import Translator
from choice.decision.models import CandidateReview
from choice.store.records import Decision, Interaction
from choice.web.views.person_errors import person_message

PANEL_STATUSES = ("widened", "deferred")
"""Questions whose page shows the decision panel instead of the plain answer form (a
pending one shows the form, with Defer beside Cancel)."""


class DecisionForm(Struct, frozen=True):
    """What the owner typed into one of the panel's forms, to show it again intact with its
    errors (by field: `final_answer`, `rationale`, `defer_rationale`, `min_votes`), and the
    step the edit is at (`rationale`: a material change asks why)."""

    action: str = ""
    final_answer: str = ""
    selected: tuple[str, ...] = ()
    rationale: str = ""
    defer_rationale: str = ""
    min_votes: str = ""
    errors: dict[str, str] = field(default_factory=dict)
    step: str | None = None
    source: str | None = None
    """The source the server would record for `final_answer` (the rationale step's hint)."""

    def error(self, name: str) -> str | None:
        return self.errors.get(name)


def form_errors(errors: list[FieldError], _: Translator, defer: bool = False) -> dict[str, str]:
    """Field errors by the panel's field names, as sentences for the owner in `_`'s language
    (`person_errors.py`): `selected_ids[2]` goes to `selected`, a defer's `rationale` to
    `defer_rationale` (two rationale boxes may be on the page)."""
    shown: dict[str, str] = {}
    for error in errors:
        name = error.field.split("[", 1)[0]
        if name.startswith("quorum") or name.endswith("min_votes"):
            name = "min_votes"
        name = {"selected_ids": "selected", "custom_input": "final_answer"}.get(name, name)
        if defer and name == "rationale":
            name = "defer_rationale"
        shown.setdefault(name, person_message(error, _, name))
    return shown


class DecisionView(Struct, frozen=True):
    """The owner's decision panel of a widened or deferred question."""

    status: str
    review: CandidateReview
    audience: int
    """People who can vote now (links not withdrawn): the quorum's upper bound."""
    widened: bool
    form: DecisionForm = field(default_factory=DecisionForm)

    @property
    def panel(self) -> bool:
        return self.status in PANEL_STATUSES

    @property
    def state(self) -> str:
        return self.review.state

    @property
    def quorum(self) -> int | None:
        return self.review.quorum_min_votes

    @property
    def due_at_ms(self) -> int | None:
        due = self.review.due_at
        return round(parse_iso(due) * 1000) if due else None

    @property
    def seconds_left(self) -> int:
        due = self.review.due_at
        return max(0, round(parse_iso(due) - now())) if due else 0

    @property
    def server_now_ms(self) -> int:
        return round(now() * 1000)


class SharedDecision(Struct, frozen=True):
    """What a participant may know of the write-back while the question is open: that it
    is deferred and why (the owner is told the team sees it), and the quorum. How it was
    decided is the discussion's ending (`views.team.Ending`)."""

    deferred: bool
    defer_rationale: str | None
    quorum: int | None
    audience: int


def shared_decision(row: Interaction, decision: Decision | None, quorum: int | None,
                    audience: int) -> SharedDecision:
    return SharedDecision(
        deferred=row.status == "deferred",
        defer_rationale=decision.defer_rationale if decision and row.status == "deferred"
        else None,
        quorum=quorum if row.status in PANEL_STATUSES else None,
        audience=audience)
