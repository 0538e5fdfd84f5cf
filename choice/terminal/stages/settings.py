"""What each key does in the settings stage (`s` or Ctrl-O): which rows it shows and what a
key on each does. No curses, no network: what must reach the portal is queued in
`state.effects` (`save_settings`, `set_deadline`, `switch_to_web`) for the session.

Some rows come and go: "Use ... as my default time" once this question's time was changed
here (the web panel's "Use as default"; `time_defaults.py` holds the bounds), and "Continue
in the browser and make the browser my default" while the saved default is the terminal.
The rows' text is `screens/settings_screen.py`.
"""

from __future__ import annotations

import math
from typing import Any

from choice.contract import SOUND_VOLUME_MAX, TIMEOUT_MAX, TIMEOUT_MIN
from choice.terminal.keys import MOVES, Effect
from choice.terminal.state import AnswerState

SETTING_ROWS = ("interface", "elicitation", "timeout_seconds", "language", "allow_annotations",
                "show_placeholder", "terminal_hints", "note_focus", "notifications", "sound",
                "sound_volume", "time_left", "time_default", "switch_to_web", "web_default", "back")
"""Every row, in order; `setting_rows` leaves out the ones that offer nothing now."""
ELICITATION_CYCLE = {"off": "form", "form": "url", "url": "off"}
"""Enter on the elicitation row: never -> the client's form -> the client opens the page."""
NOTIFY_CYCLE = {"unfocused": "hidden", "hidden": "never", "never": "always", "always": "unfocused"}
"""Enter on the browser notifications row: when the web page notifies and chimes."""
VOLUME_STEP = 10  # ←/→ on the chime volume row


def setting_rows(state: AnswerState) -> tuple[str, ...]:
    hidden = set()
    if state.time_default() is None:
        hidden.add("time_default")
    if state.settings.get("interface") == "web":
        hidden.add("web_default")  # the browser is the default already
    return tuple(row for row in SETTING_ROWS if row not in hidden)


def settings_key(state: AnswerState, key: str) -> None:
    rows = setting_rows(state)
    if key in MOVES or key in ("j", "k"):
        step = MOVES.get(key, 1 if key == "j" else -1)
        state.setting_cursor = max(0, min(len(rows) - 1, state.setting_cursor + step))
        return
    if key in ("esc", "q", "s", "^O"):
        state.stage, state.message = "choose", ""
        return
    row = rows[min(state.setting_cursor, len(rows) - 1)]
    if row == "sound_volume" and key in ("left", "right"):
        volume = _volume(state) + (VOLUME_STEP if key == "right" else -VOLUME_STEP)
        _save(state, row, max(0, min(SOUND_VOLUME_MAX, volume)))
        return
    if key not in ("enter", "space"):
        return
    _change(state, row)


def _change(state: AnswerState, row: str) -> None:
    _ = state.translate
    if row == "back":
        state.stage, state.message = "choose", ""
    elif row == "switch_to_web":
        state.effects.append(Effect("switch_to_web"))
    elif row == "web_default":
        state.effects.append(Effect("switch_to_web", {"interface": "web"}))
    elif row == "time_left" and state.deferral is not None:
        state.message = _("Deferred: no deadline runs until it is taken up again.")
    elif row == "time_left":
        _open_editor(state, "time_left", _("Minutes left to answer"), str(state.minutes_left))
    elif row == "time_default":
        offered = state.time_default()
        if offered is not None:
            _save(state, "timeout_seconds", offered.saved)
    elif row == "timeout_seconds":  # typed in minutes, as the web panel takes it
        seconds = state.settings.get(row)
        minutes = f"{seconds / 60:g}" if isinstance(seconds, int) else ""
        _open_editor(state, row, _("Default time to answer (minutes)"), minutes)
    elif row == "sound_volume":
        _open_editor(state, row, _("Chime volume (0 to 100)"), str(_volume(state)))
    elif row == "interface":
        _save(state, row, "terminal" if state.settings.get(row) == "web" else "web")
    elif row == "elicitation":
        _save(state, row, ELICITATION_CYCLE.get(str(state.settings.get(row) or "off"), "off"))
    elif row == "note_focus":
        _save(state, row, "tab" if state.settings.get(row) == "pick" else "pick")
    elif row == "notifications":
        _save(state, row, NOTIFY_CYCLE.get(str(state.settings.get(row) or ""), "unfocused"))
    elif row == "language":
        current = state.settings.get(row) or state.question.language
        _save(state, row, "en" if current == "zh" else "zh")
    else:
        _save(state, row, not state.settings.get(row, True))


def typed_setting(state: AnswerState, name: str, typed: str) -> None:
    """What was typed in a setting's editor (`name` is its row)."""
    if name == "time_left":
        _set_time_left(state, typed)
    elif name == "sound_volume":
        volume = int(typed) if typed.isdigit() else -1
        if 0 <= volume <= SOUND_VOLUME_MAX:
            _save(state, name, volume)
        else:
            _ = state.translate
            state.message = _("Enter a volume from 0 (silent) to 100, e.g. 50.")
    else:  # the default time, typed in minutes
        _set_default_time(state, typed)


def _set_default_time(state: AnswerState, typed: str) -> None:
    """Minutes, as the web panel takes them; saved as `timeout_seconds` within its bounds."""
    try:
        seconds = round(float(typed) * 60)
    except ValueError:
        seconds = -1
    if not TIMEOUT_MIN <= seconds <= TIMEOUT_MAX:
        _ = state.translate
        state.message = _("Enter the minutes, up to {most} (24 hours), e.g. 5.").format(
            most=TIMEOUT_MAX // 60)
        return
    _save(state, "timeout_seconds", seconds)


def _volume(state: AnswerState) -> int:
    volume = state.settings.get("sound_volume")
    return volume if isinstance(volume, int) else 50


def _set_time_left(state: AnswerState, typed: str) -> None:
    """The settings move this question's deadline (the session PATCHes it and
    every open page follows); the default time is for the next questions."""
    try:
        minutes = float(typed)
    except ValueError:
        minutes = -1.0
    if not (minutes > 0 and math.isfinite(minutes)):  # the portal checks the upper bound
        _ = state.translate
        state.message = _("Enter the minutes left, e.g. 5.")
        return
    state.effects.append(Effect("set_deadline", minutes))



def _save(state: AnswerState, name: str, value: Any) -> None:
    state.effects.append(Effect("save_settings", {name: value}))


def _open_editor(state: AnswerState, name: str, label: str, text: str) -> None:
    """A row's value typed on the editor line; Enter hands it to `typed_setting`."""
    state.editing_setting = name
    state.open_editor("edit_setting", label, text)
