"""What a change from the portal's live stream (`live.py`) does to a running `choice answer`:
answered, cancelled or timed out elsewhere ends the run; deferred or taken up again, a
review that moved, a comment or vote, a reminder, a moved deadline update what the UI
shows; on (re)connecting, whatever happened before the stream listened is caught up on.

Reads through the session's calls (`actions.py`); draws nothing and decides no key.
"""

from __future__ import annotations

import contextlib

from choice.client.portal_client import PortalError, PortalUnreachable
from choice.contract import OPEN_STATUSES, WAITING_REASONS
from choice.contract.clock import parse_iso
from choice.terminal.live import LiveEvent
from choice.terminal.screens.panels import waiting_reminder
from choice.terminal.screens.review_screen import reviewing
from choice.terminal.screens.screen import Screen
from choice.terminal.session.actions import Actions
from choice.terminal.session.endings import Ending


def follow(session: Actions, event: LiveEvent, screen: Screen) -> Ending | None:
    """A change from the portal's stream; an Ending when the interaction is over."""
    state, _ = session.state, session._
    if event.kind == "completed":
        return session.closed_elsewhere(event.status)
    if event.kind == "deferred":
        if state.deferral is None:
            return session.deferred_elsewhere(event.rationale or session.defer_reason())
    elif event.kind == "resumed":
        if state.deferral is not None:
            session.decision.taken_up()
    elif event.kind == "review":
        if reviewing(state):
            session.decision.refresh()
        elif event.change == "candidate_submitted" and state.can_review:
            state.message = _("The agent's summary is in: press f to review it.")
    elif event.kind == "team":
        if event.change in ("comment", "vote"):
            state.reminder = False  # activity: the reminder is out of date
        session.team.refresh()
    elif event.kind == "reminder" and event.change in WAITING_REASONS:
        if event.other is not None or event.change == "deadline":  # ours is open: here
            state.message = waiting_reminder(event, _)
    elif event.kind == "reminder":
        state.reminder = state.team is not None
    elif event.kind == "connected":
        return _catch_up(session, screen)
    elif event.expires_at is not None:
        screen.expires_at = event.expires_at
    return None


def _catch_up(session: Actions, screen: Screen) -> Ending | None:
    """What happened before the stream listened (or while it was reconnecting)."""
    state = session.state
    with contextlib.suppress(PortalError, PortalUnreachable):
        detail = session.client.detail(session.question.id)
        if detail["status"] == "deferred":
            if state.deferral is None:
                return session.deferred_elsewhere(session.defer_reason())
            return None
        if detail["status"] not in OPEN_STATUSES:
            return session.closed_elsewhere(str(detail["status"]))
        if state.deferral is not None:  # taken up again before we listened
            session.decision.taken_up()
        screen.expires_at = parse_iso(detail["expires_at"])
        if detail["status"] == "widened":
            session.team.refresh()
        if reviewing(state):
            session.decision.refresh()
    return None
