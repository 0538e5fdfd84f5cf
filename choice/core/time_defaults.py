""""Use as default" for a question's time: what a person last gave one question (read back
from its audit events, so it survives a reload and needs no state of its own) and what
saving it as the default time (`Preferences.timeout_seconds`) would store.

The reading a person expects is the time they typed: "30 minutes left" becomes "new
questions get 30 minutes". The newest `deadline_changed` event by a person at a screen (the
web panel's `human:web`, `choice answer`'s `human:terminal`) holds it as the new
deadline (`to`) minus the moment it was set (`at`); `choice answer` says it is the
terminal's (`interface: terminal` on its PATCH). A change through the API (`human:api`)
is not offered: agents hold the token too, and an agent's extension is nobody's preference.
Saving goes through `InteractionService.update_preferences` like every other setting;
nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from choice.contract import TIMEOUT_MAX, TIMEOUT_MIN
from choice.core.actors import Actor
from choice.core.i18n import Translator


class Audited(Protocol):
    """An audit event as this module reads it: the store's `AuditEvent`, or `SeenEvent`
    (typed, not imported: the terminal must not load the store to read its events)."""

    @property
    def kind(self) -> str: ...
    @property
    def actor(self) -> str: ...
    @property
    def at(self) -> float: ...
    @property
    def detail_json(self) -> Mapping[str, Any] | None: ...


@dataclass(frozen=True)
class SeenEvent:
    """An audit event as `GET /api/interactions/{id}/events` shows it (the terminal's)."""

    kind: str
    actor: str
    at: float
    detail_json: Mapping[str, Any] | None


@dataclass(frozen=True)
class TimeDefault:
    """The time a person gave one question, as a default time would hold it."""

    given: int
    """Seconds: what they typed (minutes left on the question, as seconds)."""
    saved: int
    """What `timeout_seconds` would be: `given` within the preference's bounds."""
    current: int
    """The default time saved now."""

    @property
    def clamped(self) -> bool:
        return self.saved != self.given

    @property
    def is_default(self) -> bool:
        """Already the default: nothing left to offer."""
        return self.saved == self.current


def _at_a_screen(stored: str) -> bool:
    """Whether an event's actor is the owner at the page or the terminal UI; an actor no
    release wrote (a hand-edited database) is not."""
    try:
        return Actor.parse(stored).at_a_screen
    except ValueError:
        return False


def last_time_given(events: Iterable[Audited]) -> int | None:
    """Seconds a person last gave this question (the newest `deadline_changed` from a
    screen), or None when nobody there changed its time."""
    given = None
    for event in events:
        if event.kind != "deadline_changed" or not _at_a_screen(event.actor):
            continue
        try:
            deadline = float((event.detail_json or {})["to"])
        except (KeyError, TypeError, ValueError):
            continue  # an event without its new deadline says nothing about the time
        given = round(deadline - event.at)
    return given


def clamp(seconds: int) -> int:
    """Within the default time's bounds (10 s to 24 h)."""
    return max(TIMEOUT_MIN, min(TIMEOUT_MAX, seconds))


def time_default(events: Iterable[Audited], current: int) -> TimeDefault | None:
    given = last_time_given(events)
    if given is None:
        return None
    return TimeDefault(given=given, saved=clamp(given), current=current)


AGE_UNITS = (("year", 365 * 86_400), ("month", 30 * 86_400), ("week", 7 * 86_400),
             ("day", 86_400), ("hour", 3_600), ("minute", 60), ("second", 1))
AGE_THRESHOLD = 0.85
"""The largest unit of which this much has passed is the one said (50 s, but 51 s is "1
minute"), rounded to the nearest whole one: Babel's `format_timedelta`, whose CLDR data
cost the portal memory out of all proportion to these seven phrases."""


def ago(seconds: float, _: Translator) -> str:
    """`200` -> "3 minutes ago": how long since something happened, in the largest unit of
    which at least 0.85 has passed, rounded (never under 1; a time to come reads "1 second
    ago")."""
    elapsed = max(seconds, 0.0)
    for unit, length in AGE_UNITS:
        if elapsed / length >= AGE_THRESHOLD or unit == "second":
            n = max(1, round(elapsed / length))
            break
    phrases = {
        "year": lambda: _.ngettext("{n} year ago", "{n} years ago", n),
        "month": lambda: _.ngettext("{n} month ago", "{n} months ago", n),
        "week": lambda: _.ngettext("{n} week ago", "{n} weeks ago", n),
        "day": lambda: _.ngettext("{n} day ago", "{n} days ago", n),
        "hour": lambda: _.ngettext("{n} hour ago", "{n} hours ago", n),
        "minute": lambda: _.ngettext("{n} minute ago", "{n} minutes ago", n),
        "second": lambda: _.ngettext("{n} second ago", "{n} seconds ago", n),
    }
    return phrases[unit]().format(n=n)


def duration(seconds: int, _: Translator) -> str:
    """`1800` -> "30 minutes"; "45 seconds" when it is not whole minutes."""
    if seconds % 60 == 0:
        minutes = seconds // 60
        return _.ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)
    return _.ngettext("{n} second", "{n} seconds", seconds).format(n=seconds)
