"""choice-portal 0.1.0's database: it made its tables with `create_all` and kept no schema
version. `schema.py` stamps such a database as `BASELINE` (and upgrades it from there) only
when its tables are exactly these; anything else is someone else's database.
"""

from __future__ import annotations

from sqlalchemy import Connection, inspect

BASELINE = "0001"
"""The revision equal to what choice-portal 0.1.0 made with `create_all` (no version table)."""
BASELINE_COLUMNS = {
    "interaction": {"id", "status", "title", "selection_mode", "interface", "agent", "project",
                    "language", "placeholder_shown", "created_at", "expires_at", "completed_at",
                    "request_json", "result_json"},
    "audit_event": {"id", "interaction_id", "kind", "actor", "at", "detail_json"},
    "preference": {"key", "value_json"},
}


def baseline_problems(conn: Connection, tables: frozenset[str]) -> list[str]:
    """How the database differs from 0.1.0's (`tables`: which of its tables exist); none
    when it is 0.1.0's."""
    inspector = inspect(conn)
    problems = []
    for table, expected in BASELINE_COLUMNS.items():
        if table not in tables:
            problems.append(f"table {table} is missing")
            continue
        found = {column["name"] for column in inspector.get_columns(table)}
        if found != expected:
            missing, extra = sorted(expected - found), sorted(found - expected)
            problems.append(f"table {table} " + "; ".join(
                part for part in (missing and f"lacks {', '.join(missing)}",
                                  extra and f"has unknown {', '.join(extra)}") if part))
    return problems
