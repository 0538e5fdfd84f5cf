"""Languages: which one applies, and the gettext function for it.

Resolution order: the request's `language` > the saved preference > `CHOICE_LANG` > English.
Catalogs are the `.po` files under `locales/`, read once per language at first use (no
compile step, nothing generated to forget); English text is the message id, so English
needs no translations and an untranslated string shows in English.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache

from choice.resources import RESOURCES, MissingResource

SUPPORTED = ("en", "zh")
log = logging.getLogger("choice.i18n")


def N_(message: str) -> str:
    """Mark a string for extraction where it is defined; translate it where it is shown."""
    return message


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
def catalog(language: str) -> dict[str, str]:
    """msgid -> translation for `language` (empty translations are left out)."""
    if language == "en":
        return {}
    from babel.messages.pofile import read_po

    path = RESOURCES.catalog(language)
    try:
        with path.open("rb") as handle:
            parsed = read_po(handle, locale=language)
    except OSError as error:
        raise MissingResource(f"cannot read the {language} catalog {path}: {error.strerror}. "
                              "Reinstall the package.") from error
    return {str(m.id): str(m.string) for m in parsed if m.id and isinstance(m.string, str)
            and m.string}


@cache
def translator(language: str) -> Callable[[str], str]:
    """The gettext function for `language` (English text is the message id)."""
    messages = catalog(language if language in SUPPORTED else "en")
    return lambda message: messages.get(message, message)
