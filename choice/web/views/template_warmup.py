"""A new data dir's compiled templates, made by a child process while the portal starts.

With an empty template cache (`template_cache.py`: a new data dir, or `cache/` deleted),
the first page compiled each template it used: the first question a new user ever sees
took longer, and the portal kept more memory for the rest of its life. `choice
serve` hands that to a short-lived child, `python -m choice.web.views.template_warmup
<dir>`, which runs on another core while the portal imports and starts; the first page
then reads the compiled code back. The cache's files are written atomically: a page
rendered meanwhile reads a whole file or none, and compiles what it lacks itself. The
child is quiet; if it fails, the pages compile as they did before.

This module imports nothing of Jinja: the child does.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

CACHE_FILES = "*.jinja"
"""What `TemplateCache` names its files."""


def is_cold(directory: Path) -> bool:
    """No compiled template kept yet (a missing directory is cold; an unreadable one is
    left alone)."""
    try:
        return next(directory.glob(CACHE_FILES), None) is None
    except OSError:
        return False


def warm_in_background(directory: Path) -> None:
    """Start the child when the cache is cold; a thread reaps it. Returns at once."""
    if not is_cold(directory):
        return
    try:
        child = subprocess.Popen([sys.executable, "-m", __name__, str(directory)],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
    except OSError:  # no process to spare: the first page compiles, as before
        return
    threading.Thread(target=child.wait, name="template-warmup", daemon=True).start()


def warm(directory: Path) -> int:
    """Compile every page template into `directory` with the pages' own environment (the
    cache is keyed by each template's source, not by how it is compiled). How many."""
    from choice.web.views.templating import make_environment

    env = make_environment(directory)
    names = env.list_templates(extensions=["html"])
    for name in names:
        env.get_template(name)
    return len(names)


if __name__ == "__main__":
    warm(Path(sys.argv[1]))
