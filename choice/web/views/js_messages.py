"""The messages the front end's JS modules look up, and one language's translations of them.

The JS translates with `P.t("...")` and, for text with a count, `P.nt("singular",
"plural", n)` (`static/js/config.js`). Which messages those are is read from the JS sources
themselves with Babel's JavaScript extractor, the same keywords `babel.cfg` gives
`pybabel extract`, once per process: the page hands the bundle exactly those messages,
translated, and nobody keeps a second list by hand. This module must not render anything.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.extract import extract

from choice.core.i18n import catalog, translator
from choice.core.resources import RESOURCES, MissingResource

JS_KEYWORDS: dict[str, tuple[int, ...] | None] = {"P.t": None, "P.nt": (1, 2)}
"""The JS lookup functions and where their message arguments are (as in `babel.cfg`)."""

Message = str | tuple[str, str]


@cache
def js_messages(folder: Path = RESOURCES.static / "js") -> tuple[Message, ...]:
    """Every message the JS modules under `folder` look up, in source order, once each."""
    found: dict[Message, None] = {}
    for path in sorted(folder.rglob("*.js")):
        try:
            with path.open("rb") as source:
                extracted = list(extract("javascript", source, keywords=JS_KEYWORDS))
        except OSError as error:
            raise MissingResource(f"cannot read the script {path}: {error.strerror}. "
                                  "Reinstall the package.") from error
        for _line, message, _comments, _context in extracted:
            if isinstance(message, str):
                found.setdefault(message, None)
            elif len(message) == 2 and isinstance(message[0], str) and isinstance(message[1], str):
                found.setdefault((message[0], message[1]), None)
    return tuple(found)


@cache
def js_catalog(language: str) -> dict[str, Any]:
    """What a page in `language` hands the bundle: the catalog's plural rule and every JS
    message translated; a message with a count maps to its list of plural forms (the
    English pair while it is untranslated, which the JS then picks by English's rule)."""
    translate, plural = translator(language), catalog(translator(language).language)
    messages: dict[str, str | list[str]] = {}
    for message in js_messages():
        if isinstance(message, str):
            messages[message] = translate(message)
        else:
            messages[message[0]] = list(plural.plurals.get(message[0], message))
    return {"plural": plural.plural_expression, "nplurals": plural.plural_count,
            "messages": messages}
