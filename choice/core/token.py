"""The API bearer token: generated on first start, stored 0600 as `<data dir>/token`.

Agents (`/api`, `/mcp`) send it as `Authorization: Bearer <token>`; `choice token` prints it;
`choice ask`, `choice answer` and `choice mcp` read it themselves. `choice token --rotate`
replaces it (`rotate_token`); a running portal reads the file again when it changes
(`TokenFile`), so the old token, the sign-in codes and the browser sessions keyed by it stop
working at once, without a restart.

Several processes may create it at once (two MCP clients each starting a portal on a new
data dir): the token is written whole to a private temporary file, which is then linked
to its final name. A link never replaces a file, so exactly one process wins, and the file
is complete from the moment it has its name; every other process reads the winner's.
`secrets` and `tempfile` are imported only to create one: `secrets` loads OpenSSL's
libcrypto (a large library), and `choice mcp`, which only reads the token, must stay small.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


class TokenFileError(RuntimeError):
    """The token file exists but holds no token: the message says how to fix it."""


def _written_token(path: Path) -> tuple[str, str]:
    """A new token, written whole and synced to a private (0600) temporary file beside
    `path`: (the token, that file's path). The caller links or renames it into place."""
    import secrets
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    token = secrets.token_urlsafe(32)
    fd, written = tempfile.mkstemp(prefix=".token-", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(token + "\n")
            handle.flush()
            os.fsync(handle.fileno())  # never a named but empty token after a power cut
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(written)
        raise
    return token, written


def ensure_token(path: Path) -> str:
    """Read the token, creating it (mode 0600, never world-readable) if it does not exist."""
    existing = read_token(path)
    if existing:
        return existing
    token, written = _written_token(path)
    try:
        try:
            os.link(written, path)
        except FileExistsError:
            winner = read_token(path)
            if winner is None:
                raise TokenFileError(
                    f"{path} exists but is empty (an interrupted start of an older version?): "
                    "delete it and start again; a new token will be made.") from None
            return winner
        return token
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(written)


def rotate_token(path: Path) -> str:
    """Replace the token with a new one and return it. The new file is written whole and
    private, then renamed over the old one: a reader sees the old token or the new one,
    never half of either."""
    token, written = _written_token(path)
    try:
        os.replace(written, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(written)
        raise
    return token


class TokenFile:
    """The token a running portal accepts: read when the portal starts, and again whenever
    the file changes (a `stat` per call, cheap: a rotated token takes effect on the next
    request). A file that goes missing or empty keeps the token last read: only a new
    token replaces it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._token = ensure_token(path)
        self._stamp = self._stat()

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            return None
        return found.st_ino, found.st_mtime_ns, found.st_size

    def current(self) -> str:
        stamp = self._stat()
        if stamp != self._stamp:
            self._stamp = stamp
            self._token = read_token(self.path) or self._token
        return self._token


def read_token(path: Path) -> str | None:
    try:
        return path.read_text().strip() or None
    except FileNotFoundError:
        return None
