"""Shared fixtures: every test gets its own data dir, and never opens a browser; the store,
service and API suites run on both SQLite and a throwaway PostgreSQL (`backend`)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from choice.store import Store
from tests.missing_tool import unavailable
from tests.pg_cluster import Cluster, server_binaries
from tests.portal_process import PortalProcess

BACKENDS = ("sqlite", "postgresql")
HARDENING_FIGURES = Path(__file__).parent / "artifacts" / "hardening.json"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    data_dir = tmp_path / "data"
    monkeypatch.setenv("CHOICE_DATA_DIR", str(data_dir))
    monkeypatch.setenv("CHOICE_OPEN_BROWSER", "0")
    for name in ("CHOICE_DB_URL", "CHOICE_PORT", "CHOICE_HOST", "CHOICE_LANG",
                 "CHOICE_RETENTION_DAYS", "CHOICE_MAX_SESSIONS", "CHOICE_ALLOWED_HOSTS", "CHOICE_AUTH"):
        monkeypatch.delenv(name, raising=False)
    yield data_dir


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database at the head revision, migrated once per test process (each xdist
    worker makes its own). Closing the store checkpoints it: the one file is the database."""
    path = tmp_path_factory.mktemp("migrated-template") / "choice.db"
    Store(f"sqlite:///{path}").open().close()
    assert not path.with_name("choice.db-wal").exists(), "the template must be one file"
    return path


def seed_database(data_dir: Path, template: Path) -> Path:
    """Put a copy of the migrated template where a portal in `data_dir` looks for its
    database: it starts at head with one read instead of running Alembic."""
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    return Path(shutil.copyfile(template, data_dir / "choice.db"))


@pytest.fixture
def migrated_database(isolated_env: Path, migrated_template: Path) -> Path:
    """This test's data dir starts with a database already at head (a copy of the template)
    instead of each test migrating its own. For suites that do not test the first start;
    with `backend`'s postgresql run the file is simply not used (the cluster copies its
    own template database)."""
    return seed_database(isolated_env, migrated_template)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One PostgreSQL server per test process (each xdist worker starts its own)."""
    binaries = server_binaries()
    if binaries is None:
        unavailable("no PostgreSQL server installed: sudo apt-get install -y postgresql")
    cluster = Cluster(binaries).start()
    yield cluster
    cluster.stop()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, isolated_env: Path,
            monkeypatch: pytest.MonkeyPatch) -> str:
    """Runs the test on each store: `CHOICE_DB_URL` is a fresh PostgreSQL database for the
    `postgresql` run (SQLite in the data dir otherwise). Use it with
    `pytestmark = pytest.mark.usefixtures("backend")`."""
    if request.param == "postgresql":
        monkeypatch.setenv("CHOICE_DB_URL", request.getfixturevalue("pg_cluster").new_database())
    return str(request.param)


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory,
           migrated_template: Path) -> Iterator[PortalProcess]:
    """One real portal per module, on a copy of the migrated template; each test asks its
    own questions (modules that need a fresh or specially configured portal define their
    own `portal`)."""
    data_dir = tmp_path_factory.mktemp("portal")
    seed_database(data_dir, migrated_template)
    process = PortalProcess(data_dir).start()
    yield process
    process.stop()


@pytest.fixture
def client(portal: PortalProcess) -> PortalClient:
    """The agent's side: asks, polls, and reads the audit trail."""
    return portal.client()



def pytest_configure(config: pytest.Config) -> None:
    """Keep the order `pytest_collection_modifyitems` gives the modules: pytest-xdist would
    otherwise sort them by their number of tests (`--loadscope-reorder`, on by default)."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


TIERS = {"tests/browser/": "browser", "tests/security/test_hostile_text_browser.py": "browser",
         "tests/terminal/": "tmux", "tests/security/test_hostile_text_terminal.py": "tmux"}
"""What a test needs beyond Python, by where it lives (the markers are in pyproject.toml)."""


def mark_tiers(item: pytest.Item) -> None:
    """`browser` and `tmux` by the test's place; `postgres` for every test that gets the
    cluster, the `backend` fixture's postgresql run included. `scripts/test --fast`
    deselects all three."""
    path = item.nodeid.split("::", 1)[0]
    for prefix, marker in TIERS.items():
        if path.startswith(prefix):
            item.add_marker(marker)
    params = getattr(item, "callspec", None)
    if "pg_cluster" in getattr(item, "fixturenames", ()) or (
            params is not None and params.params.get("backend") == "postgresql"):
        item.add_marker("postgres")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks each test's tier (`mark_tiers`), then orders the modules: slow modules first,
    longest first, then the rest, biggest first (`--dist loadfile` hands whole modules to
    the two workers in this order). A 60 s module that comes last
    runs on one worker while the other one has nothing left to do; started first, the quick
    modules fill in around it. A test's length is its `slow` mark's `seconds` (say it for a
    test that runs far longer than its module's others, e.g. `pytest.mark.slow(seconds=30)`),
    else 1. Only the order of whole modules changes: a module's own tests keep theirs."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        mark_tiers(item)
        modules.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def cost(tests: list[pytest.Item]) -> tuple[bool, float]:
        marks = [test.get_closest_marker("slow") for test in tests]
        return (not any(marks), -sum(float(m.kwargs.get("seconds", 1)) if m else 1 for m in marks))

    items[:] = [item for tests in sorted(modules.values(), key=cost) for item in tests]


def pytest_sessionfinish(session: pytest.Session) -> None:
    """On a pytest-xdist worker: hand this worker's tally to the controller."""
    from tests.tally import rows

    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["tally"] = rows()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """On the pytest-xdist controller: collect a finished worker's tally."""
    from tests.tally import merge

    merge(getattr(node, "workeroutput", {}).get("tally", {}))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int) -> None:
    """Print what the security and reliability suites tried (see `tests/tally.py`) and write
    the figures down as JSON: a run that reached every area to
    `tests/artifacts/hardening.json`, which `scripts/hardening-tables` publishes to the docs,
    any other to `hardening-partial.json`, so a later partial run never replaces a whole
    run's figures."""
    from tests.tally import SUITES, TALLY, figures, not_run, table

    if not TALLY or hasattr(terminalreporter.config, "workerinput"):
        return  # nothing tallied, or a pytest-xdist worker: the controller reports
    terminalreporter.section("hardening tally")
    for suite in SUITES:
        for line in table(suite):
            terminalreporter.write_line(line)
    outcomes = {kind: len(terminalreporter.stats.get(kind, []))
                for kind in ("passed", "failed", "error", "skipped", "xfailed", "xpassed")}
    written = HARDENING_FIGURES if not not_run() else HARDENING_FIGURES.with_name(
        "hardening-partial.json")
    written.parent.mkdir(parents=True, exist_ok=True)
    written.write_text(json.dumps(figures(int(exitstatus), outcomes), indent=2,
                                  ensure_ascii=False) + "\n")
    terminalreporter.write_line(f"written to {written}")
