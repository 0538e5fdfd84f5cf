"""Asking inside the MCP client (elicitation), beside the portal's own page.

The interaction is created and shown in the portal as usual (interface `client`); while the
tool call waits, an `Elicitation` asks the same question through the client: a form
(`elicit_form.py`), or a URL to the question's page, signed in through a one-time link
(protocol 2025-11-25, for sessions where the portal cannot open a browser itself). Whichever
answer comes first wins through the service's first-writer-wins completion: the client's
answer is submitted as interface `client` (actor `human:client`, audited like any other);
when the page wins, the tool call closes the elicitation (the SDK sends the client
`notifications/cancelled`).

Decline and cancel in the client cancel the interaction, saying so. A client that errors,
or whose answer breaks the request's rules, leaves the question to the page: the
interaction switches to `web` and the agent's result carries a warning. This module decides
nothing about waiting windows (`server.py` does) and never answers for the human.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any, Literal

from choice.contract import OPEN_STATUSES, ElicitationSetting
from choice.contract.errors import AlreadyCompleted
from choice.contract.field_errors import InvalidInput
from choice.contract.safe_text import safe_text
from choice.core.actors import SYSTEM, Actor
from choice.core.endings import request_of
from choice.core.i18n import translator
from choice.core.service import InteractionService
from choice.mcp.elicit_form import form_for, submission_from
from choice.store.records import Interaction

log = logging.getLogger("choice.mcp")
Mode = Literal["form", "url"]
ACTOR = Actor.owner("client")
DECLINED = "Declined in the MCP client."
DISMISSED = "Dismissed in the MCP client without an answer."


def client_modes(session: Any) -> set[Mode]:
    """The elicitation modes the client declared (an empty `elicitation: {}` is form, as the
    protocol says for clients older than URL mode)."""
    capabilities = session.client_capabilities
    declared = capabilities.elicitation if capabilities is not None else None
    if declared is None:
        return set()
    modes: set[Mode] = set()
    if declared.form is not None or declared.url is None:
        modes.add("form")
    if declared.url is not None:
        modes.add("url")
    return modes


def asks_in_client(requested: object, setting: ElicitationSetting, modes: set[Mode]) -> bool:
    """Whether a new question goes to the client: it can ask, and the agent said `client`,
    or said `auto` (or nothing) while the saved setting is on."""
    return bool(modes) and (requested == "client"
                            or (requested in ("auto", None) and setting != "off"))


def mode_for(setting: ElicitationSetting, modes: set[Mode]) -> Mode | None:
    """The saved setting's mode when the client has it, else the one it has (form first)."""
    if setting == "url" and "url" in modes:
        return "url"
    return "form" if "form" in modes else "url" if "url" in modes else None


class Elicitation:
    """One elicitation for one pending interaction, run as a task beside the tool's wait."""

    def __init__(self, service: InteractionService, row: Interaction, context: Any, mode: Mode,
                 url: str | None = None) -> None:
        self.service, self.row, self.context, self.mode, self.url = (
            service, row, context, mode, url)
        self.warnings: list[str] = []
        self.elicitation_id = f"choice-{row.id}-{secrets.token_hex(4)}"
        self.accepted_url = False
        self._task: asyncio.Task[None] | None = None

    @property
    def open(self) -> bool:
        """The human is still being asked in the client (or went to the page it opened)."""
        return self.accepted_url or (self._task is not None and not self._task.done())

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"elicit-{self.row.id}")

    async def close(self, row: Interaction) -> None:
        """The wait is over: withdraw a form still shown; tell a client that opened the page
        that the question was answered there."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.accepted_url and row.status not in OPEN_STATUSES:
            with contextlib.suppress(Exception):  # a client already gone needs no notice
                await self.context.session.send_elicit_complete(
                    self.elicitation_id,
                    related_request_id=self.context.request_id)

    async def _run(self) -> None:
        session, related = self.context.session, self.context.request_id
        await self.service.owners_preferences(self.row)  # team mode: the member's language
        _ = translator(self.service.owners_language(self.row))
        request = request_of(self.row)
        try:
            if self.mode == "form":
                form = form_for(request, _)
                result = await session.elicit_form(form.message, form.schema,
                                                   related_request_id=related)
            else:
                title = safe_text(request.title, keep_newlines=False)
                result = await session.elicit_url(
                    _("Answer this question in the choice portal: %(title)s") % {"title": title},
                    self.url or "", self.elicitation_id, related_request_id=related)
        except Exception as error:  # the client refused or failed: the page still asks
            log.info("elicitation for %s failed: %s", self.row.id, error)
            await self._fall_back(f"the MCP client could not ask the question "
                                  f"({type(error).__name__}: {error})")
            return
        if result.action == "accept" and self.mode == "url":
            self.accepted_url = True
        elif result.action == "accept":
            await self._submit(result.content)
        else:
            await self._cancel(DECLINED if result.action == "decline" else DISMISSED)

    async def _submit(self, content: dict[str, Any] | None) -> None:
        try:
            submission = submission_from(request_of(self.row), content)
            await self.service.submit(self.row.id, submission, "client", ACTOR)
        except InvalidInput as refused:
            fields = "; ".join(f"{e.field}: {e.message}" for e in refused.errors)
            await self._fall_back(f"the answer from the MCP client was refused ({fields})")
        except AlreadyCompleted:
            pass  # answered in the page first: that answer stands

    async def _cancel(self, reason: str) -> None:
        options_only = request_of(self.row).shape == "hitl_request"  # no note: not even this
        with contextlib.suppress(AlreadyCompleted):
            await self.service.cancel(self.row.id, None if options_only else reason, "client",
                                      ACTOR)

    async def _fall_back(self, why: str) -> None:
        self.warnings.append(f"{why}; it is asked in the web page instead.")
        with contextlib.suppress(AlreadyCompleted):
            await self.service.switch_interface(self.row.id, "web", SYSTEM)
