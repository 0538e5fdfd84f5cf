"""The portal's MCP server: `provide_choice`, `hitl_request`, `request_user_choice`,
`list_pending`, and `submit_candidate` (the agent's summary of a widened discussion, when the
owner asks for one).

Tools call the same `InteractionService` as the HTTP API, in-process. A call waits for the
human for at most `CHOICE_MCP_WAIT_SECONDS` (default 50: under the 60 s request timeout of
TypeScript-SDK clients), sends a progress notification every 15 s when the client asked for
progress (that resets idle timers such as Claude Code's), then answers `pending` with a
`session_id` to poll with. When the owner widens the question to teammates with mode
`continue`, the waiting call answers `widened` at once (the agent carries on and polls
later); with `block` it keeps waiting. When the owner asks for a summary of the discussion,
or defers the question, the waiting call answers at once (`summary_requested`,
`deferred`). Agents ask and summarise; no tool can answer, widen or resolve.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from mcp.server import Server, ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)
from starlette.applications import Starlette

from choice.contract import OPEN_STATUSES, FieldError
from choice.contract.attachments import ASKING_BODY_MAX
from choice.contract.errors import AlreadyCompleted, NotFound
from choice.contract.field_errors import InvalidInput, parse_model
from choice.contract.submission import WithdrawBody
from choice.core.actors import MEMBER_SCOPE_KEY, Actor
from choice.core.config import Settings
from choice.core.service import InteractionService
from choice.decision.models import CandidateBody
from choice.decision.service import DecisionService
from choice.mcp.agent_name import UNNAMED, agent_name
from choice.mcp.described import described_tools
from choice.mcp.elicitation import (
    Elicitation,
    Mode,
    asks_in_client,
    client_modes,
    mode_for,
)
from choice.mcp.local_files import SOURCES_META
from choice.mcp.pending import pending_list
from choice.mcp.replies import candidate_refusal, invalid, result_for, text_content
from choice.mcp.tools import LIST_PENDING, SUBMIT_CANDIDATE, TOOLS_BY_NAME, WITHDRAW, ToolSpec
from choice.store.records import Interaction
from choice.team.service import TeamService

log = logging.getLogger("choice.mcp")
Call = ServerRequestContext[Any, Any]
"""The request a tool call came in: its session (progress, elicitation, the client's
`initialize`), its id and its `_meta`."""
MCP_AGENT = Actor.agent("mcp")
"""The actor of everything an agent does over MCP; a question's `created` event keeps it."""
ASKED_ELSEWHERE = (
    "This question was not asked over MCP (it came through the HTTP API: `choice ask`, a "
    "hook or another client), so withdraw_question leaves it as it is: only the client that "
    "asked it may withdraw it, with POST /api/interactions/<session_id>/withdraw. Nothing "
    "was changed.")
SignInLink = Callable[[str, float], str]
"""(path, seconds) -> a one-time sign-in link to that page, good for that long."""
INSTRUCTIONS = (
    "This server lets you ask the human a question and get a structured answer. Ask "
    "instead of guessing when there are several viable paths, an action is destructive, or "
    "configuration is missing. Put the task context and your reason where the human reads "
    "the question: `prompt` in provide_choice, `question` in the other asking tools. The human "
    "may widen a question to teammates: a 'widened' reply is not an answer; poll it later "
    "with its session_id, and call list_pending before you finish."
)



NO_MEMBER = ("This team portal did not see whose agent you are: connect with a member's "
             "token (Authorization: Bearer <token>), made on the portal's settings page.")
WIDENED_TO_ME_HEADING = ("Widened to your person by other members (not yours: do not poll or "
                         "answer them; tell your person if it helps):")


async def asked_over_mcp(service: InteractionService, interaction_id: str) -> bool:
    """Whether the question was asked over MCP: its first audit event, `created`, is
    `MCP_AGENT`'s. `NotFound` for an unknown id."""
    first = await service.events(interaction_id, limit=1)
    return bool(first) and first[0].kind == "created" and Actor.parse(first[0].actor) == MCP_AGENT

class McpParts(Protocol):
    """What the MCP tools reach (`choice.portal.Portal` has these)."""

    @property
    def service(self) -> InteractionService: ...
    @property
    def team(self) -> TeamService: ...
    @property
    def decision(self) -> DecisionService: ...


