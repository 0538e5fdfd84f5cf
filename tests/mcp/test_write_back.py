"""The write-back of a widened decision as an agent lives it, with the SDK's own client over
Streamable HTTP and through the stdio bridge: the owner widens with `block` (the call keeps
waiting), asks for a summary (the waiting call returns `summary_requested` at once, with
the discussion in its text), the agent calls `submit_candidate`, polls again and gets the
owner's resolution with its provenance. A deferral returns the owner's rationale; a
candidate nobody asked for, or a bad one, is a tool error the agent can act on.

Every `structuredContent` is checked against the tool's listed `outputSchema`, as a
TypeScript-SDK client checks it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.types import CallToolResult

from tests.mcp.conftest import ask, http_session, stdio_session
from tests.mcp.test_mcp_http import structured
from tests.mcp.test_output_schema import check
from tests.mcp.test_team import waiting_for, widen
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow

WINDOW = 20.0
"""The portal's MCP wait: a call that returns well before it was woken, not timed out."""
WOKEN = 5.0
"""How soon a woken call must return (a wake is milliseconds; the bound absorbs load)."""
STILL = 0.5
"""How long a call must stay unanswered to count as still waiting after a change."""
CANDIDATE = {"candidate_summary": "Alice and the owner agree on PostgreSQL; Bob prefers SQLite.",
             "candidate_answer": "PostgreSQL, with the migration path planned from day 1.",
             "selected_ids": ["pg"], "source_hint": "discussion_extraction"}


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("mcp-write-back"),
                            CHOICE_MCP_WAIT_SECONDS=str(int(WINDOW)),
                            CHOICE_MCP_PROGRESS_SECONDS="0.3").start()
    process.client().call("PUT", "/api/settings", {"team": [{"name": "Alice"}, {"name": "Bob"}]})
    yield process
    process.stop()


Session = Callable[[PortalProcess], AbstractAsyncContextManager[ClientSession]]


def over_http(portal: PortalProcess) -> AbstractAsyncContextManager[ClientSession]:
    return http_session(portal)


def over_stdio(portal: PortalProcess) -> AbstractAsyncContextManager[ClientSession]:
    return stdio_session(portal.data_dir, portal.port, CHOICE_MCP_WAIT_SECONDS=str(int(WINDOW)))


TRANSPORTS = pytest.mark.parametrize("opened", [over_http, over_stdio], ids=["http", "stdio"])
"""The SDK's sessions are entered and left in the test's own task (anyio's task groups
must not cross tasks, as a fixture's set-up and tear-down would)."""


async def owner(portal: PortalProcess, method: str, path: str, body: Any = None) -> Any:
    return await asyncio.to_thread(portal.client().call, method, path, body)


async def schemas(session: ClientSession) -> dict[str, dict[str, Any]]:
    listed = (await session.list_tools()).tools
    return {tool.name: tool.output_schema for tool in listed if tool.output_schema}


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


async def still_waiting(call: asyncio.Task[CallToolResult]) -> bool:
    done, _ = await asyncio.wait({call}, timeout=STILL)
    return not done


async def participant(portal: PortalProcess, link: str, method: str, path: str,
                      body: Any) -> None:
    """A teammate's call: no token, only the link's secret."""
    from choice.client.portal_client import PortalClient

    them = PortalClient(portal.base_url, None)
    await asyncio.to_thread(them.call, method, f"/api/d/{link.rsplit('/', 1)[1]}{path}", body)



@TRANSPORTS
async def test_summary_requested_candidate_then_the_owners_resolution(
        portal: PortalProcess, opened: Session) -> None:
    async with opened(portal) as session:
        tools = await schemas(session)
        request = ask()
        call = asyncio.create_task(session.call_tool("provide_choice", request))
        iid = await waiting_for(portal, str(request["title"]))

        invited = await widen(portal, iid, "block")
        links = {p["name"]: p["link"] for p in invited["participants"]}
        assert await still_waiting(call), "block keeps the agent's call waiting"
        await owner(portal, "POST", f"/api/interactions/{iid}/comments",
                    {"text": "PostgreSQL, but plan the migration from day 1."})
        await participant(portal, links["Alice"], "POST", "/comments", {"text": "Agreed: PostgreSQL."})
        await participant(portal, links["Alice"], "PUT", "/vote", {"option_ids": ["pg"]})
        await participant(portal, links["Bob"], "PUT", "/vote", {"option_ids": ["lite"]})
        assert await still_waiting(call), "comments and votes do not end the agent's wait"

        loop = asyncio.get_running_loop()
        asked_at = loop.time()
        review = await owner(portal, "POST", f"/api/interactions/{iid}/review")
        assert review["state"] == "awaiting_candidate"
        result = await asyncio.wait_for(call, WINDOW)
        assert loop.time() - asked_at < WOKEN, "the waiting call returns at once, not at its window"
        body = structured(result)
        assert not result.is_error and check(tools["provide_choice"], body) == []
        assert (body["action_status"], body["status"], body["session_id"]) == (
            "summary_requested", "widened", iid)
        assert body["discussion"]["participants"] == ["Alice", "Bob"]
        text = text_of(result)
        assert "[Owner] PostgreSQL, but plan the migration from day 1." in text
        assert "[Alice] Agreed: PostgreSQL." in text
        assert "submit_candidate" in text and iid in text and "PostgreSQL (id pg)" in text

        sent = await session.call_tool("submit_candidate", {"session_id": iid, **CANDIDATE})
        assert not sent.is_error, text_of(sent)
        assert check(tools["submit_candidate"], structured(sent)) == []
        assert structured(sent)["state"] == "candidate_ready"
        assert "Poll the question with only session_id" in text_of(sent)

        polling = asyncio.create_task(session.call_tool("provide_choice", {"session_id": iid}))
        assert await still_waiting(polling), "with the candidate in, the agent waits for the owner"
        await owner(portal, "POST", f"/api/interactions/{iid}/resolve",
                    {"final_answer": CANDIDATE["candidate_answer"], "selected_ids": ["pg"],
                     "rationale": "Team consensus."})
        final = await asyncio.wait_for(polling, WOKEN)
        decided = structured(final)
        assert check(tools["provide_choice"], decided) == []
        assert decided["status"] == "submitted"
        assert decided["summary_json"] == {"text": CANDIDATE["candidate_summary"],
                                           "source": "discussion_extraction"}
        assert (decided["selected_ids"], decided["custom_input"]) == (["pg"], None)
        assert (decided["decided_by"], decided["rationale"]) == ("owner", "Team consensus.")
        assert decided["participants"] == ["Alice", "Bob"]
        tally = {v["option_id"]: (v["votes"], v["voters"]) for v in decided["votes"]}
        assert tally == {"pg": (1, ["Alice"]), "lite": (1, ["Bob"])}
        assert "Decided by the owner after discussing it with 2 teammates" in text_of(final)



