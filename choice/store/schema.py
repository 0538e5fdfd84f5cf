"""The schema's version: bring a database to the newest Alembic revision (head), one process
at a time, and say where a database stands.

Owns the migrations folder (`migrations/`, shipped inside the package), what to do once
the cross-process upgrade lock is held (`upgrade_lock.py`), stamping a database that
choice-portal 0.1.0 made (its tables, no version table: `baseline.py` recognises it), and
refusing a database that a newer version upgraded. It knows nothing of what the tables mean: the
revisions under `migrations/versions/` and `tables.py` do.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct
from sqlalchemy import (
    Column,
    Connection,
    Engine,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    create_engine,
    inspect,
    make_url,
    text,
)

from choice.store.baseline import BASELINE, BASELINE_COLUMNS, baseline_problems
from choice.store.engine import DriverMissing, driven, make_engine, shown
from choice.store.tables import METADATA
from choice.store.upgrade_lock import LockNotTaken, upgrade_lock

if TYPE_CHECKING:  # Alembic is large and is loaded only when a database must change
    from alembic.config import Config
    from alembic.script import ScriptDirectory

log = logging.getLogger("choice.store")
# Alembic says "Context impl SQLiteImpl." at INFO each time it reads the version, at every
# start; our own line below says when something changed.
logging.getLogger("alembic.runtime").setLevel(logging.WARNING)

MIGRATIONS = Path(__file__).resolve().with_name("migrations")
HEAD = "0010"
"""The newest revision under `migrations/versions/` (a test holds them equal): a database
already there is recognised with one query, without loading Alembic."""
VERSION_TABLE = Table("alembic_version", MetaData(),
                      Column("version_num", String(32), nullable=False),
                      PrimaryKeyConstraint("version_num", name="alembic_version_pkc"))
"""Alembic's own version table, as Alembic creates it (for a new database made here)."""


class SchemaError(RuntimeError):
    """The database cannot be brought to head: the message names it and says what to do."""


class Version(Struct, frozen=True):
    """Where a database stands."""

    url: str
    """The database, with any password hidden."""
    revision: str | None
    """The revision in `alembic_version`, or None when there is none."""
    head: str
    """The newest revision this installation knows."""
    tables: frozenset[str]
    """Which of the portal's tables exist."""
    exists: bool = True
    """False for a SQLite file that is not there yet."""

    @property
    def known(self) -> bool:
        return self.revision is None or self.revision in _revisions()

    @property
    def unversioned(self) -> bool:
        """The portal's tables without a version: made by choice-portal 0.1.0."""
        return self.revision is None and bool(self.tables)

    def describe(self) -> str:
        """One line for an operator: where it stands and, if needed, what to do."""
        if not self.exists:
            return f"{self.url}: no database yet (the portal creates it at {self.head} on start)"
        if not self.known:
            return f"{self.url}: {_too_new(self)}"
        if self.unversioned:
            then = "" if self.head == BASELINE else f" and upgrades it to {self.head}"
            return (f"{self.url}: no schema version (made by choice-portal 0.1.0); "
                    f"`choice db upgrade` or starting the portal stamps it as {BASELINE}{then}")
        if self.revision is None:
            return f"{self.url}: empty; `choice db upgrade` or starting the portal creates it"
        if self.revision == self.head:
            return f"{self.url}: {self.revision} (head)"
        return (f"{self.url}: {self.revision}, head is {self.head}; "
                "`choice db upgrade` or starting the portal upgrades it")


class Upgrade(Struct, frozen=True):
    """What `upgrade` did."""

    url: str
    before: str | None
    after: str
    stamped: bool = False
    """The database had no version (choice-portal 0.1.0) and was stamped as the baseline."""

    def describe(self) -> str:
        if self.before == self.after:
            return f"{self.url}: already at {self.after} (head), nothing to do"
        if self.stamped:
            then = "(head)" if self.after == BASELINE else f"and upgraded to {self.after} (head)"
            return f"{self.url}: recognised as choice-portal 0.1.0's, stamped {BASELINE} {then}"
        return f"{self.url}: upgraded from {self.before or 'an empty database'} to {self.after} (head)"


@functools.cache
def _scripts() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS))


@functools.cache
def _revisions() -> frozenset[str]:
    return frozenset(script.revision for script in _scripts().walk_revisions())


def head() -> str:
    found = _scripts().get_current_head()
    assert found is not None, f"no migrations in {MIGRATIONS}"
    return found


