"""A new data dir's compiled templates, made on a background thread of the portal while it
starts.

With an empty template cache (`template_cache.py`: a new data dir, or `cache/` deleted),
the first page compiled each template it used, and the first question a new user ever sees
came noticeably later. `choice serve` starts a thread that compiles every page template
into the cache with the pages' own environment; the first page then reads the compiled
code back. The cache's files are written atomically: a page rendered meanwhile reads a
whole file or none, and compiles what it lacks itself. If the thread fails, the pages
compile as they would without it. Nothing is started when the cache already holds files.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

log = logging.getLogger("choice.web")
CACHE_FILES = "*.jinja"
"""What `TemplateCache` names its files."""


def is_cold(directory: Path) -> bool:
    """No compiled template kept yet (a missing directory is cold; an unreadable one is
    left alone)."""
    try:
        return next(directory.glob(CACHE_FILES), None) is None
    except OSError:
        return False


def warm(directory: Path) -> int:
    """Compile every page template into `directory` with the pages' own environment (the
    cache is keyed by each template's source, not by how it is compiled). How many."""
    from choice.web.views.templating import make_environment

    env = make_environment(directory)
    names = env.list_templates(extensions=["html"])
    for name in names:
        env.get_template(name)
    return len(names)


def warm_quietly(directory: Path) -> None:
    try:
        warm(directory)
    except Exception as error:  # the pages compile what they need themselves
        log.info("templates not compiled ahead: %s", error)


def warm_in_background(directory: Path) -> threading.Thread | None:
    """Start the thread when the cache is cold, and return it; None when it is not."""
    if not is_cold(directory):
        return None
    thread = threading.Thread(target=warm_quietly, args=(directory,), name="template-warmup",
                              daemon=True)
    thread.start()
    return thread
