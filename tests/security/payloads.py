"""Hostile model text shared by the hostile-text suites: what a confused or compromised agent
could put in any field that reaches a page or a terminal, and how to pack it into fields with
length limits.

Every payload is wrapped in numbered markers (`⟦3 ... 3⟧`) so a test can find where it landed
on a page or a screen and check what stands between the markers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# -- the browser: markup, links and odd characters -----------------------------------------------
SCRIPT = "<script>window.__pwned=1</script>"
IMG = '"><img src=x onerror="window.__pwned=1">'
SVG = "<svg onload=alert(1)>"
QUOTE = "' autofocus onfocus='window.__pwned=1"
MD_LINK = "[click](javascript:window.__pwned=1)"
AUTOLINK = "<javascript:window.__pwned=1>"
DATA_LINK = "[data](data:text/html,<script>alert(1)</script>)"
TEMPLATE = "{{ 7*7 }}{% raw %}"
SEPARATORS = "line\u2028sep\u2029para"
RTL = "abc\u202edef"
NUL = "nul\x00byte"

BROWSER = [SCRIPT, IMG, SVG, QUOTE, MD_LINK, AUTOLINK, DATA_LINK, TEMPLATE, SEPARATORS, RTL, NUL]

# -- the terminal: escape sequences, C1 controls, bidi and other controls -------------------------
SGR_RED = "\x1b[31mred"
TITLE = "\x1b]0;PWNED\x07"
CLEAR = "\x1b[2J"
C1_CSI = "\x9b31mred"
C1_OSC = "\x9d0;PWNED\x9c"
HYPERLINK = "\x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\"
HOME = "\x1b[Hhome"
CARRIAGE = "cr\rback\x08"
PASSTHROUGH = "\x1bPtmux;\x1b\x1b]0;PWNED\x07\x1b\\"
BELL = "bell\x07"

TERMINAL = [SGR_RED, TITLE, CLEAR, C1_CSI, C1_OSC, HYPERLINK, HOME, CARRIAGE, PASSTHROUGH, BELL,
            SEPARATORS, RTL, NUL]

LONG = "x" * 100_000


@dataclass(frozen=True)
class Marked:
    """One payload between its markers."""

    number: int
    payload: str

    @property
    def text(self) -> str:
        return f"⟦{self.number} {self.payload} {self.number}⟧"

    def between(self, shown: str) -> str | None:
        """What `shown` (a page's text, a screen) has between this payload's markers, or None
        when the markers are not both there in order (a clipped copy has no closing one)."""
        found = re.search(self.pattern, shown)
        return None if found is None else found.group(1)

    def every_between(self, shown: str) -> list[str]:
        """What stands between this payload's markers, at every place it shows."""
        return re.findall(self.pattern, shown)

    @property
    def pattern(self) -> str:
        return f"⟦{self.number} ([^⟦⟧]*) {self.number}⟧"


def marked(payloads: list[str]) -> list[Marked]:
    return [Marked(number, payload) for number, payload in enumerate(payloads, start=1)]


def packed(items: list[Marked], limit: int, prefix: str = "") -> list[list[Marked]]:
    """`items` in groups whose joined text (after `prefix`) fits in `limit` characters."""
    groups: list[list[Marked]] = [[]]
    for item in items:
        if len(joined([*groups[-1], item], prefix)) > limit:
            groups.append([])
        groups[-1].append(item)
    return groups


def joined(items: list[Marked], prefix: str = "") -> str:
    return prefix + " ".join(item.text for item in items)
