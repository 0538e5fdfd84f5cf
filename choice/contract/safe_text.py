"""Model-written text made safe to print where nothing renders it: a terminal, an MCP
client's plain form field.

Untrusted text may carry escape sequences (which would move the cursor, change colours or
retitle the window), NUL, bidi overrides that reorder what the human reads, or other
control characters: they are replaced by visible placeholders (or dropped, for bidi
controls). The terminal (`choice/terminal/text.py`) and MCP elicitation both use this.
"""

from __future__ import annotations

import re
import unicodedata

_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[@-Z\\-_])")
_BIDI = {"\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
         "\u2069", "\u200e", "\u200f", "\u061c"}


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
