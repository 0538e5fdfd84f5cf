"""The settings stage's lines: each row with its value, the focused one reversed. What the
rows are and what their keys do is `stages/settings.py`."""

from __future__ import annotations

import curses
from typing import TYPE_CHECKING

from choice.core.time_defaults import duration
from choice.terminal.stages.settings import setting_rows

if TYPE_CHECKING:
    from choice.terminal.state import AnswerState


def settings_lines(state: AnswerState) -> list[tuple[str, int]]:
    _, values = state.translate, state.settings
    on_off = {True: _("on"), False: _("off")}
    labels = {
        "interface": (_("Answer questions in"), {
            "web": _("the browser"), "terminal": _("the terminal"),
        }.get(str(values.get("interface")), "")),
        "elicitation": (_("Ask inside the agent's MCP client"), {
            "off": _("never"), "form": _("with the client's own form, when it supports one"),
            "url": _("by having the client open the question's page, when it can"),
        }.get(values.get("elicitation") or "off", "")),
        "timeout_seconds": (_("Default time to answer"), duration(
            values["timeout_seconds"], _) if isinstance(values.get("timeout_seconds"), int)
            else ""),
        "language": (_("Language"), values.get("language") or state.question.language),
        "allow_annotations": (_("Offer notes on options"),
                              on_off[bool(values.get("allow_annotations"))]),
        "show_placeholder": (_("Show the agent's placeholder text"),
                             on_off[bool(values.get("show_placeholder"))]),
        "terminal_hints": (_("Navigation hints (the key bar)"),
                           on_off[bool(values.get("terminal_hints"))]),
        "note_focus": (_("Note field focus"), {
            "tab": _("Tab opens a note"), "pick": _("a pick opens its note"),
        }.get(values.get("note_focus") or "tab", "")),
        "notifications": (_("Browser notifications and the chime"), {
            "always": _("always"), "unfocused": _("when the window is not focused"),
            "hidden": _("when the tab is hidden"), "never": _("never"),
        }.get(values.get("notifications") or "unfocused", "")),
        "sound": (_("Chime with each notification"), on_off[bool(values.get("sound"))]),
        "sound_volume": (_("Chime volume (←/→ or Enter)"), str(values.get("sound_volume", 50))),
        "time_left": (_("Minutes left on this question"),
                      _("deferred") if state.deferral is not None
                      else str(state.minutes_left)),
        "time_default": (time_default_label(state), ""),
        "switch_to_web": (_("Switch this question to the web"), ""),
        "web_default": (_("Continue in the browser and make the browser my default"), ""),
        "back": (_("Back to the question"), ""),
    }
    lines = [(_("Settings"), curses.A_BOLD)]
    for index, row in enumerate(setting_rows(state)):
        label, value = labels[row]
        here = index == state.setting_cursor
        colon = "：" if state.translate.language == "zh" else ": "
        text = f"{'›' if here else ' '} {label}" + (f"{colon}{value}" if value else "")
        lines.append((text, curses.A_REVERSE if here else 0))
    return lines


def time_default_label(state: AnswerState) -> str:
    """`Use 30 minutes as my default time`; once saved, says so; clamped, says to what."""
    _, offered = state.translate, state.time_default()
    if offered is None:
        return ""
    saved, given = duration(offered.saved, _), duration(offered.given, _)
    if offered.is_default:
        return _("{time} is your default time now").format(time=saved)
    if offered.clamped:
        return _("Use {time} as my default time (the nearest allowed to {given})").format(
            time=saved, given=given)
    return _("Use {time} as my default time").format(time=saved)
