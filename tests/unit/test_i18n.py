"""Language resolution and lookups: request > saved > CHOICE_LANG > English; counts take
the plural form the catalog's Plural-Forms header picks."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from choice.core import i18n
from choice.core.i18n import language_from_env, resolve_language, translator
from choice.core.resources import MissingResource, Resources


def test_the_request_language_wins() -> None:
    assert resolve_language("zh", "en", "en") == "zh"


def test_then_the_saved_preference_then_the_environment() -> None:
    assert resolve_language(None, "zh", "en") == "zh"
    assert resolve_language(None, None, "zh") == "zh"
    assert resolve_language(None, None, None) == "en"


def test_an_unsupported_choice_lang_warns_once_and_means_english(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="choice.core.i18n"):
        assert language_from_env("fr") == "en"
    assert len(caplog.records) == 1 and "fr" in caplog.records[0].getMessage()


def test_chinese_translates_and_unknown_strings_stay_english() -> None:
    _ = translator("zh")
    assert _("Settings") != "Settings"
    assert _("a string nobody translated") == "a string nobody translated"
    assert translator("en")("Settings") == "Settings"


def test_english_counts_take_the_singular_for_one_only() -> None:
    english = translator("en")
    assert english.ngettext("{n} minute left", "{n} minutes left", 1) == "{n} minute left"
    assert english.ngettext("{n} minute left", "{n} minutes left", 3) == "{n} minutes left"
    assert english.ngettext("{n} minute left", "{n} minutes left", 0) == "{n} minutes left"


def test_chinese_has_one_form_for_every_count() -> None:
    chinese = translator("zh")
    assert i18n.catalog("zh").plural_count == 1
    one, three = (chinese.ngettext("{n} minute left", "{n} minutes left", n) for n in (1, 3))
    assert one == three == "还剩 {n} 分钟"


def test_the_plural_rule_is_the_catalogs_plural_forms_header(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A made-up rule that no language has (CLDR could not have supplied it): form 0 up to 5.
    po = tmp_path / "locales" / "zh" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Language: zh\\n"\n'
                  '"Plural-Forms: nplurals=2; plural=(n > 5);\\n"\n'
                  '"Content-Type: text/plain; charset=utf-8\\n"\n\n'
                  'msgid "{n} apple"\nmsgid_plural "{n} apples"\n'
                  'msgstr[0] "few {n}"\nmsgstr[1] "many {n}"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "RESOURCES", Resources(tmp_path))
    i18n.catalog.cache_clear()
    try:
        assert i18n.catalog("zh").plural_expression == "(n > 5)"
        assert i18n.catalog("zh").plurals == {"{n} apple": ("few {n}", "many {n}")}
        assert [translator("zh").ngettext("{n} apple", "{n} apples", n) for n in (1, 5, 6)] == [
            "few {n}", "few {n}", "many {n}"]
    finally:
        i18n.catalog.cache_clear()


def test_a_missing_catalog_is_an_error_naming_its_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "RESOURCES", Resources(tmp_path))
    i18n.catalog.cache_clear()
    try:
        with pytest.raises(MissingResource) as raised:
            i18n.catalog("zh")
        assert str(tmp_path / "locales" / "zh" / "LC_MESSAGES" / "messages.po") in str(raised.value)
    finally:
        i18n.catalog.cache_clear()
