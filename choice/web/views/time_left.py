"""What a page says about a question's deadline, in the page's language.

A far deadline is a quiet date and time ("due 14:05", "due tomorrow 14:05", "due Tue 3 Dec
14:05", in the server's local time, 24-hour clock); the last `TICKING_FROM` seconds are a
ticking clock ("9:47 left"), and the last `URGENT_FROM` of those draw the eye. A line of the
question list says how long is left in the largest unit ("in 25 min", "in 3 h"), which
changes at most once a minute.

`static/js/countdown.js` and `static/js/list.js` say the very same words from the same
catalog messages (and the weekday's and month's names from the same CLDR data, through
`Intl.DateTimeFormat`), so a page does not jump when its script takes over: keep the two in
step. This module only words a time; it must not render markup or read the store.
"""

from __future__ import annotations

import math
from datetime import datetime

from choice.core.i18n import Translator

TICKING_FROM = 600
"""Seconds left from which the page ticks (mm:ss): the last ten minutes."""
URGENT_FROM = 60
"""Seconds left from which the countdown and a list line draw attention: the last minute."""


def seconds_left(expires_at: float, at: float) -> int:
    """Whole seconds left, rounded up as the page's script counts them; never negative."""
    return max(0, math.ceil(expires_at - at))


def ticking(seconds: int) -> bool:
    """Whether the countdown shows the clock (the last ten minutes) instead of the date."""
    return seconds <= TICKING_FROM


def urgent(seconds: int) -> bool:
    """The last minute of a question still open: what draws the eye."""
    return 0 < seconds <= URGENT_FROM


def clock(seconds: float) -> str:
    """Time left as the page's countdown script writes it: `m:ss` under an hour, `h:mm:ss`
    from an hour up (a day reads 23:59:59, not 1439:59). Never negative."""
    left = max(0, round(seconds))
    hours, minutes, secs = left // 3600, left % 3600 // 60, left % 60
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def due_words(expires_at: float, at: float, _: Translator) -> str:
    """"due 14:05" today, "due tomorrow 14:05", "due Tue 3 Dec 14:05" further out: the
    deadline's local date and time (minutes cut, as the script's `getMinutes`)."""
    due = datetime.fromtimestamp(expires_at)
    time = f"{due.hour:02d}:{due.minute:02d}"
    days = (due.date() - datetime.fromtimestamp(at).date()).days
    if days <= 0:
        return _("due {time}").format(time=time)
    if days == 1:
        return _("due tomorrow {time}").format(time=time)
    # Babel only here: a deadline two days out is rare (24 h at most, unless moved), and its
    # locale data costs a few ms and MB that a page with a nearer deadline need not pay.
    from babel.dates import format_date

    # Stand-alone forms ("ccc", "LLL"), as Intl.DateTimeFormat gives a lone weekday or month.
    date = _("{weekday} {day} {month}").format(
        weekday=format_date(due, "ccc", locale=_.language), day=due.day,
        month=format_date(due, "LLL", locale=_.language))
    return _("due {date} {time}").format(date=date, time=time)


def relative_words(seconds: float, _: Translator) -> str:
    """A list line's time left: "in 25 min" (minutes rounded up, at least 1) under an hour,
    "in 3 h" (hours rounded half up) from an hour on."""
    minutes = max(1, math.ceil(seconds / 60))
    if minutes < 60:
        return _.ngettext("in {n} min", "in {n} min", minutes).format(n=minutes)
    hours = math.floor(seconds / 3600 + 0.5)
    return _.ngettext("in {n} h", "in {n} h", hours).format(n=hours)
