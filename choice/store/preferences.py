"""Saved preferences: one row per key (its value any JSON value), merged over the defaults of
`contract.Preferences`. Local mode's one owner keeps theirs in `preference`; in team mode
each member keeps their own in `member_preference` (`member_id` given), and a member who
saved nothing has the defaults.

Unknown or invalid stored values (an older version's keys) are skipped, never fatal; a
stored text that is not JSON at all (a hand-edited SQLite file: the portal never writes one,
and PostgreSQL's `json` refuses one) reads as no preferences saved.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, Engine, Table, delete, insert, select, true

from choice.contract import Preferences, PreferencesPatch
from choice.store.engine import writing
from choice.store.tables import MEMBER_PREFERENCES, PREFERENCES


def _rows_of(member_id: str | None) -> tuple[Table, ColumnElement[bool]]:
    """The table holding these preferences, and the condition picking the person's rows."""
    if member_id is None:
        return PREFERENCES, true()
    return MEMBER_PREFERENCES, MEMBER_PREFERENCES.c.member_id == member_id


def load_preferences(engine: Engine, member_id: str | None = None) -> Preferences:
    """The owner's preferences (`member_id` None: local mode), or that member's."""
    table, whose = _rows_of(member_id)
    try:
        with engine.connect() as conn:
            stored = {key: value for key, value in conn.execute(
                select(table.c.key, table.c.value_json).where(whose))}
        return Preferences.model_validate(
            {key: value for key, value in stored.items() if key in Preferences.model_fields})
    except ValueError:  # a value that is not JSON, or one these preferences refuse
        return Preferences()


def saved_language(engine: Engine) -> str | None:
    """The saved `language` as stored, without validating the rest (what a start needs:
    `resolve_language` ignores anything it does not support)."""
    try:
        with engine.connect() as conn:
            value = conn.execute(select(PREFERENCES.c.value_json).where(
                PREFERENCES.c.key == "language")).scalar()
    except ValueError:  # not JSON (see the module's docstring)
        return None
    return value if isinstance(value, str) else None


def save_preferences(engine: Engine, patch: PreferencesPatch,
                     member_id: str | None = None) -> Preferences:
    """Store the keys `patch` sets (the owner's, or that member's); the rest stay."""
    table, whose = _rows_of(member_id)
    owner = {} if member_id is None else {"member_id": member_id}
    changes = patch.model_dump(exclude_unset=True)
    with engine.connect() as conn, writing(conn):
        for key, value in changes.items():
            conn.execute(delete(table).where(whose, table.c.key == key))
            conn.execute(insert(table).values(**owner, key=key, value_json=value))
    return load_preferences(engine, member_id)
