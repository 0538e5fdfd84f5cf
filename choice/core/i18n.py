"""Languages: which one applies, and the gettext and ngettext functions for it.

Resolution order: the request's `language` > the saved preference > `CHOICE_LANG` > the
browser's `Accept-Language` (a page's, read by the web layer) > English.
Catalogs are the `.po` files under `locales/`, read once per language at first use and
turned into `babel.support.Translations` in memory (no compile step, nothing generated to
forget). English text is the message id, so English needs no translations and an
untranslated string shows in English. Text with a count goes through `ngettext`, whose
plural forms come from the catalog's `Plural-Forms` header (English has two, Chinese one).
Babel is imported only when a catalog is first read: `choice mcp` and `choice ask` import
this module and must start fast. It reads catalogs; it must not know about pages,
terminals or HTTP.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from typing import TYPE_CHECKING

from choice.core.resources import RESOURCES, MissingResource

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog as PoFile
    from babel.support import Translations

SUPPORTED = ("en", "zh")
SOURCE_LANGUAGE = "en"
"""The messages are written in it: its catalog holds no translation (a test keeps it so),
so its translator answers without reading one (`choice hook` starts sooner)."""
SOURCE_PLURALS = ("(n != 1)", 2)
"""Its `Plural-Forms` (expression, count), as its catalog's header says (a test holds them
equal): an English page's scripts get them without Babel (time and memory at the first
page)."""
log = logging.getLogger("choice.core.i18n")


def N_(message: str) -> str:
    """Mark a string for extraction where it is defined; translate it where it is shown."""
    return message


@dataclass(frozen=True, eq=False)
class Catalog:
    """One language's `.po` file, read into `Translations` and what the browser needs."""

    language: str
    translations: Translations
    plural_expression: str
    """The C expression of the `Plural-Forms` header (`(n != 1)`, `0`), for the scripts."""
    plural_count: int
    plurals: dict[str, tuple[str, ...]]
    """Singular msgid -> every translated plural form (complete entries only)."""


@dataclass(frozen=True)
class Translator:
    """`_` for one language: call it (gettext), or `ngettext` for text with a count.

    Both return the catalog's text unformatted: the caller fills `{n}` and the other
    placeholders with `str.format`, as everywhere else. The catalog is read at the first
    lookup, so holding a translator costs nothing until it speaks.
    """

    language: str

    def __call__(self, message: str) -> str:
        if self.language == SOURCE_LANGUAGE:
            return message  # the message ids are English: no catalog, no babel to load
        return catalog(self.language).translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if self.language == SOURCE_LANGUAGE:
            return singular if n == 1 else plural
        return catalog(self.language).translations.ngettext(singular, plural, n)


@dataclass(frozen=True)
class PluralRule:
    """What a page's scripts need to pick a plural form: the `Plural-Forms` expression and
    count, and the translated forms of each message with a count."""

    expression: str
    count: int
    forms: dict[str, tuple[str, ...]]


def plural_rule(language: str) -> PluralRule:
    if language == SOURCE_LANGUAGE:
        return PluralRule(*SOURCE_PLURALS, {})  # untranslated: the English pairs themselves
    read = catalog(language)
    return PluralRule(read.plural_expression, read.plural_count, read.plurals)


def language_from_env(value: str | None) -> str | None:
    """`CHOICE_LANG`: en or zh; anything else logs one warning and means English."""
    if not value:
        return None
    if value in SUPPORTED:
        return value
    log.warning("CHOICE_LANG=%r is not supported (use en or zh); using en", value)
    return "en"


def resolve_language(request_language: str | None, saved: str | None, env: str | None,
                     browser: str | None = None) -> str:
    for candidate in (request_language, saved, env, browser):
        if candidate in SUPPORTED:
            return candidate
    return "en"


@cache
def catalog(language: str) -> Catalog:
    """`language`'s catalog, read from its `.po` file; `MissingResource` names the path."""
    from babel.messages.pofile import read_po

    path = RESOURCES.catalog(language)
    try:
        with path.open("rb") as handle:
            parsed = read_po(handle, locale=language)
    except OSError as error:
        raise MissingResource(f"cannot read the {language} catalog {path}: {error.strerror}. "
                              "Reinstall the package.") from error
    return Catalog(language, _translations(parsed), parsed.plural_expr, parsed.num_plurals,
                   _complete_plurals(parsed))


def _translations(parsed: PoFile) -> Translations:
    """The same bytes `pybabel compile` would write, built in memory and never saved."""
    from babel.messages.mofile import write_mo
    from babel.support import Translations

    for message in list(parsed):
        # write_mo keeps a plural entry whose forms are empty strings (the English catalog
        # holds only such entries), and gettext would then show "": drop it, so the lookup
        # falls back to the English message id as for any untranslated string.
        if message.id and isinstance(message.string, tuple) and not all(message.string):
            parsed.delete(message.id, message.context)
    buffer = BytesIO()
    write_mo(buffer, parsed)
    buffer.seek(0)
    return Translations(fp=buffer)


def _complete_plurals(parsed: PoFile) -> dict[str, tuple[str, ...]]:
    return {str(m.id[0]): tuple(str(form) for form in m.string) for m in parsed
            if isinstance(m.id, tuple) and isinstance(m.string, tuple) and all(m.string)
            and not m.fuzzy}


@cache
def translator(language: str) -> Translator:
    """The translator for `language`; an unsupported language gets English."""
    return Translator(language if language in SUPPORTED else "en")
