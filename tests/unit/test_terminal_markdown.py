"""choice/terminal/markdown.py: a model's Markdown as styled lines for curses and clean
text for plain lines; what the parser decodes is made safe again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from choice.terminal.markdown import BOLD, CODE, ITALIC, plain, styled_lines
from choice.terminal.text import width

TEXT = """Fits the **3-replica** deployment: run `make up`, *then* wait.

- one
- two
  1. nested

> a quote"""


def words(line: tuple[tuple[str, int], ...]) -> str:
    return "".join(text for text, _style in line)


def test_emphasis_and_code_become_styles_and_their_marks_go() -> None:
    first, second, *_rest = styled_lines(TEXT, 80)
    assert words(first) == "Fits the 3-replica deployment: run make up, then wait."
    styles = dict((text, style) for text, style in first if text.strip())
    assert styles["3-replica"] == BOLD and styles["make"] == CODE and styles["then"] == ITALIC
    assert second == ()  # the paragraph ends with a blank line


def test_lists_and_quotes_keep_their_shape_in_plain_text() -> None:
    assert plain(TEXT).split("\n")[2:] == ["• one", "• two", "  1. nested", "", "│ a quote"]
    assert plain("Fits the **3-replica** deployment\n\nreally", one_line=True) == \
        "Fits the 3-replica deployment really"


def test_a_decoded_entity_is_made_safe_again() -> None:
    shown = plain("red &#x1b;[31m and &#x202e;reversed and `\x1b[2J`")
    assert "\x1b" not in shown and "\u202e" not in shown


def test_a_wrapped_list_item_keeps_its_indent() -> None:
    lines = [words(line) for line in styled_lines("- " + "word " * 12, 20)]
    assert lines[0].startswith("• word") and all(line.startswith("  ") for line in lines[1:])


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab *_`-#>1.\n 宽"), max_size=80),
       st.integers(min_value=4, max_value=40))
def test_styled_lines_always_fit(text: str, cells: int) -> None:
    for line in styled_lines(text, cells):
        assert width(words(line)) <= cells


def test_a_code_block_keeps_every_space_and_cuts_only_a_line_wider_than_the_screen() -> None:
    diff = "```diff\n def total(xs):\n-    s = 0\n+    return sum(xs)  # " + "x" * 30 + "\n```"
    lines = [words(line) for line in styled_lines(diff, 30)]
    assert lines == ["   def total(xs):", "  -    s = 0", "  +    return sum(xs)  # xxxxx",
                     "  " + "x" * 25]
    assert all(width(line) <= 30 for line in lines)
    assert plain(diff).split("\n")[:2] == ["   def total(xs):", "  -    s = 0"]
