"""No participant link stays on disk once nothing will send it again, and no file's bytes
once the file is dropped (taken off a draft, left unsent, removed by retention).

With webhooks on, the invitation carries each link to the receiver through the outbox, so
the links are stored until the message is delivered or given up on (to survive a restart),
and then dropped from the row. Dropping a value from a row does not take it off the disk:
SQLite keeps the old page in the WAL until a checkpoint, and the old bytes in free space
unless `secure_delete` is on (docs/internals.md#deleted-values-stay-on-disk). So every file
of the data dir is read here, byte by byte, the database's `-wal` and `-shm` included, while
the portal still runs.
"""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
from pathlib import Path

import pytest

from choice.client.errors import PortalRefused
from tests.integration.test_real_server import wait_until
from tests.portal_process import PortalProcess
from tests.security.team import Invitee, widened
from tests.tally import attacks
from tests.webhook_receiver import WebhookReceiver, outbox_rows

pytestmark = pytest.mark.slow

SETTLE_BOUND = 10.0
"""How long after the outbox row is settled its links may take to leave the disk: the
checkpoint follows the settling write on the same thread, so this is only a bound."""


def holding(data_dir: Path, secret: str) -> list[str]:
    """The files of the data dir whose bytes hold `secret`."""
    needle = secret.encode()
    return sorted(path.name for path in data_dir.rglob("*")
                  if path.is_file() and needle in path.read_bytes())


def checkpoint(data_dir: Path) -> None:
    """What SQLite does by itself once the WAL is long (or another settled message's
    clean-up does): copy the WAL into the database file."""
    db = sqlite3.connect(data_dir / "choice.db", timeout=10)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        db.close()


@pytest.mark.parametrize(("answer", "checkpointed"), [(200, False), (400, False), ("hold", True)],
                         ids=["delivered", "given up", "delivered after a checkpoint"])
def test_no_link_is_left_in_any_file_once_its_invitation_is_settled(
        tmp_path_factory: pytest.TempPathFactory, answer: int | str, checkpointed: bool) -> None:
    """`delivered after a checkpoint`: the links reached the database file itself while the
    POST was held, so the row's old bytes are there, not only in the WAL; forty invitees
    make the message longer than a page, and the pages its links filled are freed when they
    are dropped. Debian builds SQLite with `secure_delete` on by default; with it off (as
    other builds have it) this case finds the links in `choice.db`, which is why the portal
    sets it."""
    with WebhookReceiver(script=[answer], then=200) as receiver:
        process = PortalProcess(tmp_path_factory.mktemp("disk-portal"),
                                CHOICE_WEBHOOK_URL=receiver.url,
                                CHOICE_WEBHOOK_SECRET="shared").start()
        try:
            names = [f"Person {n:02d}" for n in range(40)] if checkpointed else ["Ann", "Ben", "Cy"]
            invitees: list[Invitee] = widened(process, names)
            receiver.wait_until(lambda got: any(r.event_type == "interaction.widened"
                                                for r in got), what="the invitation")
            sent = receiver.received[0].body.decode()
            assert all(who.secret in sent for who in invitees)  # the receiver got each link
            if checkpointed:
                checkpoint(process.data_dir)
                assert holding(process.data_dir, invitees[0].secret) == ["choice.db"]
                receiver.release()
            wait_until(lambda: all(row["delivered_at"] or row["failed_at"]
                                   for row in outbox_rows(process.data_dir)))
            with contextlib.suppress(AssertionError):  # the attempts below say which stayed
                wait_until(lambda: not any(holding(process.data_dir, who.secret)
                                           for who in invitees), SETTLE_BOUND)
            files = sorted(path.name for path in process.data_dir.iterdir())
            with attacks("Secrets on disk") as seen:
                for who in invitees:
                    seen.refused_if(not holding(process.data_dir, who.secret),
                                    (who.name, holding(process.data_dir, who.secret)))
        finally:
            process.stop()
    assert {"choice.db", "choice.db-wal", "choice.db-shm"} <= set(files)  # all were read


@pytest.mark.parametrize("ending", ["removed", "cancelled", "pruned"])
def test_a_dropped_file_leaves_no_copy_in_any_file(
        tmp_path_factory: pytest.TempPathFactory, ending: str) -> None:
    """A file taken off the draft, left on it when the question ends without it, or sent
    with an answer that the count limit later removes, is deleted from the database: its
    bytes must leave the WAL and the free pages too. The file spans several pages, and is
    attached, removed and attached again first (each write leaves the WAL another copy
    until a checkpoint)."""
    marker = secrets.token_hex(16)
    data = "".join(f"{marker} line {n}\n" for n in range(600)).encode()
    process = PortalProcess(tmp_path_factory.mktemp("file-disk-portal"),
                            CHOICE_MAX_SESSIONS="10").start()
    try:
        client = process.client()
        iid = client.create({"title": "Which log shows it?", "prompt": "Attach it.",
                             "options": [{"id": "a", "label": "A"}]})["interaction_id"]
        first = client.attach_file(iid, "app.log", "text/plain", data)
        client.detach_file(iid, first["id"])
        last = client.attach_file(iid, "app.log", "text/plain", data)
        assert holding(process.data_dir, marker)  # the check sees the bytes while they count
        if ending == "removed":
            client.detach_file(iid, last["id"])
        elif ending == "cancelled":
            client.cancel(iid)
        else:  # answered with the file, then ten more questions pass the count limit
            client.respond(iid, {"selected_ids": ["a"]})
            for n in range(10):
                client.create({"title": f"Next one {n}?", "prompt": "Pick it.",
                               "options": [{"id": "b", "label": "B"}]})
            with pytest.raises(PortalRefused):  # the answered one went with its file
                client.poll(iid, wait=0)
        with contextlib.suppress(AssertionError):  # the attempt below says where it stayed
            wait_until(lambda: not holding(process.data_dir, marker), SETTLE_BOUND)
        with attacks("Secrets on disk") as seen:
            seen.refused_if(not holding(process.data_dir, marker),
                            (f"a {ending} file", holding(process.data_dir, marker)))
    finally:
        process.stop()
