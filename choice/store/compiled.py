"""Statements compiled once for the engine's dialect, run on the connection's DBAPI cursor.

Only for the answer's transaction (`Repository.complete`), which a human and an agent both
wait for: SQLAlchemy's execution layers cost ~25 µs a statement there on top of SQLite's own
~5 µs, for three statements per answer. Measured on a real portal: the writer thread's CPU
per answer 630 -> 330 µs, `POST .../response` p50 1.43 -> 1.14 ms. SQLAlchemy still writes
the SQL for the dialect (SQLite, PostgreSQL) and owns the transaction; only its per-call
machinery is skipped, so values come back as the driver returns them (the caller converts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Connection, Dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler


class Compiled:
    def __init__(self, statement: ClauseElement, dialect: Dialect,
                 columns: Sequence[str] | None = None) -> None:
        """`columns`: for an INSERT, the columns given (each bound by its own name)."""
        compiled = cast(SQLCompiler, statement.compile(
            dialect=dialect, column_keys=list(columns) if columns else None))
        self.sql = str(compiled)
        self._literals = dict(compiled.params)  # values written into the statement, e.g. 'pending'
        self._order = compiled.positiontup  # parameter names in order, for positional styles

    def bind(self, values: Mapping[str, Any]) -> Sequence[Any] | Mapping[str, Any]:
        merged = {**self._literals, **values}
        return [merged[name] for name in self._order] if self._order is not None else merged

    def run(self, cursor: Any, values: Mapping[str, Any]) -> Any:
        cursor.execute(self.sql, self.bind(values))
        return cursor

    def run_many(self, cursor: Any, rows: Sequence[Mapping[str, Any]]) -> None:
        cursor.executemany(self.sql, [self.bind(values) for values in rows])


def cursor_of(conn: Connection) -> Any:
    """The DBAPI cursor of a SQLAlchemy connection, inside its current transaction."""
    return conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
