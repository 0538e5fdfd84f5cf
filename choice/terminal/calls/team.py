"""The terminal's calls to the portal about widening: the team list for the audience
prompt, the widen call itself, and the owner's view of the discussion (`GET .../team`).

What comes back lands in the `AnswerState` (the dialog, the invitation and its links, the
team view); what goes wrong becomes a message the owner reads, and the question stays as it
was. No drawing here, and no decisions a key makes.
"""

from __future__ import annotations

from typing import Any

from choice.client.portal_client import PortalClient, PortalError, PortalUnreachable
from choice.contract.clock import parse_iso
from choice.terminal.state import AnswerState
from choice.terminal.team_view import Invitation, Member, TeamView
from choice.terminal.text import safe_text
from choice.terminal.widening import WidenDialog, team_of


def portal_message(error: PortalError | PortalUnreachable, _: Any) -> str:
    """The portal's own words for a refusal, or why it could not be asked."""
    if isinstance(error, PortalUnreachable):
        return str(_("The portal does not answer: is `choice serve` running? "
                     "Try again in a moment."))
    said = "; ".join(str(e.get("message")) for e in error.errors) or str(error)
    return safe_text(said, keep_newlines=False)


class TeamCalls:
    def __init__(self, client: PortalClient, state: AnswerState, interaction_id: str) -> None:
        self.client, self.state, self.interaction_id = client, state, interaction_id
        self.team_server = False
        """The portal is a team server (`CHOICE_URL`): the dialog takes members' emails."""

    def _failed(self, error: PortalError | PortalUnreachable) -> str:
        _ = self.state.translate
        return str(_("Widen failed: {error}")).format(error=portal_message(error, _))

    def open_dialog(self) -> bool:
        """The audience prompt with the team list as saved now; False (and a message) if
        the portal cannot say."""
        try:
            self.state.settings = self.client.settings()
        except (PortalError, PortalUnreachable) as error:
            self.state.message = self._failed(error)
            return False
        self.state.open_widen(WidenDialog(self.state.question.title, team_of(self.state.settings),
                                          team_mode=self.team_server))
        return True

    def widen(self, request: dict[str, Any]) -> bool:
        """Widen to the dialog's audience in the chosen mode; on success the question shows
        as widened with its links, on failure it is back as it was, with the reason."""
        try:
            reply = self.client.widen(self.interaction_id, request["audience"], request["mode"],
                                      request["members"]) if request.get("members") else \
                self.client.widen(self.interaction_id, request["audience"], request["mode"])
        except PortalError as error:
            said = self._unknown_members(error, request.get("members") or [])
            self.state.close_widen(said or self._failed(error))
            return False
        except PortalUnreachable as error:
            self.state.close_widen(self._failed(error))
            return False
        self.state.close_widen("")
        self.state.status = "widened"  # `f` and the review's keys follow the status
        self.state.invitation = Invitation.from_reply(reply)
        self.state.just_widened = True
        if reply.get("expires_at"):
            self.state.expires_at = parse_iso(reply["expires_at"])
        if not self.refresh():  # the reply alone says enough until the stream brings more
            self.state.team = TeamView(
                mode=str(reply.get("mode") or request["mode"]), widened_at=None,
                expires_at=None, members=[Member(n, False) for n in self.state.invitation.names],
                messages=[], votes={})
        return True

    def _unknown_members(self, error: PortalError, members: list[str]) -> str:
        """The refusal of emails no member signed in with, in the owner's words; '' for any
        other refusal (the portal's own words then)."""
        _ = self.state.translate
        unknown = []
        for found in error.errors:
            index = str(found.get("field") or "").removeprefix("members[").rstrip("]")
            if found.get("code") == "owner":
                return str(_("Not widened: you own this question and take part already; leave "
                             "your own email out."))
            if found.get("code") == "unknown_member" and index.isdigit() \
                    and int(index) < len(members):
                unknown.append(safe_text(members[int(index)], keep_newlines=False))
        if not unknown:
            return ""
        return str(_("Not widened: no member has signed in here with {emails}. Check the "
                     "spelling, ask them to sign in once, or type their name for a guest "
                     "link.")).format(emails=", ".join(unknown))

    def thread_url(self) -> str:
        """The owner's page of the discussion (`thread_url`: the public one under
        `CHOICE_PUBLIC_URL`); it never changes, so it is read once."""
        try:
            reply = self.client.call("GET", f"/api/interactions/{self.interaction_id}/discussion")
        except (PortalError, PortalUnreachable):
            return ""
        return safe_text(str(reply.get("thread_url") or ""), keep_newlines=False)

    def refresh(self) -> bool:
        """Read the discussion again (participants, thread, votes); False if it could not."""
        try:
            payload = self.client.team(self.interaction_id)
        except (PortalError, PortalUnreachable):
            return False
        if payload.get("status") != "widened":
            return False  # over (the stream says how) or never widened
        view = TeamView.from_team(payload)
        if not self.state.discussion_url:
            self.state.discussion_url = self.thread_url()
        if self.state.team is None and self.state.stage == "widen":
            # widened in another window while the dialog was open here: nothing to send now
            _ = self.state.translate
            self.state.close_widen(_("This question was widened in another window."))
        self.state.team, self.state.status = view, "widened"
        if view.expires_at is not None:
            self.state.expires_at = view.expires_at
        return True
