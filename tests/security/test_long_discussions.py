"""A discussion that grows without end must not take the portal with it
(docs/guides/team-mode.md#a-long-discussion): the JSON API gives a thread 50 comments at a
time through cursors, a page renders 20 and reaches the rest through "Show earlier" (a link
without script), `/events` comes 200 at a time, a question takes 500 comments and a link
writes 100 (409 beyond, nothing stored), a bad cursor is a clear 422; and a vote changes at
most 10 times a minute per link (429 with `Retry-After`), quick changes making one audit
row.

Long threads are written straight into the database, as if posted over the minutes the
rate limit (20 comments a minute per author) would make a test wait; every comment the
test sends itself goes through the API.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from html import unescape

import pytest

from tests.portal_process import PortalProcess
from tests.security.conftest import JSON, Reply, bearer, refusal_code, send, signed_in
from tests.security.team import Invitee, comment, team_state, vote, widened
from tests.tally import Seen, attacks

pytestmark = pytest.mark.slow

LONG = 230
"""Comments in the long thread: more than four API pages, more than eleven page windows."""


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("long-discussions-portal")).start()
    yield process
    process.stop()


def stuffed(portal: PortalProcess, interaction_id: str, count: int,
            who: Invitee | None = None, prefix: str = "c") -> None:
    """`count` comments by `who` (None: the owner) written into the database as they would
    be after that many posts, texts `<prefix>0`, `<prefix>1`, ..."""
    at = time.time()
    rows = [(interaction_id, who.participant_id if who else None, who.name if who else "Owner",
             f"{prefix}{n}", at) for n in range(count)]
    with sqlite3.connect(portal.data_dir / "choice.db", timeout=30) as db:
        db.executemany("INSERT INTO comment (interaction_id, participant_id, author, text, at) "
                       "VALUES (?, ?, ?, ?, ?)", rows)


def stuffed_events(portal: PortalProcess, interaction_id: str, count: int) -> None:
    at = time.time()
    with sqlite3.connect(portal.data_dir / "choice.db", timeout=30) as db:
        db.executemany("INSERT INTO audit_event (interaction_id, kind, actor, at, detail_json) "
                       "VALUES (?, 'comment_added', 'human:owner', ?, ?)",
                       [(interaction_id, at, json.dumps({"n": n})) for n in range(count)])


@pytest.fixture(scope="module")
def long_thread(portal: PortalProcess) -> Invitee:
    """A question widened to Ann whose thread holds `LONG` comments: her 100, then the
    owner's; Ann has opened her link."""
    (ann,) = widened(portal, ["Ann"])
    assert send(portal, "GET", ann.api).status == 200
    stuffed(portal, ann.interaction_id, 100, ann, "ann")
    stuffed(portal, ann.interaction_id, LONG - 100, None, "own")
    return ann


THREAD = [f"ann{n}" for n in range(100)] + [f"own{n}" for n in range(LONG - 100)]


def followed(portal: PortalProcess, first: str, then: str, headers: dict[str, str],
             seen: Seen) -> list[str]:
    """Every comment reached from the reply at `first`, paging back through `then` +
    cursor; each reply counted as refused (bounded) if it carries at most 50."""
    texts: list[str] = []
    path = first
    while True:
        reply = send(portal, "GET", path, headers=headers)
        assert reply.status == 200, (path, reply.status, reply.text[:300])
        body = reply.json()
        page = body.get("comments", body.get("messages", []))
        seen.refused_if(len(page) <= 50, (path, len(page)))
        texts = [c["text"] for c in page] + texts
        if not body.get("comments_before"):
            return texts
        path = f"{then}{body['comments_before']}"


def test_the_api_gives_a_long_thread_50_comments_at_a_time_through_its_cursors(
        portal: PortalProcess, long_thread: Invitee) -> None:
    ann, iid = long_thread, long_thread.interaction_id
    owner = bearer(portal)
    readers = [(ann.api, f"{ann.api}/comments?before=", {}),
               (f"{ann.api}/comments", f"{ann.api}/comments?before=", {}),
               (f"/api/interactions/{iid}/team", f"/api/interactions/{iid}/comments?before=", owner),
               (f"/api/interactions/{iid}/comments", f"/api/interactions/{iid}/comments?before=",
                owner)]
    with attacks("Team: long discussions") as seen:
        seen.fact("comments", LONG)
        for first, then, headers in readers:
            assert followed(portal, first, then, headers, seen) == THREAD, first
    data = portal.client().call("GET", f"/api/interactions/{iid}/discussion")
    assert (data["message_count"], len(data["messages"]), data["truncated"]) == (LONG, 50, True)


