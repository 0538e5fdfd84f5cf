"""Compiled templates are kept in the data dir and read back by the next start, and the
cache never costs a page: a damaged file is compiled again, an unusable dir is skipped.
A new data dir's first pages compile what they use, once."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import Environment

from choice.web.views.templating import make_environment

PAGE = "choice.html"


def no_compiling(env: Environment) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("compiled the template again instead of reading the cache")

    env.compile = refuse  # type: ignore[method-assign]


def test_the_next_start_reads_the_compiled_template_back(tmp_path: Path) -> None:
    kept = tmp_path / "cache" / "templates"
    first = make_environment(kept).get_template(PAGE)
    files = sorted(kept.iterdir())
    assert files and (kept.stat().st_mode & 0o777) == 0o700
    later = make_environment(kept)
    no_compiling(later)
    again = later.get_template(PAGE)
    assert again.name == first.name and again.blocks.keys() == first.blocks.keys()
    assert sorted(kept.iterdir()) == files


def test_a_damaged_file_is_compiled_again_and_rewritten(tmp_path: Path) -> None:
    kept = tmp_path / "templates"
    make_environment(kept).get_template(PAGE)
    damaged = {path: path.read_bytes() for path in kept.iterdir()}
    for path in damaged:
        path.write_bytes(path.read_bytes()[:20])  # past the magic header, into the checksum
    assert make_environment(kept).get_template(PAGE).blocks
    assert all(path.read_bytes() == whole for path, whole in damaged.items())


def test_a_dir_that_cannot_be_made_costs_nothing(tmp_path: Path,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache dir would go")
    assert make_environment(blocker / "templates").get_template(PAGE).blocks
    assert "cannot keep compiled templates" in caplog.text

