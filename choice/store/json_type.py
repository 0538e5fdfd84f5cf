"""The column type of every JSON value the portal stores (a request, a result, an audit
event's detail, a preference, a vote, a webhook message, a draft): callers write and read
Python values (dicts, lists, strings, numbers, booleans, None), never JSON text.

On PostgreSQL the column is `json`, not `jsonb`: `json` keeps the text as written, so a
result's keys come back in the order the portal wrote them (`jsonb` sorts them, and the API
and MCP replies would change shape). The driver (psycopg) decodes it; `engine.py` hands
SQLAlchemy the encoder and decoder below for it.

On SQLite the column is declared VARCHAR, as it was before the type changed: SQLite has no
JSON storage class (its JSON functions read text), and a column declared `JSON` gets NUMERIC
affinity, which turns the stored text `30.0` into the integer 30 and `600` into an integer
that no JSON decoder accepts. VARCHAR has TEXT affinity: the JSON text is kept as written,
and this type encodes and decodes it.

`none_as_null` (the default) stores Python None as SQL NULL; without it (a preference whose
value is null) None is stored as the JSON `null`.
"""

from __future__ import annotations

from typing import Any

import msgspec
from sqlalchemy import JSON, Dialect, String, TypeDecorator
from sqlalchemy.types import TypeEngine

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder()


def encode(value: Any) -> str:
    """JSON text, compact and UTF-8 (as pydantic's `model_dump_json` writes it): msgspec
    encodes several times faster than the `json` module."""
    return _encoder.encode(value).decode()


def decode(text: str | bytes) -> Any:
    """The value of JSON text (faster than `json.loads`; the same values)."""
    return _decoder.decode(text)


class StoredJSON(TypeDecorator[Any]):
    impl = JSON
    cache_ok = True

    def __init__(self, none_as_null: bool = True) -> None:
        super().__init__()
        self.none_as_null = none_as_null

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(String())
        if dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import JSON as PostgresJSON  # (not jsonb: above)

            return dialect.type_descriptor(PostgresJSON(none_as_null=self.none_as_null))
        return dialect.type_descriptor(JSON(none_as_null=self.none_as_null))

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if dialect.name != "sqlite":
            return value  # the dialect's JSON type encodes it
        if value is None and self.none_as_null:
            return None
        return encode(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        if dialect.name != "sqlite" or value is None:
            return value  # the driver decoded it
        return decode(value)