def items(reply: Reply) -> list[str]:
    """The comments a page or a fragment shows, by text."""
    return [unescape(t) for t in re.findall(
        r'data-testid="comment-text">(.*?)</p>', reply.text, re.S)]


def earlier_link(reply: Reply) -> str | None:
    found = re.search(r'<a [^>]*href="([^"]+)"[^>]*data-testid="show-earlier"', reply.text)
    return unescape(found.group(1)).split("#", 1)[0] if found else None


def test_pages_show_20_comments_and_reach_the_rest_without_script(
        portal: PortalProcess, long_thread: Invitee) -> None:
    ann, iid = long_thread, long_thread.interaction_id
    with attacks("Team: long discussions") as seen:
        for first, headers in ((f"/d/{ann.secret}", {}), (f"/choice/{iid}", signed_in(portal))):
            shown: list[str] = []
            path: str | None = first
            while path is not None:
                reply = send(portal, "GET", path, headers=headers)
                assert reply.status == 200, (path, reply.status)
                page = items(reply)
                seen.refused_if(len(page) <= 20 and len(reply.body) < 200_000,
                                (path, len(page), len(reply.body)))
                shown = page + shown
                path = earlier_link(reply)
            assert shown == THREAD, first
        fragment = send(portal, "GET", f"/d/{ann.secret}/comments?before=999999999",
                        headers={"HX-Request": "true"})
        seen.refused_if(fragment.status == 200 and items(fragment) == THREAD[-20:],
                        ("fragment", fragment.status, items(fragment)[:3]))


def test_the_audit_trail_comes_200_events_at_a_time(portal: PortalProcess) -> None:
    (ann,) = widened(portal, ["Ann"])
    stuffed_events(portal, ann.interaction_id, 450)
    path = f"/api/interactions/{ann.interaction_id}/events"
    trail = ["created", "widened", "participant_invited"] + [json.dumps({"n": n})
                                                             for n in range(450)]
    with attacks("Team: long discussions") as seen:
        seen.fact("events", 450)
        for limit in (None, 50):
            read: list[str] = []
            query = f"?limit={limit}" if limit else ""
            for _ in range(20):
                reply = send(portal, "GET", path + query, headers=bearer(portal))
                body = reply.json()
                events = body.get("events", [])
                seen.refused_if(reply.status == 200 and len(events) <= (limit or 200),
                                (query, reply.status, len(events)))
                read += [e["kind"] if e["kind"] != "comment_added" else json.dumps(e["detail"])
                         for e in events]
                if not body.get("events_after"):
                    break
                query = f"?after={body['events_after']}" + (f"&limit={limit}" if limit else "")
            assert read == trail, limit


def test_bad_cursors_and_limits_are_clear_422s(portal: PortalProcess,
                                               long_thread: Invitee) -> None:
    ann, iid = long_thread, long_thread.interaction_id
    owner = bearer(portal)
    cursors = ["abc", "-1", "0", "1.5", "1e3", "9" * 30, "%00", "0x10", "%D9%A1%D9%A2", "1%20OR%201"]
    before = team_state(portal, iid)
    with attacks("Team: long discussions") as seen:
        for bad in cursors:
            for path, headers, name in (
                    (f"{ann.api}/comments?before={bad}", {}, "before"),
                    (f"/api/interactions/{iid}/comments?before={bad}", owner, "before"),
                    (f"/api/interactions/{iid}/events?after={bad}", owner, "after")):
                reply = send(portal, "GET", path, headers=headers)
                error = reply.json()["errors"][0] if reply.status == 422 else {}
                seen.refused_if(error.get("field") == name and error.get("code") ==
                                "invalid_cursor" and "earlier reply" in error.get("message", ""),
                                (path, reply.status, reply.text[:200]))
        for bad in ("0", "201", "-5", "x"):
            reply = send(portal, "GET", f"/api/interactions/{iid}/events?limit={bad}",
                         headers=owner)
            seen.refused_if(reply.status == 422 and refusal_code(reply) in (
                "out_of_range", "invalid"), (bad, reply.status, reply.text[:200]))
        seen.unchanged(before, team_state(portal, iid))
    for page in (f"/d/{ann.secret}?before=abc", f"/choice/{iid}?before=-1"):  # a person: no error
        reply = send(portal, "GET", page, headers=signed_in(portal))
        assert reply.status == 200 and items(reply) == THREAD[-20:], page


