"""The mkdocs hook that fills a page's generated parts (mkdocs.yml: `hooks`).

A line `<!-- generated: NAME ARG -->` (ARG optional) becomes `docs.gen.NAME.render(ARG)`:
Markdown made from the code at build time (the OpenAPI schema, the settings table, the CLI
parser, the MCP tools' schemas, the test run's figures), so those pages cannot drift from it.
An unknown NAME or a generator that fails stops the build.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^<!-- generated: ([a-z_][a-z0-9_]*)(?:[ \t]+(.*?))?[ \t]*-->[ \t]*$",
                    re.MULTILINE)


def render(name: str, arg: str = "") -> str:
    if str(ROOT) not in sys.path:  # `docs.gen` and `choice` from this checkout
        sys.path.insert(0, str(ROOT))
    module = importlib.import_module(f"docs.gen.{name}")
    text: str = module.render(arg)
    return text.rstrip("\n")


def fill(markdown: str) -> str:
    return MARKER.sub(lambda match: render(match.group(1), match.group(2) or ""), markdown)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any, **_: Any) -> str:
    return fill(markdown)
