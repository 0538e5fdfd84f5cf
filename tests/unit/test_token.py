"""`core/token.py`'s rotation: `rotate_token` replaces the file whole and private, and a
running portal's `TokenFile` takes the new token on its next read, keeping the last one
read when the file goes missing or empty."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from choice.core.token import TokenFile, ensure_token, read_token, rotate_token


def test_rotate_replaces_the_token_with_a_private_new_one(tmp_path: Path) -> None:
    path = tmp_path / "data" / "token"
    old = ensure_token(path)
    new = rotate_token(path)
    assert new != old and read_token(path) == new and len(new) >= 43
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["token"]  # no temporary file left


def test_a_running_portal_reads_the_new_token_at_once(tmp_path: Path) -> None:
    path = tmp_path / "token"
    source = TokenFile(path)
    first = source.current()
    assert first == read_token(path)
    second = rotate_token(path)
    assert source.current() == second
    path.unlink()  # gone: keep the last token read rather than refuse everyone
    assert source.current() == second
    path.write_text("")
    assert source.current() == second
    path.write_text("hand-written\n")
    assert source.current() == "hand-written"
