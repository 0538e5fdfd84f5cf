"""The plain records (`store/records.py`) and the tables (`store/tables.py`) describe the
same rows: a column added to one and not the other would be lost on the way in or out."""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest
from msgspec.structs import fields
from sqlalchemy import Column

from choice.store.records import AuditEvent, Interaction
from choice.store.tables import AUDIT_EVENTS, INTERACTIONS

PAIRS = [(Interaction, INTERACTIONS), (AuditEvent, AUDIT_EVENTS)]


def ids(value: Any) -> str:
    return str(getattr(value, "__name__", None) or value.name)


def columns_of(table: Any) -> dict[str, Column[Any]]:
    return {column.name: column for column in table.columns}


def plain_type(hint: Any) -> tuple[type, bool]:
    """`str | None` -> (str, True); `float` -> (float, False)."""
    args = typing.get_args(hint)
    if isinstance(hint, types.UnionType) and type(None) in args:
        (inner,) = [arg for arg in args if arg is not type(None)]
        return inner, True
    return hint, False


@pytest.mark.parametrize(("record", "table"), PAIRS, ids=ids)
def test_a_record_has_exactly_the_columns_of_its_table(record: type, table: Any) -> None:
    assert {f.name for f in fields(record)} == set(columns_of(table))


@pytest.mark.parametrize(("record", "table"), PAIRS, ids=ids)
def test_a_field_that_may_be_none_is_a_nullable_column_and_back(record: type, table: Any) -> None:
    columns, hints = columns_of(table), typing.get_type_hints(record)
    for field in fields(record):
        column = columns[field.name]
        _, optional = plain_type(hints[field.name])
        database_fills_it = column.primary_key and column.autoincrement in (True, "auto")
        if field.default is None or optional:
            assert column.nullable or database_fills_it, f"{field.name}: None for NOT NULL"
        if column.nullable:
            assert optional and field.default is None, f"{field.name}: nullable, needs None"


@pytest.mark.parametrize(("record", "table"), PAIRS, ids=ids)
def test_a_field_has_the_type_of_its_column(record: type, table: Any) -> None:
    hints = typing.get_type_hints(record)
    for name, column in columns_of(table).items():
        assert plain_type(hints[name])[0] is column.type.python_type, name
