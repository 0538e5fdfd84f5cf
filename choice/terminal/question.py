"""The question as the terminal shows it: the portal's `/detail` reply, made safe to draw.

Every string a model wrote passes through `safe_text` here, once, so nothing later can
forget to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from choice.contract import ChoiceRequest, Option
from choice.contract.attachments import file_size
from choice.contract.clock import parse_iso
from choice.terminal.text import safe_text


@dataclass(frozen=True)
class Choice:
    id: str
    label: str
    description: str
    recommended: bool
    rationale: str


@dataclass(frozen=True)
class Question:
    id: str
    request: ChoiceRequest
    title: str
    prompt: str
    options: list[Choice]
    placeholder: str
    created_at: float
    expires_at: float
    status: str
    language: str
    agent: str
    widen_hint: str
    """The agent's one-line suggestion to consult the team (shown dimmed; never an action)."""
    files: tuple[tuple[str, int, str], ...] = ()
    """The files the agent shows (name, size, the real path `choice mcp` read it from, or
    ""): the terminal lists them; a browser shows them."""
    signed_in: tuple[str, str] | None = None
    """On a team server: the member this terminal answers as and the server (`bob@example.com`,
    `team.example.com`), made safe, for the header; None on this machine's own portal."""

    @property
    def beyond_title(self) -> str:
        """The prompt without what the title already says: a `hitl_request` (and any
        question whose title is its prompt's first line) is shown once, not twice."""
        title = " ".join(self.title.split())
        if " ".join(self.prompt.split()) == title:
            return ""
        first, _, rest = self.prompt.strip().partition("\n")
        return rest.strip() if " ".join(first.split()) == title else self.prompt

    @property
    def mode(self) -> str:
        return self.request.selection_mode

    @property
    def multi(self) -> bool:
        return (self.request.max_selections or 0) > 1

    @property
    def has_text(self) -> bool:
        return self.mode in ("text_input", "hybrid")

    @property
    def asked_at(self) -> str:
        """The local time it was asked, written the way the question's language writes it."""
        from babel.dates import format_time

        return str(format_time(datetime.fromtimestamp(self.created_at), "short",
                               locale=self.language))

    @classmethod
    def from_detail(cls, detail: dict[str, Any]) -> Question:
        request = ChoiceRequest.model_validate(detail["request"])
        return cls(
            id=detail["interaction_id"], request=request,
            title=safe_text(request.title, keep_newlines=False),
            prompt=safe_text(request.prompt or ""),
            options=choices(request.options),
            placeholder=safe_text(request.placeholder or "", keep_newlines=False)
            if detail.get("placeholder_shown") else "",
            created_at=parse_iso(detail["created_at"]),
            # A deferred question runs no deadline (null): nothing counts down meanwhile.
            expires_at=parse_iso(detail["expires_at"] or detail["created_at"]),
            status=detail["status"], language=detail.get("language") or "en",
            agent=safe_text(request.context.agent or "", keep_newlines=False),
            widen_hint=safe_text(widen_hint(request.widen_hint or ""), keep_newlines=False),
            files=tuple((safe_text(file.name, keep_newlines=False), file.size or 0,
                         safe_text(file.source_path or "", keep_newlines=False))
                        for file in request.attachments),
        )

    def files_line(self, _: Callable[[str], str]) -> str:
        """`Files: bars.png (1.2 KB) from /home/me/app/bars.png, data.csv (760 B). To see
        them: choice open <id>`."""
        if not self.files:
            return ""
        listed = ", ".join(f"{name} ({file_size(size)})"
                           + (" " + _("from {path}").format(path=source) if source else "")
                           for name, size, source in self.files)
        return _("Files: {files}. To see them: {command}").format(
            files=listed, command=f"choice open {self.id}")


WIDEN_HINT_PREFIX = "[WIDEN-HINT] "
"""An agent may mark its widen hint so (case-sensitive, with the space); the
terminal strips the mark and shows the rest dimmed."""


def widen_hint(hint: str) -> str:
    return hint[len(WIDEN_HINT_PREFIX):] if hint.startswith(WIDEN_HINT_PREFIX) else hint


def choices(options: list[Option]) -> list[Choice]:
    """A question's options, made safe to draw."""
    return [Choice(id=o.id, label=safe_text(o.label, keep_newlines=False),
                   description=safe_text(o.description or ""), recommended=o.recommended,
                   rationale=safe_text(o.rationale or ""))
            for o in options]
