"""Saved preferences: one row per key, merged over the defaults of `contract.Preferences`.

Unknown or invalid stored values (an older version's keys) are skipped, never fatal.
"""

from __future__ import annotations

import json

from sqlalchemy import Engine, delete, insert, select

from choice.contract import Preferences, PreferencesPatch
from choice.store.engine import WRITE
from choice.store.tables import PREFERENCES as TABLE


def load_preferences(engine: Engine) -> Preferences:
    with engine.connect() as conn:
        stored = {key: value for key, value in conn.execute(select(TABLE.c.key, TABLE.c.value_json))}
    values = {}
    for key, raw in stored.items():
        if key in Preferences.model_fields:
            try:
                values[key] = json.loads(raw)
            except ValueError:
                continue
    try:
        return Preferences.model_validate(values)
    except ValueError:
        return Preferences()


def saved_language(engine: Engine) -> str | None:
    """The saved `language` as stored, without validating the rest (what a start needs:
    `resolve_language` ignores anything it does not support)."""
    with engine.connect() as conn:
        raw = conn.execute(select(TABLE.c.value_json).where(TABLE.c.key == "language")).scalar()
    try:
        value = json.loads(raw) if raw is not None else None
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def save_preferences(engine: Engine, patch: PreferencesPatch) -> Preferences:
    changes = patch.model_dump(exclude_unset=True)
    with engine.connect() as conn:
        conn.execution_options(**WRITE)
        with conn.begin():
            for key, value in changes.items():
                conn.execute(delete(TABLE).where(TABLE.c.key == key))
                conn.execute(insert(TABLE).values(key=key, value_json=json.dumps(value)))
    return load_preferences(engine)
