"""The first start is a race: MCP clients launched together on a new data dir each start a
portal through `choice mcp`. Exactly one token may come out of it.
"""

from __future__ import annotations

import multiprocessing
import stat
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from choice.api_token import TokenFileError, ensure_token, read_token

# -- the token ---------------------------------------------------------------------------------


def test_threads_creating_the_token_at_once_all_get_the_one_in_the_file(tmp_path: Path) -> None:
    for round_ in range(20):
        path = tmp_path / f"round-{round_}" / "token"
        start = threading.Barrier(16)

        def create(path: Path = path, start: threading.Barrier = start) -> str:
            start.wait()
            return ensure_token(path)

        with ThreadPoolExecutor(16) as pool:
            tokens = set(pool.map(lambda _: create(), range(16)))
        assert tokens == {read_token(path)}
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert sorted(p.name for p in path.parent.iterdir()) == ["token"]  # no temp files left


def _token_in_child(path: Path, start: Any, tokens: Any) -> None:
    start.wait()
    tokens.put(ensure_token(path))


def test_processes_creating_the_token_at_once_all_get_the_one_in_the_file(tmp_path: Path) -> None:
    fork = multiprocessing.get_context("fork")  # after the imports: only the race costs time
    for round_ in range(10):
        path = tmp_path / f"round-{round_}" / "token"
        start, tokens = fork.Barrier(8), fork.Queue()
        children = [fork.Process(target=_token_in_child, args=(path, start, tokens))
                    for _ in range(8)]
        for child in children:
            child.start()
        got = {tokens.get(timeout=30) for _ in children}
        for child in children:
            child.join(timeout=10)
        assert got == {read_token(path)}
        assert sorted(p.name for p in path.parent.iterdir()) == ["token"]


def test_an_empty_token_file_is_an_error_that_says_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "token"
    path.write_text("")
    with pytest.raises(TokenFileError, match=r"is empty.*delete it and start again") as error:
        ensure_token(path)
    assert str(path) in str(error.value)
    assert path.read_text() == ""
