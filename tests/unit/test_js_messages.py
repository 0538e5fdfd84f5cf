"""choice/web/views/js_messages.py: the scripts' messages come from their sources, found by a
pattern that finds what Babel's JavaScript extractor (and so `pybabel extract`) finds, and
are translated per language."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import extract

from choice.core.resources import RESOURCES, MissingResource
from choice.web.views.js_messages import JS_KEYWORDS, js_catalog, js_messages


def test_every_literal_lookup_is_found_once_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text(
        'P.t("Open"); P.t("Open"); P.nt("{n} cat", "{n} cats", n, { x: 1 });\n'
        'P.t(variable); t("not ours"); P.setText(el, "not a message");\n'
        '/* P.t("in a comment") */ // P.t("nor here")\n'
        'P.t("say \\"hi\\"\\u00e9"); var u = "http://x"; // P.t("after code")\n', encoding="utf-8")
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "b.js").write_text('P.t("Choice portal");\n', encoding="utf-8")
    assert js_messages(tmp_path) == ("Open", ("{n} cat", "{n} cats"), 'say "hi"é',
                                     "Choice portal")


def babel_messages(folder: Path) -> tuple[object, ...]:
    found: dict[object, None] = {}
    for path in sorted(folder.rglob("*.js")):
        with path.open("rb") as source:
            for _line, message, _comments, _context in extract("javascript", source,
                                                                keywords=JS_KEYWORDS):
                found.setdefault(message if isinstance(message, str) else tuple(message[:2]))
    return tuple(found)


def test_the_pattern_finds_what_babel_finds_in_the_real_scripts() -> None:
    assert js_messages() == babel_messages(RESOURCES.static / "js")


def test_an_unreadable_script_is_an_error_naming_it(tmp_path: Path) -> None:
    script = tmp_path / "broken.js"
    script.symlink_to(tmp_path / "gone.js")
    with pytest.raises(MissingResource, match=r"broken\.js"):
        js_messages(tmp_path)


def test_the_real_scripts_messages_include_both_kinds() -> None:
    found = js_messages()
    assert "Choose an option or write an answer" in found
    assert ("{n} minute left", "{n} minutes left") in found


def test_the_catalog_translates_each_message_and_each_plural_form() -> None:
    english, chinese = js_catalog("en"), js_catalog("zh")
    assert english["messages"]["Open"] == "Open" and chinese["messages"]["Open"] != "Open"
    assert english["messages"]["{n} minute left"] == ["{n} minute left", "{n} minutes left"]
    assert chinese["messages"]["{n} minute left"] == ["还剩 {n} 分钟"]


def test_an_english_pages_messages_need_no_babel() -> None:
    probe = ("import sys; from choice.web.views.js_messages import js_catalog; "
             "shown = js_catalog('en'); "
             "print(shown['plural'], shown['nplurals'], "
             "any(m.startswith('babel') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()
    assert out == ["(n", "!=", "1)", "2", "False"]