def alembic_config(connection: Connection) -> Config:
    """Alembic's configuration, built here (no alembic.ini): `env.py` runs on `connection`."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def read_version(conn: Connection) -> Version:
    from alembic.runtime.migration import MigrationContext

    revision = MigrationContext.configure(conn).get_current_revision()
    tables = frozenset(inspect(conn).get_table_names()) & BASELINE_COLUMNS.keys()
    return Version(shown(conn.engine), revision, head(), tables)


def upgrade(engine: Engine) -> Upgrade:
    """Bring the database to head; a no-op (one read, no lock) when it is there already.

    `engine` comes from `engine.make_engine` (on SQLite its `BEGIN IMMEDIATE` is the lock).
    Processes starting together queue on the lock; each reads the version again once it
    holds the lock, so only the first migrates. Raises `SchemaError` for a database this
    installation cannot serve, and changes nothing then.
    """
    with engine.connect() as conn:
        if _at_head(conn):  # every start but the first after an upgrade
            return Upgrade(shown(engine), HEAD, HEAD)
        empty = _empty(conn)
    if empty and (created := _create_at_head(engine)) is not None:
        return created
    with engine.connect() as conn:
        version = read_version(conn)
    _check_known(version)
    if version.revision == version.head:
        return Upgrade(version.url, version.revision, version.head)
    from alembic import command

    with _locked(engine) as conn:
        version = read_version(conn)
        _check_known(version)
        if version.revision == version.head:  # another process did it while we waited
            return Upgrade(version.url, version.revision, version.head)
        config = alembic_config(conn)
        if version.unversioned:
            _check_baseline(conn, version)
            command.stamp(config, BASELINE)
        command.upgrade(config, "head")
    done = Upgrade(version.url, version.revision, version.head, stamped=version.unversioned)
    log.info("database %s", done.describe())
    return done


def _empty(conn: Connection) -> bool:
    """No table of the portal's, nor a version: a database the portal has never touched."""
    return not set(inspect(conn).get_table_names()) & {*METADATA.tables, "alembic_version"}


def _create_at_head(engine: Engine) -> Upgrade | None:
    """A new database: the tables as `tables.py` has them (the same schema the revisions
    make, as tests/integration/test_migrations.py checks) and the version table at head, in
    one transaction under the upgrade lock, without loading Alembic (time and memory a
    first start need not pay). None if another process wrote tables meanwhile: then migrate as usual."""
    with _locked(engine) as conn:
        if not _empty(conn):
            return None
        METADATA.create_all(conn, checkfirst=False)  # empty, checked under the lock above
        VERSION_TABLE.create(conn, checkfirst=False)
        conn.execute(VERSION_TABLE.insert().values(version_num=HEAD))
    done = Upgrade(shown(engine), None, HEAD)
    log.info("database %s", done.describe())
    return done


def _at_head(conn: Connection) -> bool:
    if not inspect(conn).has_table("alembic_version"):
        return False
    revisions = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return list(revisions) == [HEAD]


def upgrade_url(url: str) -> Upgrade:
    """`upgrade` for a URL (`choice db upgrade`)."""
    try:
        engine = make_engine(url)
    except DriverMissing as missing:
        raise SchemaError(str(missing)) from None
    try:
        return upgrade(engine)
    finally:
        engine.dispose()


def current(url: str) -> Version:
    """Where the database at `url` stands, changing nothing (not even creating the file)."""
    parsed = make_url(url)
    where = parsed.render_as_string(hide_password=True)
    on_disk = parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:")
    if on_disk and not Path(str(parsed.database)).exists():
        return Version(where, None, head(), frozenset(), exists=False)
    try:  # plain: none of make_engine's pragmas, nothing written
        engine = driven(create_engine, url)
    except DriverMissing as missing:
        raise SchemaError(str(missing)) from None
    try:
        with engine.connect() as conn:
            return read_version(conn)
    finally:
        engine.dispose()


@contextmanager
def _locked(engine: Engine) -> Iterator[Connection]:
    """`upgrade_lock`, a lock not taken said as a `SchemaError` (what `choice serve` shows)."""
    try:
        with upgrade_lock(engine) as conn:
            yield conn
    except LockNotTaken as not_taken:  # raised only while taking it, never by the body
        raise SchemaError(str(not_taken)) from not_taken.__cause__


def _check_known(version: Version) -> None:
    if not version.known:
        raise SchemaError(f"{version.url}: {_too_new(version)}")


def _too_new(version: Version) -> str:
    return (f"schema revision {version.revision!r} is unknown to choice-portal {_installed()} "
            f"(which knows up to {version.head}): a newer version upgraded this database. "
            "Upgrade choice-portal (e.g. `uv tool upgrade choice-portal` or "
            "`pip install -U choice-portal`), or point CHOICE_DB_URL at another database.")


def _check_baseline(conn: Connection, version: Version) -> None:
    """A database without a version is stamped only if it really is 0.1.0's schema."""
    problems = baseline_problems(conn, version.tables)
    if problems:
        raise SchemaError(
            f"{version.url} has no schema version and is not a database that choice-portal "
            f"0.1.0 made ({'; '.join(problems)}). Nothing was changed. Point CHOICE_DB_URL "
            "(or CHOICE_DATA_DIR) at the portal's own database, or restore a backup.")


def _installed() -> str:
    try:
        return metadata.version("choice-portal")
    except metadata.PackageNotFoundError:
        return "(not installed)"