def test_a_link_writes_at_most_100_comments(portal: PortalProcess) -> None:
    ann, ben = widened(portal, ["Ann", "Ben"])
    assert send(portal, "GET", ann.api).status == 200
    stuffed(portal, ann.interaction_id, 99, ann)
    assert comment(portal, ann, "the hundredth").status == 201
    before = team_state(portal, ann.interaction_id)
    with attacks("Team: long discussions") as seen:
        for n in range(5):
            reply = comment(portal, ann, f"one more {n}")
            seen.refused_if(reply.status == 409 and refusal_code(reply) == "too_many_comments",
                            (reply.status, reply.text[:200]))
        seen.unchanged(before, team_state(portal, ann.interaction_id))
    assert comment(portal, ben, "mine").status == 201  # per link, not per question


def test_a_question_takes_at_most_500_comments(portal: PortalProcess) -> None:
    ann, ben = widened(portal, ["Ann", "Ben"])
    for who in (ann, ben):
        assert send(portal, "GET", who.api).status == 200
    stuffed(portal, ann.interaction_id, 499)
    assert comment(portal, ann, "the five hundredth").status == 201
    iid = ann.interaction_id
    before = team_state(portal, iid)
    with attacks("Team: long discussions") as seen:
        for reply in (comment(portal, ben, "over"), comment(portal, ann, "over"),
                      send(portal, "POST", f"/api/interactions/{iid}/comments",
                           json.dumps({"text": "owner"}), {**JSON, **bearer(portal)})):
            seen.refused_if(reply.status == 409 and refusal_code(reply) == "discussion_full",
                            (reply.status, reply.text[:200]))
        seen.unchanged(before, team_state(portal, iid))
    assert vote(portal, ben, ["a"]).status == 200  # the votes still count


def vote_rows(portal: PortalProcess, who: Invitee) -> list[dict[str, object]]:
    events = portal.client().call("GET", f"/api/interactions/{who.interaction_id}/events")
    return [e["detail"] for e in events["events"]
            if e["kind"] == "vote_cast" and e["actor"] == f"participant:{who.participant_id}"]


def test_vote_changes_beyond_10_a_minute_get_429_with_retry_after(
        portal: PortalProcess) -> None:
    ann, ben = widened(portal, ["Ann", "Ben"])
    assert send(portal, "GET", ann.api).status == 200
    for n in range(10):
        assert vote(portal, ann, ["a" if n % 2 else "b"]).status == 200
    before = team_state(portal, ann.interaction_id)
    with attacks("Team: votes") as seen:
        for option in ("b", "a", "b", "a", "b"):
            reply = vote(portal, ann, [option])
            retry_after = reply.headers.get("retry-after", "")
            error = reply.json()["errors"][0] if reply.status == 429 else {}
            seen.refused_if(reply.status == 429 and error.get("code") == "rate_limited"
                            and error.get("field") == "option_ids" and retry_after.isdigit()
                            and 1 <= int(retry_after) <= 60, (reply.status, retry_after))
        seen.unchanged(before, team_state(portal, ann.interaction_id))
    assert vote(portal, ben, ["a"]).status == 200  # per link, not per question


def test_a_burst_of_vote_changes_leaves_one_audit_row(portal: PortalProcess) -> None:
    (ann,) = widened(portal, ["Ann"])
    assert send(portal, "GET", ann.api).status == 200
    with attacks("Team: votes") as seen:
        for n in range(10):
            assert vote(portal, ann, ["a" if n % 2 else "b"]).status == 200
            rows = vote_rows(portal, ann)
            seen.refused_if(len(rows) == 1, (n, rows))
    assert vote_rows(portal, ann) == [{"option_ids": ["a"], "changes": 10,
                                       "last_at": vote_rows(portal, ann)[0]["last_at"]}]
    assert send(portal, "GET", ann.api).json()["you"]["vote"] == ["a"]
