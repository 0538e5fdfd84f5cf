"""Where the portal's own files are: `templates/`, `static/`, `locales/` and `manifest.toml`.

In a checkout (and an editable install) they sit at the repository's top level, beside the
`choice` package; a built wheel carries them inside the package as `choice/_resources/`
(`pyproject.toml` maps them there). This module is the one place that knows both layouts.
`check()` runs at start-up: a missing or unreadable file is an error naming its path, never
a silent fallback (an English-only page or a 500 on the first request).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
INSTALLED = PACKAGE / "_resources"
CHECKOUT = PACKAGE.parent


class MissingResource(RuntimeError):
    """The installation is incomplete: the message names the path and what to do."""


@dataclass(frozen=True)
class Resources:
    root: Path

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def static(self) -> Path:
        return self.root / "static"

    @property
    def locales(self) -> Path:
        return self.root / "locales"

    @property
    def manifest(self) -> Path:
        return self.root / "manifest.toml"

    def catalog(self, language: str) -> Path:
        return self.locales / language / "LC_MESSAGES" / "messages.po"

    def check(self, languages: tuple[str, ...]) -> None:
        """Raise `MissingResource` for the first thing the portal cannot read."""
        for folder in (self.templates, self.static):
            if not folder.is_dir() or not os.access(folder, os.R_OK | os.X_OK):
                raise _missing(folder, "folder")
        files = [self.manifest, self.templates / "base.html",
                 *(self.catalog(language) for language in languages)]
        for path in files:
            if not path.is_file() or not os.access(path, os.R_OK):
                raise _missing(path, "file")


def _missing(path: Path, what: str) -> MissingResource:
    return MissingResource(
        f"the choice portal cannot read the {what} {path}: the installation is incomplete. "
        "Reinstall the package (pip install --force-reinstall choice-portal, or from a "
        "checkout pip install -e .)."
    )


def locate() -> Resources:
    """The installed copy when there is one, else the checkout's top level."""
    return Resources(INSTALLED if INSTALLED.is_dir() else CHECKOUT)


RESOURCES = locate()
