"""A start reads only the saved language (`saved_language`), raw: whatever is stored, a
string or nothing, and never an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from choice.store.engine import make_engine
from choice.store.preferences import saved_language
from choice.store.schema import upgrade


@pytest.mark.parametrize(("stored", "read"), [
    (None, None), ('"zh"', "zh"), ('"klingon"', "klingon"), ("{not json", None), ("42", None),
    ("null", None), ('["zh"]', None),
])
def test_the_saved_language_is_read_as_stored(tmp_path: Path, stored: str | None,
                                              read: str | None) -> None:
    """`stored`: the column's text, as a hand-edited SQLite file may hold it."""
    engine = make_engine(f"sqlite:///{tmp_path / 'choice.db'}")
    upgrade(engine)
    if stored is not None:
        with engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO preference (key, value_json) VALUES ('language', ?)",
                                 (stored,))
    assert saved_language(engine) == read
    engine.dispose()
