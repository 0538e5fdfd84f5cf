"""Saved preferences: one row per key (its value any JSON value), merged over the defaults of
`contract.Preferences`.

Unknown or invalid stored values (an older version's keys) are skipped, never fatal; a
stored text that is not JSON at all (a hand-edited SQLite file: the portal never writes one,
and PostgreSQL's `json` refuses one) reads as no preferences saved.
"""

from __future__ import annotations

from sqlalchemy import Engine, delete, insert, select

from choice.contract import Preferences, PreferencesPatch
from choice.store.engine import writing
from choice.store.tables import PREFERENCES as TABLE


def load_preferences(engine: Engine) -> Preferences:
    try:
        with engine.connect() as conn:
            stored = {key: value for key, value in conn.execute(
                select(TABLE.c.key, TABLE.c.value_json))}
        return Preferences.model_validate(
            {key: value for key, value in stored.items() if key in Preferences.model_fields})
    except ValueError:  # a value that is not JSON, or one these preferences refuse
        return Preferences()


def saved_language(engine: Engine) -> str | None:
    """The saved `language` as stored, without validating the rest (what a start needs:
    `resolve_language` ignores anything it does not support)."""
    try:
        with engine.connect() as conn:
            value = conn.execute(select(TABLE.c.value_json).where(TABLE.c.key == "language")
                                 ).scalar()
    except ValueError:  # not JSON (see the module's docstring)
        return None
    return value if isinstance(value, str) else None


def save_preferences(engine: Engine, patch: PreferencesPatch) -> Preferences:
    changes = patch.model_dump(exclude_unset=True)
    with engine.connect() as conn, writing(conn):
        for key, value in changes.items():
            conn.execute(delete(TABLE).where(TABLE.c.key == key))
            conn.execute(insert(TABLE).values(key=key, value_json=value))
    return load_preferences(engine)
