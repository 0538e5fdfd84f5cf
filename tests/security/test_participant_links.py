"""Participant links are capabilities for one participant of one question, and nothing
more: their secrets are long, never stored or logged in the clear, and looked up without
an oracle; a link reaches only its own question, stops writing when the question ends or
the owner withdraws it, and never buys the owner's cookie or token on any owner route.

Constant time, by review: `team/links.py` looks a link up by the SHA-256 of the secret (the
database compares hashes, so timing can tell nothing about the secret) and compares the
stored hash with `hmac.compare_digest`; a malformed, unknown or withdrawn link raises the
same `UnknownLink`, answered by one handler. The test below checks the bodies agree.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from tests.integration.test_real_server import wait_until
from tests.portal_process import PortalProcess
from tests.security.conftest import JSON, Reply, refusal_code, send
from tests.security.team import Invitee, comment, team_state, vote, widened
from tests.tally import attacks
from tests.webhook_receiver import WebhookReceiver, outbox_rows

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("participant-portal")).start()
    yield process
    process.stop()


def use(portal: PortalProcess, who: Invitee) -> list[Reply]:
    """What a participant does with a link: read, comment, vote."""
    return [send(portal, "GET", who.api), comment(portal, who, f"{who.name} thinks a"),
            vote(portal, who, ["a"])]


def test_secrets_are_long_and_neither_stored_nor_logged(portal: PortalProcess) -> None:
    invitees = [who for _ in range(3)
                for who in widened(portal, ["Ann", "Ben", "Cy", "Dee", "Eve"])]
    for who in invitees:
        assert [reply.status for reply in use(portal, who)] == [200, 201, 200]
    links = [who.secret for who in invitees]
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{32}", secret) for secret in links)  # 192 bits
    assert len(set(links)) == len(links)

    with sqlite3.connect(portal.data_dir / "choice.db") as db:
        dump = "\n".join(db.iterdump())
        stored = {row[0] for row in db.execute("SELECT secret_hash FROM participant")}
    events = "".join(json.dumps(portal.client().call(
        "GET", f"/api/interactions/{iid}/events")) for iid in {w.interaction_id for w in invitees})
    log = "".join(portal.log)
    with attacks("Team: secrets stored and logged") as seen:
        for secret in links:
            for where, text in (("the database", dump), ("the audit trail", events),
                                ("the log", log)):
                seen.refused_if(secret not in text, (where, secret))
    assert {who.stored_hash for who in invitees} <= stored  # kept, but only as a hash
    assert "/api/d/<link>" in log  # the access log is on, with the link redacted


def test_a_delivered_invitation_leaves_no_link_in_the_database(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """With webhooks on, the invitation carries each link to the receiver through the
    outbox: the links are stored until delivered (to survive a restart), not after."""
    with WebhookReceiver() as receiver:
        process = PortalProcess(tmp_path_factory.mktemp("webhook-portal"),
                                CHOICE_WEBHOOK_URL=receiver.url,
                                CHOICE_WEBHOOK_SECRET="shared").start()
        try:
            invitees = widened(process, ["Ann", "Ben"])
            receiver.wait_until(lambda _: bool(receiver.delivered("interaction.widened")),
                                what="the invitation")
            sent = receiver.delivered("interaction.widened")[0].body.decode()
            wait_until(lambda: all(row["delivered_at"] for row in outbox_rows(process.data_dir)))
            with sqlite3.connect(process.data_dir / "choice.db") as db:
                dump = "\n".join(db.iterdump())
        finally:
            process.stop()
    assert all(who.secret in sent for who in invitees)  # the receiver got the links
    assert [who.name for who in invitees if who.secret in dump] == []


def test_an_unknown_link_of_any_shape_gets_the_same_404(portal: PortalProcess) -> None:
    (who, withdrawn) = widened(portal, ["Ann", "Ben"])
    portal.client().call("DELETE", f"/api/interactions/{withdrawn.interaction_id}"
                                   f"/participants/{withdrawn.participant_id}")
    flipped = who.secret[:-1] + ("A" if who.secret[-1] != "A" else "B")
    candidates = {
        "right shape, random": secrets.token_urlsafe(24),
        "one character off": flipped,
        "withdrawn": withdrawn.secret,
        "the stored hash": who.stored_hash,
        "too short": who.secret[:31],
        "too long": who.secret + "A",
        "dots": "." * 32,
        "percent-encoded NUL": "%00" * 11,
        "unicode": quote("é" * 32),
        "upper-cased": who.secret.upper() if who.secret.upper() != who.secret else "Z" * 32,
    }
    reference = send(portal, "GET", f"/api/d/{secrets.token_urlsafe(24)}")
    assert reference.status == 404
    with attacks("Team: unknown-link oracle") as seen:
        for name, candidate in candidates.items():
            fake = Invitee(who.interaction_id, "", name, candidate)
            for reply in use(portal, fake):
                seen.refused_if(reply.status == 404 and reply.body == reference.body
                                and refusal_code(reply) == "unknown_link",
                                (name, reply.status, reply.text))


def test_a_link_reaches_only_its_own_question(portal: PortalProcess) -> None:
    (mine,) = widened(portal, ["Ann"], title="Mine", prompt="Only Ann's question.")
    (theirs,) = widened(portal, ["Ben"], title="Theirs", prompt="Ben's secret prompt.",
                        options=[{"id": "x", "label": "X"}, {"id": "y", "label": "Y"}])
    use(portal, mine)
    send(portal, "GET", theirs.api)
    before = team_state(portal, theirs.interaction_id)
    other = theirs.interaction_id
    attempts = [
        ("GET", f"{mine.api}?interaction_id={other}", None),
        ("GET", f"{mine.api}/{other}", None),
        ("GET", f"{mine.api}/../../interactions/{other}", None),
        ("GET", f"/api/d/{mine.secret}%2F..%2F..%2Finteractions%2F{other}", None),
        ("POST", f"{mine.api}/comments?interaction_id={other}", {"text": "cross"}),
        ("POST", f"{mine.api}/comments", {"text": "cross", "interaction_id": other}),
        ("POST", f"{mine.api}/{other}/comments", {"text": "cross"}),
        ("PUT", f"{mine.api}/vote", {"option_ids": ["x"]}),
        ("PUT", f"{mine.api}/vote", {"option_ids": ["a"], "interaction_id": other}),
        ("PUT", f"{mine.api}/vote?interaction_id={other}", {"option_ids": ["x"]}),
    ]
    with attacks("Team: link scope") as seen:
        for method, path, body in attempts:
            reply = send(portal, method, path, json.dumps(body) if body else None, JSON)
            hidden = "Theirs" not in reply.text and "secret prompt" not in reply.text
            # an ignored query string acts on the link's own question
            kept_to_its_own = ("?interaction_id=" in path if reply.status < 300
                               else reply.status in (404, 405, 422))
            seen.refused_if(hidden and kept_to_its_own, (method, path, reply.status))
        seen.unchanged(before, team_state(portal, theirs.interaction_id))
    own = send(portal, "GET", mine.api).json()
    assert own["question"]["title"] == "Mine" and own["you"]["vote"] == ["a"]
    assert "interaction_id" not in own  # nothing to name the owner's API with


def test_a_link_writes_nothing_once_the_question_ends_but_still_shows_the_outcome(
        portal: PortalProcess) -> None:
    ann, ben = widened(portal, ["Ann", "Ben"])
    use(portal, ann)
    send(portal, "GET", ben.api)
    portal.client().call("POST", f"/api/interactions/{ann.interaction_id}/response",
                         {"selected_ids": ["b"]})
    before = team_state(portal, ann.interaction_id)
    with attacks("Team: link revocation") as seen:
        for who in (ann, ben):
            for reply in (comment(portal, who, "too late"), vote(portal, who, ["a"]),
                          vote(portal, who, [])):
                seen.refused_if(reply.status == 409
                                and refusal_code(reply) == "discussion_closed", reply.text)
        seen.unchanged(before, team_state(portal, ann.interaction_id))
    for who in (ann, ben):
        shown = send(portal, "GET", who.api).json()
        assert shown["open"] is False and shown["status"] == "submitted"
        assert shown["outcome"]["selected_ids"] == ["b"]
    assert [m["text"] for m in before["team"]["comments"]] == ["Ann thinks a"]


def test_a_withdrawn_link_opens_nothing_and_the_others_keep_working(
        portal: PortalProcess) -> None:
    ann, ben = widened(portal, ["Ann", "Ben"])
    use(portal, ann)
    withdrawn = send(portal, "DELETE", f"/api/interactions/{ann.interaction_id}/participants/"
                                       f"{ann.participant_id}",
                     headers={"Authorization": f"Bearer {portal.token}"})
    assert withdrawn.status == 204
    before = team_state(portal, ann.interaction_id)
    with attacks("Team: link revocation") as seen:
        for reply in use(portal, ann):
            seen.refused_if(reply.status == 404 and refusal_code(reply) == "unknown_link",
                            (reply.status, reply.text))
        seen.unchanged(before, team_state(portal, ann.interaction_id))
    assert [reply.status for reply in use(portal, ben)] == [200, 201, 200]
    assert send(portal, "GET", ben.api).json()["participants"] == ["Ben"]
    again = send(portal, "DELETE", f"/api/interactions/{ann.interaction_id}/participants/"
                                   f"{ann.participant_id}",
                 headers={"Authorization": f"Bearer {portal.token}"})
    assert again.status == 404

