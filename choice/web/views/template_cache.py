"""Compiled templates kept between starts, in `<data dir>/cache/templates`.

Jinja compiles each template to Python on its first render; compiling made the first
question page several times slower than reading the compiled code back, and left more
memory behind. The
files are Jinja's own (`FileSystemBytecodeCache`): one per template, written atomically,
ignored when the template's source or the Python version differs. The data dir is the
user's own (0700); what it holds is trusted as the database is.

A cache never costs a page: a file that cannot be read is compiled again, one that cannot
be written (a full disk, a read-only dir) is skipped.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path

from jinja2 import FileSystemBytecodeCache
from jinja2.bccache import Bucket

log = logging.getLogger("choice")


class TemplateCache(FileSystemBytecodeCache):
    def __init__(self, directory: Path) -> None:
        try:
            for level in (directory.parent, directory):  # both the user's only, as the data dir
                level.mkdir(exist_ok=True, mode=0o700)
        except OSError as error:  # pages compile as before; only slower
            log.warning("cannot keep compiled templates in %s (%s)", directory, error.strerror)
        super().__init__(str(directory), "%s.jinja")

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # a damaged file: compile the template again
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)
