"""choice/terminal/text.py: model text made safe for a terminal and measured in cells (and
the screen's pure helper: the countdown; the key hints are `test_terminal_key_table.py`)."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choice.terminal.screens import screen
from choice.terminal.screens.screen import remaining
from choice.terminal.text import clip, json_for_terminal, safe_text, width, wrap

PROPERTY = settings(max_examples=300, deadline=None)


# -- safe_text -----------------------------------------------------------------------------------
def test_escape_sequences_become_one_visible_mark_each() -> None:
    assert safe_text("a\x1b[2Jb\x1b[31mc\x1b[0m") == "a␛b␛c␛"
    assert safe_text("\x1b[38;5;196mred") == "␛red"


def test_a_title_change_sequence_goes_with_its_payload() -> None:
    assert safe_text("x\x1b]0;pwned\x07y") == "x␛y"
    assert safe_text("x\x1b]2;pwned\x1b\\y") == "x␛y"
    assert safe_text("x\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\") == "x␛link␛"


def test_a_lone_escape_and_other_controls_become_visible() -> None:
    assert safe_text("a\x1bMb") == "a␛b"  # ESC M (reverse index) goes whole
    assert safe_text("a\x1bb") == "a␛b" and safe_text("end\x1b") == "end␛"
    assert safe_text("a\x00b\x07c\x08d\x7fe") == "a?b?c?d?e"
    assert safe_text("8-bit \x9b31m csi") == "8-bit ?31m csi"


def test_bidi_overrides_and_isolates_are_dropped() -> None:
    assert safe_text("abc\u202eexe.txt") == "abcexe.txt"
    assert safe_text("\u2066a\u2067b\u2068c\u2069\u200e\u200f\u061c") == "abc"


def test_newlines_are_kept_or_flattened_and_tabs_become_spaces() -> None:
    assert safe_text("a\r\nb\u2028c\td") == "a\nb\nc    d"
    assert safe_text("a\nb\r\nc", keep_newlines=False) == "a b c"
    assert safe_text("carriage\rreturn") == "carriage?return"


def test_ordinary_text_in_any_script_is_untouched() -> None:
    for text in ("PostgreSQL — robust", "数据库选择", "café", "مرحبا", "emoji 🚀", "a » b"):
        assert safe_text(text) == text


@PROPERTY
@given(st.text())
def test_safe_text_never_lets_a_control_or_format_character_through(text: str) -> None:
    for char in safe_text(text):
        assert char == "\n" or unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co", "Cn")


@PROPERTY
@given(st.text())
def test_safe_text_is_idempotent(text: str) -> None:
    once = safe_text(text)
    assert safe_text(once) == once


# -- widths, clip and wrap ---------------------------------------------------------------------------
def test_east_asian_wide_characters_take_two_cells_and_combining_marks_none() -> None:
    assert width("abc") == 3
    assert width("数据库") == 6
    assert width("ｆｕｌｌ") == 8
    assert width("e\u0301") == 1


def test_clip_keeps_what_fits_and_marks_the_cut() -> None:
    assert clip("SQLite", 6) == "SQLite"
    assert clip("PostgreSQL", 6) == "Postg…"
    assert clip("数据库选择", 6) == "数据…"  # never half a wide character
    assert clip("数据库选择", 5) == "数据…"
    assert clip("ab", 0) == "…" and width(clip("数据库", 1)) == 1


def test_wrap_breaks_between_words() -> None:
    assert wrap("the quick brown fox jumps", 10) == ["the quick", "brown fox", "jumps"]


def test_wrap_keeps_paragraphs_and_blank_lines() -> None:
    assert wrap("one\n\ntwo three", 20) == ["one", "", "two three"]


def test_wrap_breaks_long_words_and_cjk_runs_by_cells() -> None:
    assert wrap("abcdefghij", 4) == ["abcd", "efgh", "ij"]
    assert wrap("数据库选择很重要", 5) == ["数据", "库选", "择很", "重要"]
    assert wrap("选择 PostgreSQL 还是 SQLite", 12) == ["选择", "PostgreSQL", "还是 SQLite"]


def test_closing_punctuation_never_starts_a_line_it_takes_a_character_along() -> None:
    assert wrap("取消这个问题（可以说明原因）。", 28) == ["取消这个问题（可以说明原", "因）。"]
    assert wrap("一二三四。", 8) == ["一二三", "四。"]
    assert all(width(line) <= 4 for line in wrap("a。。。。。。。", 4))  # too long a run: cut


@PROPERTY
@given(st.text(alphabet=st.sampled_from("ab 数据\nxyé"), max_size=80),
       st.integers(min_value=2, max_value=30))
def test_wrapped_lines_always_fit(text: str, cells: int) -> None:
    lines = wrap(text, cells)
    assert all(width(line) <= cells for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "").replace("\n", "")


# -- the screen's pure helpers ------------------------------------------------------------------
def test_the_countdown_reads_minutes_or_hours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(screen, "now", lambda: 1000.0)
    assert remaining(1000.0 + 299.6) == "5:00"
    assert remaining(1000.0 + 59) == "0:59"
    assert remaining(1000.0 + 7200) == "2:00:00"
    assert remaining(1000.0 + 3723) == "1:02:03"
    assert remaining(990.0) == "0:00"  # past the deadline: zero, not negative


@PROPERTY
@given(st.recursive(st.text() | st.integers() | st.none(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=8))
def test_json_for_terminal_is_the_same_json_with_nothing_a_terminal_acts_on(value: object) -> None:
    printed = json_for_terminal(value)
    assert json.loads(printed) == value
    active = {chr(code) for code in [*range(0x00, 0x0A), *range(0x0B, 0x20), *range(0x7F, 0xA0)]}
    active |= set("\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    assert active.isdisjoint(printed)
