"""`store/engine.py`: the SQLite connections forget what they delete, and
`forget_overwritten` leaves no old page in the WAL."""

from __future__ import annotations

from pathlib import Path

from choice.store.engine import forget_overwritten, make_engine

SECRET = b"a-participant-link-secret-0123456789"


def test_sqlite_connections_zero_what_they_free(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA secure_delete").scalar() == 1
    finally:
        engine.dispose()


def test_forget_overwritten_empties_the_wal(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    engine = make_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE t (v TEXT)")
            conn.exec_driver_sql("INSERT INTO t VALUES (?)", (SECRET.decode(),))
        with engine.begin() as conn:
            conn.exec_driver_sql("UPDATE t SET v = 'gone'")
        assert SECRET in path.with_name("x.db-wal").read_bytes()  # the old page is still there
        assert forget_overwritten(engine)
        assert path.with_name("x.db-wal").stat().st_size == 0
        assert SECRET not in path.read_bytes()
    finally:
        engine.dispose()