class PortalMCP:
    """The portal's tools on the SDK's low-level `Server`, registered the way it documents
    for tools whose schemas are written, not read from Python signatures: a `tools/list`
    handler that lists them (from the contract, `described_tools`) and a `tools/call`
    handler that runs them (`call_tool`)."""

    def __init__(self, portal: Callable[[], McpParts], settings: Settings,
                 sign_in_link: SignInLink | None = None) -> None:
        """`sign_in_link`: makes the one-time link a URL elicitation hands the client
        (the web side owns sign-in; without it, the client is asked by form only)."""
        self._portal = portal
        self._settings = settings
        self._sign_in_link = sign_in_link
        self._tools: list[Tool] | None = None
        # No schema for the SDK to check a call's headers against: the portal validates
        # every argument itself, with errors that carry the fix.
        self.server: Server[Any] = Server(
            "choice-portal", instructions=INSTRUCTIONS,
            get_tool_input_schema=lambda _name: None,
            on_list_tools=self._on_list_tools, on_call_tool=self._on_call_tool)

    @property
    def session_manager(self) -> StreamableHTTPSessionManager:
        """Runs the sessions of the app `streamable_http_app` made (enter it in a lifespan)."""
        return self.server.session_manager

    def streamable_http_app(self, **options: Any) -> Starlette:
        """The SDK's app with the asking route's body limit (`ASKING_BODY_MAX`, 16 MiB):
        a tool call may ask a question with its files, base64, as `POST /api/interactions`
        may; over it is a 413 (the web mount answers it first, in the portal's words)."""
        options.setdefault("max_request_body_size", ASKING_BODY_MAX)
        return self.server.streamable_http_app(**options)

    async def list_tools(self) -> list[Tool]:
        if self._tools is None:
            self._tools = described_tools()  # (slow) at the first listing, not at start
        return self._tools

    async def _on_list_tools(self, call: Call,
                             params: PaginatedRequestParams | None) -> ListToolsResult:
        return ListToolsResult(tools=await self.list_tools())

    async def _on_call_tool(self, call: Call, params: CallToolRequestParams) -> CallToolResult:
        try:
            return await self.call_tool(params.name, dict(params.arguments or {}), call)
        except Exception:  # a fault of ours: the agent gets a plain error, the log the trace
            log.exception("the MCP tool %r failed", params.name)
            return CallToolResult(content=text_content(
                f"The portal could not run {params.name}: its log has the details. Ask the "
                "human in another way, or try again later."), is_error=True)

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Call | None = None) -> CallToolResult:
        spec = TOOLS_BY_NAME.get(name)
        if spec is None and name not in (LIST_PENDING, SUBMIT_CANDIDATE, WITHDRAW):
            return CallToolResult(content=text_content(
                f"Unknown tool {name!r}: use "
                + ", ".join([*TOOLS_BY_NAME, LIST_PENDING, SUBMIT_CANDIDATE, WITHDRAW])),
                is_error=True)
        try:
            if name == SUBMIT_CANDIDATE:
                return await self._submit_candidate(dict(arguments or {}), context)
            if name == WITHDRAW:
                return await self._withdraw(dict(arguments or {}), context)
            if spec is None:
                return await self._list_pending(dict(arguments or {}), context)
            return await self._ask_or_poll(spec, dict(arguments), context)
        except InvalidInput as errors:
            return invalid(errors)
        except NotFound as missing:
            return CallToolResult(content=text_content(
                f"No interaction with session_id {missing.interaction_id!r}: it may have "
                "been removed by retention. Ask again only if the decision is still needed."),
                is_error=True)

    async def _ask_or_poll(self, spec: ToolSpec, arguments: dict[str, Any],
                           context: Call | None) -> CallToolResult:
        service = self._portal().service
        session_id = arguments.pop("session_id", None)
        setting = (await service.preferences(self._member(context))).elicitation
        modes = self._client_modes(context)
        if session_id is not None:
            row = await self._question(str(session_id), context)
        else:
            context_given = arguments.setdefault("context", {})
            if isinstance(context_given, dict) and not context_given.get("agent"):
                context_given["agent"] = self._client_name(context)
            in_client = asks_in_client(arguments.get("interface"), setting, modes)
            if in_client:
                arguments["interface"] = "client"
            created = await service.create(arguments, spec.shape, actor=MCP_AGENT,
                                           in_client=in_client,
                                           source_paths=self._source_paths(context),
                                           member_id=self._member(context))
            row = created.row
            if row.interface == "terminal":  # the hand-off: nothing to wait for yet
                return self._with_warnings(await result_for(service, row, spec.name),
                                           created.warnings)
        asking = self._elicitation(service, row, context, mode_for(setting, modes))
        try:
            row = await self._wait(service, row, context, asking)
        finally:
            if asking is not None:
                await asking.close(row)
        warnings = [*([] if session_id is not None else created.warnings),
                    *(asking.warnings if asking is not None else [])]
        return self._with_warnings(await result_for(service, row, spec.name), warnings)

    def _member(self, context: Call | None) -> str | None:
        """In team mode, the member whose token or session made this call (the web
        transport puts it in the request's scope); None in local mode."""
        if not self._portal().service.settings.team_mode:
            return None
        scope = getattr(context.request, "scope", None) if context is not None else None
        member = scope.get(MEMBER_SCOPE_KEY) if isinstance(scope, dict) else None
        return member if isinstance(member, str) else None

    async def _question(self, session_id: str, context: Call | None) -> Interaction:
        """The question `session_id` names; in team mode `NotFound` unless it is the calling
        member's, word for word as for an id that does not exist."""
        service = self._portal().service
        row = await service.get(session_id)
        if service.settings.team_mode and (
                row.member_id is None or row.member_id != self._member(context)):
            raise NotFound(session_id)
        return row

    @staticmethod
    def _source_paths(context: Call | None) -> list[str | None]:
        """Where `choice mcp` read each attachment, from the call's `_meta`
        (`SOURCES_META`), which the client writes and the model does not."""
        meta = context.meta if context is not None else None
        given = meta.get(SOURCES_META) if isinstance(meta, dict) else None
        if not isinstance(given, list):
            return []
        return [path if isinstance(path, str) and path else None for path in given]

    @staticmethod
    def _client_name(context: Call | None) -> str:
        """The agent's name from the client's `initialize` (`clientInfo.name`), for a
        question whose `context.agent` is not given; `mcp` without one."""
        params = context.session.client_params if context is not None else None
        return agent_name(params.client_info.name) if params is not None else UNNAMED

    def _client_modes(self, context: Call | None) -> set[Mode]:
        """What the calling client can ask its user; nothing outside a request."""
        if context is None:
            return set()
        modes = client_modes(context.session)
        return modes if self._sign_in_link is not None else modes - {"url"}

    def _elicitation(self, service: InteractionService, row: Interaction,
                     context: Call | None, mode: Mode | None) -> Elicitation | None:
        """Ask in the client too, when the question is meant for it and still pending (a
        poll asks again: the call that asked first may have been cancelled by the client)."""
        if context is None or mode is None or row.interface != "client" or row.status != "pending":
            return None
        url = None
        if mode == "url" and self._sign_in_link is not None:
            url = self._sign_in_link(f"/choice/{row.id}", row.expires_at - service.clock())
        asking = Elicitation(service, row, context, mode, url)
        asking.start()
        return asking

    async def _submit_candidate(self, arguments: dict[str, Any],
                                context: Call | None) -> CallToolResult:
        session_id = arguments.pop("session_id", None)
        body = parse_model(CandidateBody, arguments)
        if not isinstance(session_id, str) or not session_id:
            raise InvalidInput([FieldError(
                field="session_id", code="required",
                message="send the session_id of the summary_requested reply.")])
        await self._question(session_id, context)
        try:
            review = await self._portal().decision.submit_candidate(session_id, body,
                                                                     actor=MCP_AGENT)
        except AlreadyCompleted as refused:
            return CallToolResult(content=text_content(candidate_refusal(refused)),
                                  structured_content={"errors": [{
                                      "field": "session_id", "code": "not_in_review",
                                      "message": candidate_refusal(refused)}]},
                                  is_error=True)
        return CallToolResult(content=text_content(
            "Candidate received: the owner now accepts, edits or defers it. Poll the "
            f"question with only session_id {session_id} for the final decision."),
            structured_content=review.model_dump())

    async def _withdraw(self, arguments: dict[str, Any], context: Call | None) -> CallToolResult:
        """`withdraw_question`: the question ends `withdrawn`; one already over answers its
        standing result instead (the agent should use it). Only a question asked over MCP:
        one asked over the HTTP API (`choice ask`, a hook, another client) is refused and
        left as it is."""
        session_id = arguments.pop("session_id", None)
        body = parse_model(WithdrawBody, arguments)
        if not isinstance(session_id, str) or not session_id:
            raise InvalidInput([FieldError(field="session_id", code="required",
                                           message="send the session_id of your question.")])
        service = self._portal().service
        await self._question(session_id, context)
        if not await asked_over_mcp(service, session_id):
            return CallToolResult(content=text_content(ASKED_ELSEWHERE), is_error=True,
                                  structured_content={"errors": [{
                                      "field": "session_id", "code": "asked_elsewhere",
                                      "message": ASKED_ELSEWHERE}]})
        try:
            row = await service.withdraw(session_id, body.reason, MCP_AGENT)
        except AlreadyCompleted as over:
            row = over.row
        return await result_for(service, row, WITHDRAW)

    async def _list_pending(self, arguments: dict[str, Any],
                            context: Call | None) -> CallToolResult:
        portal = self._portal()
        member = self._member(context)
        if portal.service.settings.team_mode and member is None:  # nobody's questions
            return CallToolResult(content=text_content(NO_MEMBER), is_error=True)
        listed = await pending_list(portal.service, portal.team, portal.decision, arguments,
                                    member)
        lines = [listed.instructions] + [
            f"- {entry.session_id} [{entry.status}"
            + (f", {entry.mode}, with {', '.join(entry.participants)}" if entry.mode else "")
            + f"] {entry.title}" for entry in listed.interactions]
        if listed.widened_to_me:  # team mode: apart, and marked as not the agent's
            lines.append(WIDENED_TO_ME_HEADING)
            lines += [f"- {entry.interaction_id} [widened to you] {entry.title} ({entry.link})"
                      for entry in listed.widened_to_me]
        return CallToolResult(content=text_content("\n".join(lines)),
                              structured_content=listed.structured())

    async def _wait(self, service: InteractionService, row: Interaction,
                    context: Call | None,
                    asking: Elicitation | None = None) -> Interaction:
        """Wait until the agent has something to hear (the end, a deferral, a widening it
        may carry on past, the owner asking for its summary: the core's waiting policy),
        up to the wait window, with a progress notification every few seconds; while the
        client is asking the human (`asking`), up to the deadline: the answer comes through
        this call, and the scheduler ends the interaction at the deadline anyway."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        end = started + self._settings.mcp_wait_seconds
        every = self._settings.mcp_progress_seconds
        # One wait for the whole call, not one per window: a change published while a
        # progress notification goes out still ends the next window at once.
        with service.waiting(row.id) as waiting:
            while row.status in OPEN_STATUSES:
                holding = asking is not None and asking.open
                left = end - loop.time() if not holding else every
                if left <= 0:
                    break
                waited = await waiting.next(min(every, left))
                row = waited.row
                if waited.woken:
                    break
                holding = asking is not None and asking.open
                if row.status in OPEN_STATUSES and context is not None and (
                        holding or end - loop.time() > 0):
                    await context.session.report_progress(
                        round(loop.time() - started, 1),
                        message=("Waiting for the team's discussion and the human's decision"
                                 if row.status == "widened" else "Waiting for the human to answer"))
        return row

    @staticmethod
    def _with_warnings(result: CallToolResult, warnings: list[str]) -> CallToolResult:
        if warnings and isinstance(result.structured_content, dict):
            result.structured_content["warnings"] = warnings
            result.content.append(TextContent(type="text", text="Warnings: " + json.dumps(warnings)))
        return result


def security_for(settings: Settings) -> TransportSecuritySettings:
    """The SDK's own DNS-rebinding guard, agreeing with the portal's allowlist (the public
    origin of `CHOICE_PUBLIC_URL` included)."""
    hosts = [f"[{h}]" if ":" in h else h for h in settings.allowed_hosts]
    public = [settings.public_url] if settings.public_url else []  # already an origin
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*hosts, *(f"{h}:*" for h in hosts)],
        allowed_origins=[f"http://{h}:*" for h in hosts] + [f"http://{h}" for h in hosts] + public,
    )
