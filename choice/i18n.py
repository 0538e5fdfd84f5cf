"""Languages: which one applies, and the gettext function for it.

Resolution order: the request's `language` > the saved preference > `CHOICE_LANG` > English.
Catalogs arrive with the languages issue; until then every language reads as English, but
all user-facing strings already pass through `translator(language)`.
"""

from __future__ import annotations

import gettext
import logging
from collections.abc import Callable
from functools import cache

SUPPORTED = ("en", "zh")
log = logging.getLogger("choice.i18n")


def language_from_env(value: str | None) -> str | None:
    """`CHOICE_LANG`: en or zh; anything else logs one warning and means English."""
    if not value:
        return None
    if value in SUPPORTED:
        return value
    log.warning("CHOICE_LANG=%r is not supported (use en or zh); using en", value)
    return "en"


def resolve_language(request_language: str | None, saved: str | None, env: str | None) -> str:
    for candidate in (request_language, saved, env):
        if candidate in SUPPORTED:
            return candidate
    return "en"


@cache
def translator(language: str) -> Callable[[str], str]:
    """The gettext function for `language` (English text is the message id)."""
    return gettext.NullTranslations().gettext
