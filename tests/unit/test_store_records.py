"""Every light record the portal reads rows into (`store/records.py`, and the few that read
some of a table's columns) describes its table as `store/tables.py` declares it: the same
column names, Python types, defaults and nullability. A column added to one and not the
other would be lost on the way in or out; a type or a default that drifts would store
something else than the table says."""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from typing import Any, NamedTuple

import msgspec
import pytest
from pydantic_core import PydanticUndefined
from sqlmodel import SQLModel

from choice.store import drafts, records, reminders
from choice.store.json_type import StoredJSON
from choice.store.tables import (
    AttachmentTable,
    AuditEventTable,
    CommentTable,
    DecisionTable,
    DraftTable,
    InteractionTable,
    OutboxTable,
    ParticipantTable,
    VoteTable,
    WideningTable,
    table_of,
)
from choice.webhooks.rows import Message

REQUIRED = object()
"""A field without a default (msgspec's NODEFAULT, dataclasses' MISSING, pydantic's
PydanticUndefined)."""


class Checked(NamedTuple):
    record: type
    table: type[SQLModel]
    whole: bool = True
    """The record has every column (False: a chosen few, read for one purpose)."""
    computed: frozenset[str] = frozenset()
    """Fields that are not columns (worked out by the query)."""
    may_be_none: frozenset[str] = frozenset()
    """Fields that may be None where the column may not: left unread on purpose."""
    renamed: tuple[tuple[str, str], ...] = ()
    """(field, the column it holds) where the two names differ."""

    def fields(self) -> dict[str, Field]:
        """The record's fields that hold columns, by the column's name."""
        names = dict(self.renamed)
        return {names.get(name, name): field for name, field in record_fields(self.record).items()
                if name not in self.computed}


CHECKED = [
    Checked(records.Interaction, InteractionTable),
    Checked(records.AuditEvent, AuditEventTable),
    Checked(records.Widening, WideningTable),
    Checked(records.Decision, DecisionTable),
    Checked(records.Participant, ParticipantTable),
    Checked(records.Comment, CommentTable),
    Checked(records.Vote, VoteTable),
    # A file's description is read without its bytes (`data` None) until they are served.
    Checked(records.StoredFile, AttachmentTable, may_be_none=frozenset({"data"})),
    Checked(Message, OutboxTable),
    Checked(drafts.StoredDraft, DraftTable, whole=False),
    Checked(reminders.Waiting, InteractionTable, whole=False, computed=frozenset({"opened"}),
            renamed=(("interaction_id", "id"),)),
]


def label(value: Any) -> str:
    return value.record.__name__ if isinstance(value, Checked) else str(value)


class Field(NamedTuple):
    hint: Any
    default: Any


def record_fields(record: type) -> dict[str, Field]:
    if dataclasses.is_dataclass(record):
        hints = typing.get_type_hints(record)
        return {f.name: Field(hints[f.name], REQUIRED if f.default is dataclasses.MISSING
                              else f.default) for f in dataclasses.fields(record)}
    return {f.name: Field(f.type, REQUIRED if f.default is msgspec.NODEFAULT else f.default)
            for f in msgspec.structs.fields(record)}


def table_fields(table: type[SQLModel]) -> dict[str, Field]:
    return {name: Field(info.annotation, REQUIRED if info.default is PydanticUndefined
                        else info.default) for name, info in table.model_fields.items()}


def optional(hint: Any) -> bool:
    return (isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union) \
        and type(None) in typing.get_args(hint)


def without_none(hint: Any) -> Any:
    """`str | None` -> str; `float` -> float."""
    if not optional(hint):
        return hint
    (inner,) = [arg for arg in typing.get_args(hint) if arg is not type(None)]
    return inner


@pytest.mark.parametrize("checked", CHECKED, ids=label)
def test_a_record_reads_its_tables_columns(checked: Checked) -> None:
    columns = set(table_of(checked.table).columns.keys())
    names = set(checked.fields())
    if checked.whole:
        assert names == columns
    else:
        assert names <= columns, f"not columns of {checked.table.__tablename__}: {names - columns}"


@pytest.mark.parametrize("checked", CHECKED, ids=label)
def test_a_record_field_has_its_columns_type_and_default(checked: Checked) -> None:
    declared = table_fields(checked.table)
    for name, field in checked.fields().items():
        column = declared[name]
        if name in checked.may_be_none:
            assert field.hint == column.hint | None and field.default is None, name
            continue
        assert field.hint == column.hint, f"{name}: {field.hint} where the table has {column.hint}"
        if checked.whole:
            assert field.default == column.default, f"{name}: default {field.default!r} " \
                f"where the table has {column.default!r}"


@pytest.mark.parametrize("checked", CHECKED, ids=label)
def test_a_field_that_may_be_none_is_a_nullable_column_and_back(checked: Checked) -> None:
    table = table_of(checked.table)
    for name, field in checked.fields().items():
        if name in checked.may_be_none:
            continue
        column = table.columns[name]
        database_fills_it = column is table.autoincrement_column
        if field.hint is Any:  # any JSON value, `null` included: never SQL NULL
            assert not column.nullable, name
        elif optional(field.hint):
            assert column.nullable or database_fills_it, f"{name}: None for NOT NULL"
        else:
            assert not column.nullable, f"{name}: nullable, needs `| None`"


@pytest.mark.parametrize("table", sorted({c.table for c in CHECKED}, key=str), ids=str)
def test_a_column_stores_the_python_type_its_class_names(table: type[SQLModel]) -> None:
    """The SQL type each class gives a field (its `sa_type`) takes the field's values: a
    JSON value in a JSON column, a string in a string column."""
    for name, field in table_fields(table).items():
        column_type = table_of(table).columns[name].type
        inner = without_none(field.hint)
        if isinstance(column_type, StoredJSON):
            assert inner is Any or typing.get_origin(inner) in (dict, list), name
        else:
            assert inner is column_type.python_type, name


def test_every_record_of_the_store_is_checked() -> None:
    """A record added to `records.py` joins `CHECKED` above, or this fails."""
    defined = {value for _, value in inspect.getmembers(records, inspect.isclass)
               if issubclass(value, msgspec.Struct) and value.__module__ == records.__name__}
    assert defined <= {c.record for c in CHECKED}
