"""The Markdown basics a model writes (bold, italic, inline code, lists, quotes, headings,
code blocks) made into styled lines for the terminal, or clean text for plain lines: no
raw `**` or backticks reach a person.

Parsed by markdown-it, the parser the web pages render with (same preset: CommonMark,
raw HTML and images off), so both read a text alike. Each piece of text it yields passes
through `safe_text` again: the parser decodes entities (`&#27;` is an escape), and what it
decodes must not reach the terminal either. Styles are flags (`BOLD`, `ITALIC`, `CODE`);
`screens/` turns them into curses attributes. No curses here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from choice.terminal.text import cell_width, pieces, safe_text, width

BOLD, ITALIC, CODE = 1, 2, 4
Span = tuple[str, int]
"""A run of text and its style flags."""
Line = tuple[Span, ...]

_markdown = MarkdownIt("commonmark", {"html": False, "linkify": False}).disable("image")
_SPACES = re.compile(r"(\s+)")


@dataclass(frozen=True)
class Block:
    first: str
    """What goes before its first line: a list marker (`• `, `2. `), a quote bar, an indent."""
    rest: str
    """What goes before the lines it wraps to (as wide as `first`)."""
    spans: tuple[Span, ...]
    verbatim: bool = False
    """A line of a code block: every space kept (a diff's `-    s = 0`), cut only where it
    is wider than the screen."""


def _safe(text: str) -> str:
    return safe_text(text, keep_newlines=False)


def _inline(children: list[Token], base: int) -> list[Span]:
    spans: list[Span] = []
    style, links = base, []
    for token in children:
        kind = token.type
        if kind == "text" or kind == "html_inline":
            spans.append((_safe(token.content), style))
        elif kind == "code_inline":
            spans.append((_safe(token.content), style | CODE))
        elif kind == "softbreak":
            spans.append((" ", style))
        elif kind == "hardbreak":
            spans.append(("\n", style))
        elif kind in ("strong_open", "strong_close"):
            style ^= BOLD
        elif kind in ("em_open", "em_close"):
            style ^= ITALIC
        elif kind == "link_open":
            links.append((str(token.attrGet("href") or ""), len(spans)))
        elif kind == "link_close" and links:
            href, start = links.pop()
            said = "".join(text for text, _style in spans[start:])
            if href and href != said:  # the address, so a person can see where it goes
                spans.append((f" <{_safe(href)}>", style))
    return [span for span in spans if span[0]]


@lru_cache(maxsize=512)
def blocks(text: str) -> tuple[Block, ...]:
    """The text's blocks in order, an empty block between paragraphs. Cached: the screen
    lays out the same prompt on every redraw."""
    out: list[Block] = []
    lists: list[list[int]] = []  # per open list: [0] bullet, or [1, next number]
    quotes, marker, heading = 0, "", False
    tokens = _markdown.parse(text)
    for index, token in enumerate(tokens):
        kind = token.type
        bar = "│ " * quotes
        indent = "  " * max(0, len(lists) - 1)
        if kind == "bullet_list_open":
            lists.append([0])
        elif kind == "ordered_list_open":
            lists.append([1, int(str(token.attrGet("start") or 1))])
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
            if not lists:
                out.append(Block("", "", ()))
        elif kind == "list_item_open" and lists:
            current = lists[-1]
            marker = "• " if current[0] == 0 else f"{current[1]}. "
            if current[0] == 1:
                current[1] += 1
        elif kind == "blockquote_open":
            quotes += 1
        elif kind == "blockquote_close":
            quotes -= 1
        elif kind == "heading_open":
            heading = True
        elif kind == "inline":
            lead = bar + indent
            first, rest = (lead + marker, lead + " " * width(marker)) if marker else (
                (lead + "  ", lead + "  ") if lists else (lead, lead))
            marker = ""
            out.append(Block(first, rest, tuple(_inline(token.children or [],
                                                        BOLD if heading else 0))))
            heading = False
            closing = tokens[index + 1] if index + 1 < len(tokens) else None
            if closing is not None and not closing.hidden and not lists:
                out.append(Block("", "", ()))  # a paragraph or a heading ends
        elif kind in ("fence", "code_block"):
            for line in token.content.rstrip("\n").split("\n"):
                out.append(Block(bar + indent + "  ", bar + indent + "  ",
                                 ((_safe(line.expandtabs(4)), CODE),) if line else (),
                                 verbatim=True))
            out.append(Block("", "", ()))
        elif kind == "hr":
            out += [Block(bar, bar, (("───", 0),)), Block("", "", ())]
    while out and not out[-1].spans and not out[-1].first.strip():
        out.pop()
    return tuple(out)


def styled_lines(text: str, cells: int) -> list[Line]:
    """The text as lines of styled spans, each at most `cells` wide (a word wider than a
    line breaks anywhere, as `text.wrap` does)."""
    lines: list[Line] = []
    for block in blocks(text):
        lines += _wrap_block(block, max(4, cells))
    return lines


def _narrowed(prefix: str, cells: int) -> str:
    """A prefix (deep quotes and lists) takes at most half the line: the text keeps room."""
    most = cells // 2
    return prefix if width(prefix) <= most else prefix[len(prefix) - most:] if most else ""


def _wrap_block(block: Block, cells: int) -> list[Line]:
    block = Block(_narrowed(block.first, cells), _narrowed(block.rest, cells), block.spans,
                  block.verbatim)
    if not block.spans:
        return [((block.first.rstrip(), 0),)] if block.first.strip() else [()]
    if block.verbatim:
        return _cut_block(block, cells)
    lines: list[Line] = []
    line: list[Span] = [(block.first, 0)] if block.first else []
    used = width(block.first)

    def end_line() -> None:
        nonlocal line, used
        while line and line[-1][0].isspace() and len(line) > 1:
            line.pop()
        lines.append(tuple(line))
        line = [(block.rest, 0)] if block.rest else []
        used = width(block.rest)

    room = cells
    for text, style in block.spans:
        if text == "\n":
            end_line()
            continue
        for word in _SPACES.split(text):
            if not word:
                continue
            w = width(word)
            if word.isspace():
                if used > width(block.rest) and used + w <= room:
                    line.append((" ", style))
                    used += 1
                continue
            if used + w > room and used > width(block.rest):
                end_line()
            if w > room - used:
                *full, last = pieces(word, max(1, room - used))
                for piece in full:
                    line.append((piece, style))
                    end_line()
                word, w = last, sum(cell_width(char) for char in last)
            line.append((word, style))
            used += w
    end_line()
    return lines


def _cut_block(block: Block, cells: int) -> list[Line]:
    """A code line as written, spaces and all, cut into pieces that fit (a long line goes
    on under the same indent rather than losing its end)."""
    lines: list[Line] = []
    for text, style in block.spans:
        room = max(1, cells - width(block.first))
        for index, piece in enumerate(pieces(text, room)):
            lead = block.first if index == 0 else block.rest
            lines.append(((lead, 0), (piece, style)) if lead else ((piece, style),))
    return lines


@lru_cache(maxsize=256)
def inline_spans(text: str) -> Line:
    """One line's inline Markdown only (a title: `Use `uv` here?`), never lists or
    headings: a title that starts with `1.` or `#` stays as written."""
    tokens = _markdown.parseInline(text)
    return tuple(_inline(tokens[0].children or [], 0)) if tokens else ((_safe(text), 0),)


def clip_spans(spans: Line, cells: int) -> Line:
    """The longest start of `spans` that fits in `cells`, with `…` when something was cut."""
    if sum(width(text) for text, _style in spans) <= cells:
        return spans
    out: list[Span] = []
    used = 0
    for text, style in spans:
        kept: list[str] = []
        for char in text:
            if used + cell_width(char) > cells - 1:
                return (*out, ("".join(kept), style), ("…", 0))
            kept.append(char)
            used += cell_width(char)
        out.append((text, style))
    return tuple(out)


def plain(text: str, *, one_line: bool = False) -> str:
    """The text with the Markdown marks taken off (for plain lines): list markers kept,
    emphasis and code as plain words. `one_line`: blocks joined with spaces."""
    rows = [block.first + "".join(text for text, _style in block.spans)
            for block in blocks(text)]
    if one_line:
        return " ".join(row.strip() for row in rows if row.strip()).replace("\n", " ")
    return "\n".join(row.rstrip() for row in rows)
