"""Bidi controls in untrusted text, closed where the text ends.

A model may write U+202E (right-to-left override), or another explicit embedding, override
or isolate, and never close it. Shown inside the portal's own sentence, it would mirror the
portal's words after it ("Recommended", "2 minutes ago", the rest of a summary). Closing
what is still open at the end of the text keeps the effect inside that text and changes
nothing else about how it shows. (The terminal drops these characters instead: see
`choice/terminal/text.py`.)
"""

from __future__ import annotations

PDF, PDI = "\u202c", "\u2069"
_EMBEDDINGS = frozenset("\u202a\u202b\u202d\u202e")  # LRE RLE LRO RLO, each closed by a PDF
_ISOLATES = frozenset("\u2066\u2067\u2068")  # LRI RLI FSI, each closed by a PDI
_CONTROLS = _EMBEDDINGS | _ISOLATES


def closed_bidi(text: str) -> str:
    """`text` with a PDF or PDI appended for every embedding or isolate it leaves open."""
    if _CONTROLS.isdisjoint(text):
        return text
    still_open: list[str] = []
    for char in text:
        if char in _EMBEDDINGS:
            still_open.append(PDF)
        elif char in _ISOLATES:
            still_open.append(PDI)
        elif char == PDF and still_open and still_open[-1] == PDF:
            still_open.pop()  # a PDF inside an isolate opened later closes nothing
        elif char == PDI and PDI in still_open:
            while still_open.pop() != PDI:  # a PDI also closes what opened inside its isolate
                pass
    return text + "".join(reversed(still_open))
