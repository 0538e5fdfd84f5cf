"""Language resolution and lookups: request > saved > CHOICE_LANG > English."""

from __future__ import annotations

import logging

import pytest

from choice.i18n import language_from_env, resolve_language, translator


def test_the_request_language_wins() -> None:
    assert resolve_language("zh", "en", "en") == "zh"


def test_then_the_saved_preference_then_the_environment() -> None:
    assert resolve_language(None, "zh", "en") == "zh"
    assert resolve_language(None, None, "zh") == "zh"
    assert resolve_language(None, None, None) == "en"


def test_an_unsupported_choice_lang_warns_once_and_means_english(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="choice.i18n"):
        assert language_from_env("fr") == "en"
    assert len(caplog.records) == 1 and "fr" in caplog.records[0].getMessage()


def test_chinese_translates_and_unknown_strings_stay_english() -> None:
    _ = translator("zh")
    assert _("Settings") != "Settings"
    assert _("a string nobody translated") == "a string nobody translated"
    assert translator("en")("Settings") == "Settings"
