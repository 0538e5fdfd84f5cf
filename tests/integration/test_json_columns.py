"""JSON columns (`store/json_type.py`) give back every JSON value as it was written, with its
Python type (30 stays an int, 30.0 a float, True a bool, "30" a string, None None),
on SQLite and on PostgreSQL, through SQLAlchemy's Core and through the answer's transaction
(`Repository.complete`), which reads and writes them with its statements built once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select

from choice.contract.errors import AlreadyCompleted
from choice.store import Store
from choice.store.records import AuditEvent, Interaction
from choice.store.repository import Completed
from choice.store.tables import PREFERENCES
from tests.pg_cluster import chosen_database

pytestmark = pytest.mark.usefixtures("backend")

SCALARS: list[Any] = [30, 30.0, 1.5, -0.0, 2**70, True, False, None, "30", "true", "null",
                      "", "“quoted” 中文 \u0000 \\ \"", 1e16]
"""Top-level values a JSON column may hold: what SQLite's NUMERIC affinity would have turned
into numbers (a column declared `JSON`), and text that looks like a number or a literal."""
NESTED: dict[str, Any] = {
    "z_first": "keys keep their order", "a": [1, 2.0, "3", True, None, [], {}],
    "object": {"deep": {"deeper": [{"x": -1}]}}, "unicode": "选项 ✓", "empty": "",
    **{f"scalar_{index}": value for index, value in enumerate(SCALARS)},
}


def same(read: Any, written: Any) -> bool:
    """Equal, and of the same Python types all the way down (True == 1 == 1.0 in Python)."""
    if type(read) is not type(written):
        return False
    if isinstance(written, dict):
        return list(read) == list(written) and all(same(read[k], written[k]) for k in written)
    if isinstance(written, list):
        return len(read) == len(written) and all(map(same, read, written))
    return bool(read == written) or (read != read and written != written)


def asked(interaction_id: str) -> Interaction:
    return Interaction(id=interaction_id, status="pending", title="JSON", selection_mode="single",
                       interface="web", created_at=1.0, expires_at=4_102_444_800.0,
                       request_json=NESTED, placeholder_shown=True)


@pytest.fixture
def store(tmp_path: Path) -> Any:
    opened = Store(chosen_database(tmp_path)).open()
    yield opened
    opened.close()


def test_every_json_value_round_trips_through_core(store: Store) -> None:
    with store.repo.transaction() as conn:
        conn.execute(insert(PREFERENCES), [{"key": f"k{index:02}", "value_json": value}
                                           for index, value in enumerate([*SCALARS, NESTED])])
    with store.engine.connect() as conn:
        read = [value for (value,) in conn.execute(
            select(PREFERENCES.c.value_json).order_by(PREFERENCES.c.key))]
    assert len(read) == len(SCALARS) + 1
    for value, written in zip(read, [*SCALARS, NESTED], strict=True):
        assert same(value, written), (value, written)


def test_a_stored_none_is_sql_null_in_a_nullable_column_and_json_null_in_a_preference(
        store: Store) -> None:
    store.repo.append_event(AuditEvent("q", "created", "agent", 1.0, detail_json=None))
    with store.repo.transaction() as conn:
        conn.execute(insert(PREFERENCES).values(key="language", value_json=None))
    with store.engine.connect() as conn:
        null_detail = conn.exec_driver_sql(
            "SELECT count(*) FROM audit_event WHERE detail_json IS NULL").scalar()
        null_value = conn.exec_driver_sql(
            "SELECT count(*) FROM preference WHERE value_json IS NULL").scalar()
        [(value,)] = conn.execute(select(PREFERENCES.c.value_json)).all()
    assert (null_detail, null_value, value) == (1, 0, None)


async def test_a_row_keeps_every_json_value_through_the_answers_transaction(store: Store) -> None:
    await store.insert(asked("q1"), [AuditEvent("q1", "created", "agent", 1.0, NESTED)])
    seen: list[Interaction] = []
    result = {"selected_ids": ["a"], "nested": NESTED}

    def decide(row: Interaction) -> Completed:  # the row as `complete` read it
        seen.append(row)
        return Completed("submitted", result, 2.0,
                         [AuditEvent("q1", "answered", "human:web", 2.0, NESTED)])

    done = await store.write(store.repo.complete, "q1", decide)
    assert same(seen[0].request_json, NESTED) and seen[0].placeholder_shown is True
    assert seen[0].result_json is None
    assert same(done.result_json, result)
    stored = store.repo.get("q1")  # a plain read finds what the answer wrote
    assert same(stored.result_json, result) and same(stored.request_json, NESTED)
    with pytest.raises(AlreadyCompleted) as again:  # as the second answer finds it
        await store.write(store.repo.complete, "q1", decide)
    assert same(again.value.row.result_json, result) and again.value.row.completed_at == 2.0
    details = [event.detail_json for event in store.repo.events("q1")]
    assert len(details) == 2 and all(same(detail, NESTED) for detail in details)
