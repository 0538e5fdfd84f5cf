"""The catalogs: extraction (by babel.cfg, JS included) matches the code, and Chinese is
complete and well-formed, plural forms included."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from choice.core.i18n import SOURCE_PLURALS, catalog, plural_rule, translator
from choice.web.views.js_messages import JS_KEYWORDS

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "locales" / "messages.pot"
ZH = ROOT / "locales" / "zh" / "LC_MESSAGES" / "messages.po"


def extraction_config() -> tuple[list[tuple[str, str]], dict[str, dict[str, object]]]:
    with (ROOT / "babel.cfg").open() as config:
        return parse_mapping_cfg(config, "babel.cfg")


def extracted() -> dict[str, str | None]:
    """msgid -> msgid_plural (None for a message without a count), as pybabel finds them."""
    methods, options = extraction_config()
    found = extract_from_dir(str(ROOT), methods, options, {**DEFAULT_KEYWORDS, "N_": None})
    ids: dict[str, str | None] = {}
    for _filename, _line, message, _comments, _context in found:
        if isinstance(message, str):
            ids[message] = None
        else:
            ids[str(message[0])] = str(message[1])
    return ids


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def ids(catalog: Catalog) -> dict[str, str | None]:
    return {str(m.id[0]) if m.pluralizable else str(m.id):
            str(m.id[1]) if m.pluralizable else None for m in catalog if m.id}


def forms(message: object) -> list[str]:
    string = getattr(message, "string", "")
    return [str(form or "") for form in string] if isinstance(string, tuple) else [str(string or "")]


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_the_template_is_up_to_date_with_the_code() -> None:
    template, code = ids(read(TEMPLATE)), extracted()
    assert code.keys() - template.keys() == set(), "new strings: run scripts/extract-messages"
    assert template.keys() - code.keys() == set(), "stale strings: run scripts/extract-messages"
    assert template == code, "a message's plural changed: run scripts/extract-messages"


def test_the_scripts_messages_are_extracted_with_the_keywords_the_portal_uses() -> None:
    methods, options = extraction_config()
    javascript = [pattern for pattern, method in methods if method == "javascript"]
    assert javascript == ["static/js/**.js"]
    assert options[javascript[0]]["keywords"] == JS_KEYWORDS


def test_every_chinese_string_is_translated() -> None:
    zh = read(ZH)
    missing = sorted(str(m.id) for m in zh if m.id and not all(f.strip() for f in forms(m)))
    assert missing == [], f"untranslated in locales/zh: {missing[:10]}"
    assert ids(zh) == ids(read(TEMPLATE))
    assert zh.num_plurals == 1 and all(len(forms(m)) == 1 for m in zh if m.id)


def test_translations_keep_their_placeholders() -> None:
    for message in read(ZH):
        if not message.id:
            continue
        if message.pluralizable:
            # Chinese has one form for every n: it carries every placeholder, {n} included.
            wanted = placeholders(str(message.id[1]))
        else:
            wanted = placeholders(str(message.id))
        for form in forms(message):
            assert placeholders(form) == wanted, message.id


def test_no_chinese_string_is_fuzzy() -> None:
    """gettext skips a fuzzy entry (what `pybabel update` makes of a changed message): the
    page would show the English, though the catalog looks filled in."""
    fuzzy = sorted(str(m.id) for m in read(ZH) if m.id and m.fuzzy)
    assert fuzzy == [], f"fuzzy in locales/zh (check the text, then drop the flag): {fuzzy[:10]}"


def test_the_english_catalog_translates_nothing_so_english_needs_no_catalog() -> None:
    """`Translator` answers English with the message ids themselves, without reading the
    catalog: a translation put there would never show."""
    english = read_po((ROOT / "locales/en/LC_MESSAGES/messages.po").open("rb"))
    translated = [m.id for m in english if m.id and any(
        (m.string,) if isinstance(m.string, str) else m.string)]
    assert translated == []
    assert translator("en")("Deny") == "Deny"
    assert translator("en").ngettext("{n} option", "{n} options", 1) == "{n} option"
    assert translator("en").ngettext("{n} option", "{n} options", 2) == "{n} options"


def test_the_english_plural_rule_is_the_catalogs_header_without_reading_it() -> None:
    """An English page's scripts get `SOURCE_PLURALS` without Babel: they must be what the
    English catalog's `Plural-Forms` says, and its plural forms add nothing."""
    english = read_po((ROOT / "locales/en/LC_MESSAGES/messages.po").open("rb"))
    assert (english.plural_expr, english.num_plurals) == SOURCE_PLURALS
    read_back = catalog("en")
    rule = plural_rule("en")
    assert (rule.expression, rule.count) == (read_back.plural_expression, read_back.plural_count)
    assert rule.forms == read_back.plurals == {}
