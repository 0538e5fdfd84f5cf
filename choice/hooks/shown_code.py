"""Agent-supplied text placed in a hook question's Markdown so that it can never leave its
place: a value (a directory, a path, a session, a rule, a mode) in a code span on one line,
a command or a diff in a fenced block, with every line there and no run of blank space
long enough to push the rest out of sight.

The portal renders a question's prompt and an option's description as CommonMark (the page
and the terminal alike), so a line break inside a code span would end it and let the text
after it be a heading, bold or a link; a backtick run as long as the span's own would close
it. Here a value with a line break or another control character is shown as a quoted
string with the character escaped (`"/srv/app\\n# Approved"`), and a span or a fence is
always longer than any backtick run inside it. Nothing here translates: the words around
these pieces are `questions.py`'s.
"""

from __future__ import annotations

import json
import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")
_UNESCAPED_BY_JSON = {"\x7f": "\\u007f", "\x85": "\\u0085", "\u2028": "\\u2028",
                      "\u2029": "\\u2029"}
BLANK_RUN_MAX = 32
"""A run of blank characters inside a line longer than this is shown as a mark with its
length (`[␣×30000]`): a command cannot hide its end behind a screen of spaces."""
BLANK_LINES_MAX = 3
"""More blank lines in a row than this are shown as one mark with their count (`[↵×997]`)."""
_BLANK_RUN = re.compile(rf"[^\S\n]{{{BLANK_RUN_MAX + 1},}}")
_BLANK_LINES = re.compile(rf"\n(?:[^\S\n]*\n){{{BLANK_LINES_MAX + 1},}}")


def one_line(text: str) -> str:
    """`text` as it is, or, when it holds a line break or another control character, as a
    JSON string: quoted, with each such character escaped, so all of it shows on one line
    and nothing after a line break can become Markdown of its own."""
    if not _CONTROL.search(text):
        return text
    quoted = json.dumps(text, ensure_ascii=False)
    for char, escaped in _UNESCAPED_BY_JSON.items():
        quoted = quoted.replace(char, escaped)
    return quoted


def code_span(text: str) -> str:
    """`text` (on one line, `one_line`) as inline code no backtick inside can close."""
    shown = one_line(text)
    longest = max((len(run) for run in re.findall(r"`+", shown)), default=0)
    ticks = "`" * (longest + 1)
    # CommonMark takes one space off each end of a span: pad, so an edge space or backtick stays
    pad = " " if shown[:1] in ("`", " ") or shown[-1:] in ("`", " ") else ""
    return f"{ticks}{pad}{shown}{pad}{ticks}"


def fenced(text: str, language: str) -> str:
    """`text` in a code block whose fence is longer than any backtick run inside it, so no
    line of it can close the block."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def with_blank_runs_marked(text: str) -> tuple[str, bool]:
    """`text` with each long run of blank characters in a line shown as `[␣×n]` and each
    long run of blank lines as one line `[↵×n]`; and whether any was marked."""
    marked = _BLANK_RUN.sub(lambda run: f"[␣×{len(run.group())}]", text)
    marked = _BLANK_LINES.sub(lambda run: f"\n[↵×{run.group().count(chr(10)) - 1}]\n", marked)
    return marked, marked != text


def line_count(text: str) -> int:
    return len(text.splitlines()) or 1
