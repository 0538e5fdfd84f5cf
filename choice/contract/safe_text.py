"""Model-written text made safe to show: printed where nothing renders it, or set inside
the portal's own sentences.

Printed (`safe_text`): in a terminal or an MCP client's plain form field, untrusted text may
carry escape sequences (which would move the cursor, change colours or retitle the window),
NUL, bidi overrides that reorder what the human reads, or other control characters: they are
replaced by visible placeholders (or dropped, for bidi controls). The terminal
(`choice/terminal/text.py`) and MCP elicitation both use this.

Rendered (`closed_bidi`): a page, a webhook message or a summary keeps the text's bidi
controls, but a U+202E (right-to-left override), or another explicit embedding, override or
isolate, that the model never closed would mirror the portal's words after it
("Recommended", "2 minutes ago", the rest of a summary). Closing what is still open at the
end of the text keeps the effect inside that text and changes nothing else about how it
shows.
"""

from __future__ import annotations

import re
import unicodedata

_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[@-Z\\-_])")
PDF, PDI = "\u202c", "\u2069"
_EMBEDDINGS = frozenset("\u202a\u202b\u202d\u202e")  # LRE RLE LRO RLO, each closed by a PDF
_ISOLATES = frozenset("\u2066\u2067\u2068")  # LRI RLI FSI, each closed by a PDI
_CONTROLS = _EMBEDDINGS | _ISOLATES
_BIDI = _CONTROLS | {PDF, PDI, "\u200e", "\u200f", "\u061c"}  # and the LRM, RLM, ALM marks


def safe_text(text: str, *, keep_newlines: bool = True) -> str:
    """Printable text only: escapes become `␛`, other controls `?`, tabs four spaces."""
    text = _ESCAPES.sub("\u241b", text).replace("\t", "    ")
    text = text.replace("\r\n", "\n").replace("\u2028", "\n").replace("\u2029", "\n")
    out = []
    for char in text:
        if char == "\n":
            out.append("\n" if keep_newlines else " ")
        elif char in _BIDI:
            continue
        elif unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            out.append("\u241b" if char == "\x1b" else "?")
        else:
            out.append(char)
    return "".join(out)


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
