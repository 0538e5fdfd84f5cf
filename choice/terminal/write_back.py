"""The owner's write-back as the terminal holds it (see docs/guides/write-back.md): the agent's
candidate from `GET/POST .../review`, a deferral, and the write-back in progress (which
step, the final answer written so far).

Data only, made safe to draw here, once: what each key does while reviewing is
`stages/review.py`. No curses, no network, nothing else of the terminal's state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from choice.contract.clock import parse_iso
from choice.terminal.text import safe_text

Step = Literal["review", "final", "rationale", "defer"]


def _line(value: Any) -> str:
    return safe_text(str(value or ""), keep_newlines=False)


@dataclass(frozen=True)
class Candidate:
    """`GET/POST .../review` (the candidate review with its state), made safe to draw.
    `answer` stays as the agent sent it: accepting sends exactly that back."""

    state: str
    """not_requested | awaiting_candidate | candidate_ready | timed_out"""
    summary: str
    answer: str
    shown_answer: str
    selected_ids: list[str]
    """The options the candidate picks: accepting sends them back too."""
    due_at: float | None
    messages: list[str]
    message_count: int
    truncated: bool
    participants: list[str]

    @classmethod
    def from_review(cls, payload: dict[str, Any]) -> Candidate:
        discussion = payload.get("discussion_fetch") or {}
        return cls(
            state=str(payload.get("state") or "not_requested"),
            summary=safe_text(str(payload.get("candidate_summary") or "")),
            answer=str(payload.get("candidate_answer") or ""),
            shown_answer=safe_text(str(payload.get("candidate_answer") or "")),
            selected_ids=[str(i) for i in payload.get("candidate_selected_ids") or []],
            due_at=parse_iso(payload["due_at"]) if payload.get("due_at") else None,
            messages=[_line(m) for m in discussion.get("messages") or []],
            message_count=int(discussion.get("message_count") or 0),
            truncated=bool(discussion.get("truncated")),
            participants=[_line(p) for p in discussion.get("participants") or []])

    @property
    def ready(self) -> bool:
        return self.state == "candidate_ready"

    @property
    def waiting(self) -> bool:
        return self.state == "awaiting_candidate"


@dataclass(frozen=True)
class Deferral:
    """A deferred question as `choice answer` finds it: why, and since when."""

    rationale: str
    deferred_at: float | None

    @classmethod
    def from_review(cls, payload: dict[str, Any]) -> Deferral:
        at = payload.get("deferred_at")
        return cls(_line(payload.get("defer_rationale")), parse_iso(at) if at else None)


@dataclass
class WriteBack:
    """The write-back in progress. `candidate` is None for a deferral straight from the
    question (no review): Esc then goes back to the question."""

    candidate: Candidate | None
    step: Step = "review"
    final: str = ""
    """The final answer written, waiting for its optional rationale."""
    scroll: int = 0
