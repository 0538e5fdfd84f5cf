"""Statements compiled once for the engine's dialect, run on the connection's DBAPI cursor.

Only for the answer's transaction (`Repository.complete`), which a human and an agent both
wait for: SQLAlchemy's execution layers cost several times SQLite's own work per statement
there, for three statements per answer; skipping them shortens the writer thread's CPU per
answer and the `POST .../response` round trip (`bench/core_bench.py`). SQLAlchemy still writes
the SQL for the dialect (SQLite, PostgreSQL) and owns the transaction; only its per-call
machinery is skipped.

The column types' own conversions still apply: each parameter goes through its type's bind
processor and each selected column through its result processor (the types' public
`bind_processor` / `result_processor`, taken once: a result's from the driver's description
of the first result, as SQLAlchemy takes it), so a JSON column takes and gives Python values
and a boolean comes back a bool here too, as on the Core path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Connection, Dialect, Select
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

Process = Callable[[Any], Any]


class Compiled:
    def __init__(self, statement: ClauseElement, dialect: Dialect,
                 columns: Sequence[str] | None = None) -> None:
        """`columns`: for an INSERT, the columns given (each bound by its own name)."""
        compiled = cast(SQLCompiler, statement.compile(
            dialect=dialect, column_keys=list(columns) if columns else None))
        self.sql = str(compiled)
        self._literals = dict(compiled.params)  # values written into the statement, e.g. 'pending'
        self._order = compiled.positiontup  # parameter names in order, for positional styles
        self._binds: dict[str, Process] = {
            name: process for name, bind in compiled.binds.items()
            if (process := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None}
        self._dialect = dialect
        self._selected = list(statement.selected_columns) if isinstance(statement, Select) else []
        self._results: list[tuple[int, Process]] | None = None
        """(column, its type's result processor), for the columns that have one."""

    def bind(self, values: Mapping[str, Any]) -> Sequence[Any] | Mapping[str, Any]:
        merged = {**self._literals, **values}
        for name, convert in self._binds.items():
            if name in merged:
                merged[name] = convert(merged[name])
        return [merged[name] for name in self._order] if self._order is not None else merged

    def run(self, cursor: Any, values: Mapping[str, Any]) -> Any:
        cursor.execute(self.sql, self.bind(values))
        return cursor

    def run_many(self, cursor: Any, rows: Sequence[Mapping[str, Any]]) -> None:
        cursor.executemany(self.sql, [self.bind(values) for values in rows])

    def first(self, cursor: Any, values: Mapping[str, Any]) -> Sequence[Any] | None:
        """The first row the statement selects, converted by its columns' types."""
        found = self.run(cursor, values).fetchone()
        return None if found is None else self._converted(cursor, found)

    def all(self, cursor: Any, values: Mapping[str, Any]) -> list[Sequence[Any]]:
        return [self._converted(cursor, found) for found in self.run(cursor, values).fetchall()]

    def _converted(self, cursor: Any, found: Sequence[Any]) -> Sequence[Any]:
        results = self._results
        if results is None:  # the driver's type codes (PostgreSQL's numerics depend on them)
            dialect = self._dialect
            results = self._results = [
                (index, process) for index, (column, described)
                in enumerate(zip(self._selected, cursor.description, strict=True))
                if (process := column.type.dialect_impl(dialect).result_processor(
                    dialect, described[1])) is not None]
        if not results:
            return found
        row = list(found)
        for index, convert in results:
            row[index] = convert(row[index])
        return row


def cursor_of(conn: Connection) -> Any:
    """The DBAPI cursor of a SQLAlchemy connection, inside its current transaction."""
    return conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
