"""The tab bar above several questions: a chip per question (its header, or `Q<n>`) and
one for the review, the current one marked, answered ones with `✓`; laid out to fit a
width in cells, scrolled around the current chip (`‹` and `›` say more lies that way)
when they do not all fit. It never wraps and never needs more than the width.

Pure layout: segments of text with a kind; `questions_screen.py` gives them attributes.
Headers arrive made safe (`questions.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from choice.terminal.text import clip, width

Kind = Literal["current", "done", "todo", "more", "gap"]
DONE_MARK = "✓ "
MORE_LEFT, MORE_RIGHT = "‹ ", " ›"
GAP = " "


@dataclass(frozen=True)
class Tab:
    label: str
    done: bool = False


def chip(tab: Tab) -> str:
    return f" {DONE_MARK if tab.done else ''}{tab.label} "


def tab_bar(tabs: list[Tab], current: int, cells: int) -> list[tuple[str, Kind]]:
    """The segments to draw, left to right; their widths add up to at most `cells`."""
    chips = [chip(tab) for tab in tabs]
    lo, hi = _window(chips, current, cells)
    out: list[tuple[str, Kind]] = []
    if lo > 0:
        out.append((MORE_LEFT, "more"))
    room = cells - (width(MORE_LEFT) if lo > 0 else 0) - (
        width(MORE_RIGHT) if hi < len(chips) - 1 else 0)
    for index in range(lo, hi + 1):
        if index > lo:
            out.append((GAP, "gap"))
        kind: Kind = "current" if index == current else "done" if tabs[index].done else "todo"
        out.append((clip(chips[index], max(1, room)), kind))  # one chip wider than all: cut
    if hi < len(chips) - 1:
        out.append((MORE_RIGHT, "more"))
    return out


def _span(chips: list[str], lo: int, hi: int) -> int:
    return sum(width(text) for text in chips[lo:hi + 1]) + (hi - lo) * width(GAP)


def _window(chips: list[str], current: int, cells: int) -> tuple[int, int]:
    """The chips shown: all when they fit; else the current one and as many neighbours
    as fit beside it (the next ones first: that is where the human is going)."""
    last = len(chips) - 1
    if _span(chips, 0, last) <= cells:
        return 0, last

    def fits(lo: int, hi: int) -> bool:
        markers = (width(MORE_LEFT) if lo > 0 else 0) + (width(MORE_RIGHT) if hi < last else 0)
        return _span(chips, lo, hi) + markers <= cells

    lo = hi = current
    grown = True
    while grown:
        grown = False
        if hi < last and fits(lo, hi + 1):
            hi, grown = hi + 1, True
        if lo > 0 and fits(lo - 1, hi):
            lo, grown = lo - 1, True
    return lo, hi
