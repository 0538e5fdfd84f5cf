"""The language of what the `choice` command prints for the person at the terminal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def cli_translator(settings: Any) -> Callable[[str], str]:
    """Messages for the person at the terminal: CHOICE_LANG, else English."""
    from choice.core.i18n import resolve_language, translator

    return translator(resolve_language(None, None, settings.language))
