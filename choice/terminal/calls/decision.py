"""The terminal's calls to the portal about writing a decision back that keep the UI open:
fetch & review (read the review, ask the agent for its summary when none is asked for yet),
read it again when the stream says it moved, and take a deferred question up again.

What comes back lands in the `AnswerState`; what goes wrong becomes a message the owner
reads. Resolving and deferring end the UI: the session does those. No drawing here, and no
decisions a key makes.
"""

from __future__ import annotations

from choice.client.portal_client import PortalClient, PortalError, PortalUnreachable
from choice.contract.clock import parse_iso
from choice.terminal.calls.team import TeamCalls, portal_message
from choice.terminal.stages.review import open_review
from choice.terminal.state import AnswerState
from choice.terminal.write_back import Candidate, Deferral

ASKED = ("awaiting_candidate", "candidate_ready")
"""A review in these states is shown as it is: asking again would drop the candidate."""


class DecisionCalls:
    def __init__(self, client: PortalClient, state: AnswerState, team: TeamCalls,
                 interaction_id: str) -> None:
        self.client, self.state, self.team = client, state, team
        self.interaction_id = interaction_id

    def _failed(self, error: PortalError | PortalUnreachable) -> None:
        self.state.message = portal_message(error, self.state.translate)

    def review(self, ask_again: bool = False) -> bool:
        """`f`: the review as it stands; the agent is asked for its summary unless it
        already was (or `ask_again`, after the fallback)."""
        try:
            review = self.client.review(self.interaction_id)
            if ask_again or review.get("state") not in ASKED:
                review = self.client.request_review(self.interaction_id)
        except (PortalError, PortalUnreachable) as error:
            self._failed(error)
            return False
        open_review(self.state, Candidate.from_review(review))
        return True

    def greet(self) -> None:
        """On opening a widened question: say if the agent's summary is in or awaited,
        and what the team's quorum is, so the owner knows `f` has something to show."""
        try:
            review = self.client.review(self.interaction_id)
        except (PortalError, PortalUnreachable):
            return  # `f` reads it again, and says what went wrong
        _ = self.state.translate
        lines = []
        if review.get("state") == "candidate_ready":
            lines.append(_("The agent's summary is in: press f to review it."))
        elif review.get("state") == "awaiting_candidate":
            lines.append(_("The agent was asked for a summary: press f to see it."))
        if review.get("quorum_min_votes"):
            lines.append(_("{n} matching votes decide.").format(n=review["quorum_min_votes"]))
        if lines:
            self.state.message = " ".join(lines)

    def refresh(self) -> None:
        """The stream says the review moved (a candidate came, or the time ran out)."""
        try:
            review = self.client.review(self.interaction_id)
        except (PortalError, PortalUnreachable):
            return  # the next event, or the owner's next key, tries again
        open_review(self.state, Candidate.from_review(review))

    def deferred(self) -> bool:
        """Read why it was deferred (`choice answer` on a deferred question)."""
        try:
            review = self.client.review(self.interaction_id)
        except (PortalError, PortalUnreachable) as error:
            self._failed(error)
            return False
        self.state.deferral, self.state.status = Deferral.from_review(review), "deferred"
        return True

    def resume(self) -> bool:
        """`r`: take it up again, pending or widened as it was, its deadline running."""
        try:
            self.client.resume(self.interaction_id)
        except PortalError as error:
            if error.status != 409:  # 409: taken up elsewhere already; the detail says how
                self._failed(error)
                return False
        except PortalUnreachable as error:
            self._failed(error)
            return False
        return self.taken_up()

    def taken_up(self) -> bool:
        """The question is open again (here or elsewhere): show it as it now stands."""
        try:
            detail = self.client.detail(self.interaction_id)
        except (PortalError, PortalUnreachable) as error:
            self._failed(error)
            return False
        if detail["status"] == "deferred":
            return False
        _ = self.state.translate
        self.state.deferral, self.state.status = None, str(detail["status"])
        self.state.expires_at = parse_iso(detail["expires_at"])
        self.state.message = _("Taken up again: answer it as before.")
        if self.state.status == "widened":
            self.team.refresh()
        return True
