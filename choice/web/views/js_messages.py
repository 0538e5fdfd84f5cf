"""The messages the front end's JS modules look up, and one language's translations of them.

The JS translates with `P.t("...")` and, for text with a count, `P.nt("singular",
"plural", n)` (`static/js/config.js`). Which messages those are is read from the JS sources
themselves, once per process, by a pattern for those two calls with literal strings (the
modules name every message so: `config.js` says why); a test holds it equal to what Babel's
JavaScript extractor finds with `babel.cfg`'s keywords, which `pybabel extract` uses. A
pattern is quick where Babel's lexer slowed every start. The page hands the bundle exactly
those messages, translated, and nobody keeps a second list by hand. Each language's catalog
is made on its first page. This module must not render anything.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from choice.core.i18n import plural_rule, translator
from choice.core.resources import RESOURCES, MissingResource

JS_KEYWORDS: dict[str, tuple[int, ...] | None] = {"P.t": None, "P.nt": (1, 2)}
"""The JS lookup functions and where their message arguments are (as in `babel.cfg`)."""
STRING = r'"((?:[^"\\\n]|\\.)*)"'
LOOKUP = re.compile(rf"\bP\.(?:t\(\s*{STRING}|nt\(\s*{STRING}\s*,\s*{STRING})")
"""`P.t("message"` and `P.nt("singular", "plural"`: the calls of `JS_KEYWORDS`."""
COMMENT = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.S | re.M)
"""Block and line comments: they may show a call (`P.t("...")`) that is no message."""

Message = str | tuple[str, str]


@cache
def js_messages(folder: Path = RESOURCES.static / "js") -> tuple[Message, ...]:
    """Every message the JS modules under `folder` look up, in source order, once each."""
    found: dict[Message, None] = {}
    for path in sorted(folder.rglob("*.js")):
        try:
            source = path.read_text(encoding="utf-8")
        except OSError as error:
            raise MissingResource(f"cannot read the script {path}: {error.strerror}. "
                                  "Reinstall the package.") from error
        for one, singular, plural in LOOKUP.findall(COMMENT.sub(" ", source)):
            found.setdefault(_text(one) if not singular else (_text(singular), _text(plural)))
    return tuple(found)


def _text(literal: str) -> str:
    """A JS string literal's body (escapes included) as the text it stands for."""
    return str(json.loads(f'"{literal}"'))


@cache
def js_catalog(language: str) -> dict[str, Any]:
    """What a page in `language` hands the bundle: the catalog's plural rule and every JS
    message translated; a message with a count maps to its list of plural forms (the
    English pair while it is untranslated, which the JS then picks by English's rule)."""
    translate = translator(language)
    plural = plural_rule(translate.language)
    messages: dict[str, str | list[str]] = {}
    for message in js_messages():
        if isinstance(message, str):
            messages[message] = translate(message)
        else:
            messages[message[0]] = list(plural.forms.get(message[0], message))
    return {"plural": plural.expression, "nplurals": plural.count, "messages": messages}
