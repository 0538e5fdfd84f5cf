"""The catalogs: extraction matches the code, and Chinese is complete and well-formed."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
METHODS = [("choice/**.py", "python"), ("templates/**.html", "jinja2")]
OPTIONS = {"templates/**.html": {"extensions": "jinja2.ext.i18n"}}
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}


def extracted_ids() -> set[str]:
    found = extract_from_dir(str(ROOT), METHODS, OPTIONS, KEYWORDS)
    ids = set()
    for _filename, _line, message, _comments, _context in found:
        ids.add(message if isinstance(message, str) else message[0])
    return ids


def catalog(path: Path) -> dict[str, str]:
    with path.open("rb") as handle:
        return {str(m.id): str(m.string or "") for m in read_po(handle) if m.id}


def test_the_template_is_up_to_date_with_the_code() -> None:
    template = set(catalog(ROOT / "locales" / "messages.pot"))
    code = extracted_ids()
    assert code - template == set(), "new strings: run scripts/extract-messages"
    assert template - code == set(), "stale strings: run scripts/extract-messages"


def test_every_chinese_string_is_translated() -> None:
    zh = catalog(ROOT / "locales" / "zh" / "LC_MESSAGES" / "messages.po")
    missing = sorted(msgid for msgid, msgstr in zh.items() if not msgstr.strip())
    assert missing == [], f"untranslated in locales/zh: {missing[:10]}"
    assert set(zh) == set(catalog(ROOT / "locales" / "messages.pot"))


def test_translations_keep_their_placeholders() -> None:
    zh = catalog(ROOT / "locales" / "zh" / "LC_MESSAGES" / "messages.po")
    for msgid, msgstr in zh.items():
        assert set(re.findall(r"\{(\w+)\}", msgid)) == set(re.findall(r"\{(\w+)\}", msgstr)), msgid