@TRANSPORTS
async def test_a_deferral_returns_the_rationale_to_the_waiting_call_and_is_listed(
        portal: PortalProcess, opened: Session) -> None:
    async with opened(portal) as session:
        tools = await schemas(session)
        request = ask()
        call = asyncio.create_task(session.call_tool("provide_choice", request))
        iid = await waiting_for(portal, str(request["title"]))
        loop = asyncio.get_running_loop()
        deferred_at = loop.time()
        await owner(portal, "POST", f"/api/interactions/{iid}/defer",
                    {"rationale": "Waiting for the load test."})
        result = await asyncio.wait_for(call, WINDOW)
        assert loop.time() - deferred_at < WOKEN
        body = structured(result)
        assert not result.is_error and check(tools["provide_choice"], body) == []
        assert (body["status"], body["action_status"], body["rationale"]) == (
            "deferred", "deferred", "Waiting for the load test.")
        assert "Deferred" in text_of(result) and "Waiting for the load test." in text_of(result)

        again = structured(await asyncio.wait_for(
            session.call_tool("provide_choice", {"session_id": iid}), WOKEN))
        assert again["action_status"] == "deferred"  # a poll does not wait on a deferred one

        listed = await session.call_tool("list_pending", {"status": "deferred"})
        assert check(tools["list_pending"], structured(listed)) == []
        entries = structured(listed)["interactions"]
        assert iid in {e["session_id"] for e in entries}
        assert {e["status"] for e in entries} == {"deferred"}



@TRANSPORTS
async def test_a_candidate_nobody_asked_for_is_refused_with_what_to_do(
        portal: PortalProcess, opened: Session) -> None:
    async with opened(portal) as session:
        client = portal.client()
        iid = (await asyncio.to_thread(client.create, ask()))["interaction_id"]
        await widen(portal, iid, "continue")
        before = await owner(portal, "GET", f"/api/interactions/{iid}/review")
        refused = await session.call_tool("submit_candidate", {"session_id": iid, **CANDIDATE})
        assert refused.is_error
        assert "has not asked for a summary" in text_of(refused)
        assert structured(refused)["errors"][0]["code"] == "not_in_review"
        assert await owner(portal, "GET", f"/api/interactions/{iid}/review") == before



@TRANSPORTS
async def test_an_invalid_candidate_names_the_field_and_a_retry_succeeds(
        portal: PortalProcess, opened: Session) -> None:
    async with opened(portal) as session:
        tools = await schemas(session)
        client = portal.client()
        iid = (await asyncio.to_thread(client.create, ask()))["interaction_id"]
        await widen(portal, iid, "block")
        await owner(portal, "POST", f"/api/interactions/{iid}/review")

        wrong: list[tuple[dict[str, Any], str]] = [
                ({**CANDIDATE, "candidate_answer": "  "}, "candidate_answer"),
                ({**CANDIDATE, "confidence": 0.9}, "confidence"),
                ({**CANDIDATE, "source_hint": "guess"}, "source_hint"),
                ({k: v for k, v in CANDIDATE.items() if k != "candidate_summary"},
                 "candidate_summary")]
        for arguments, field in wrong:
            refused = await session.call_tool("submit_candidate", {"session_id": iid, **arguments})
            assert refused.is_error, arguments
            assert check(tools["submit_candidate"], structured(refused)) == []
            assert field in {e["field"] for e in structured(refused)["errors"]}, structured(refused)
            assert field in text_of(refused)
            review = await owner(portal, "GET", f"/api/interactions/{iid}/review")
            assert review["state"] == "awaiting_candidate", "a refused candidate changes nothing"

        missing = await session.call_tool("submit_candidate", CANDIDATE)
        assert missing.is_error and "session_id" in text_of(missing)

        sent = await session.call_tool("submit_candidate", {"session_id": iid, **CANDIDATE})
        assert not sent.is_error, text_of(sent)
        review = await owner(portal, "GET", f"/api/interactions/{iid}/review")
        assert (review["state"], review["candidate_answer"]) == ("candidate_ready",
                                                                 CANDIDATE["candidate_answer"])
