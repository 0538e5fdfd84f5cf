"""A participant's link (`/d/<secret>`, `/api/d/<secret>`) as the credential of their
requests, and what counts as a person using it.

The secret names one participant of one interaction (`TeamService.participant`: anything
else is `UnknownLink`). Any use of it by that person (reading it through the JSON API,
commenting, voting, on the page or through the API) opens it: the owner's team panel stops
saying "Not opened yet", and `participant_opened` is audited once (`TeamService.open_link`
writes it only while nobody has). A chat app fetching a pasted link for its preview is not
the person: the page serves it without opening it.

Must not decide anything else about the discussion: the team service does.
"""

from __future__ import annotations

import re

from choice.store.records import Participant
from choice.team.service import TeamService

LINK_PREVIEW = re.compile(
    r"bot\b|preview|facebookexternalhit|whatsapp|slack|skype|teams|embedly|iframely", re.I)
"""User agents of chat apps' link previews: a link pasted in a channel is fetched by the
app at once, which is not the person opening it (Slack's unfurls are off in our own
webhook messages, but a person may paste a link anywhere)."""


def is_link_preview(user_agent: str | None) -> bool:
    """True for a chat app's preview fetch: its page is served, its opening not recorded."""
    return bool(user_agent and LINK_PREVIEW.search(user_agent))


async def participant_using(team: TeamService, secret: str) -> Participant:
    """The link's participant, for a request that uses it (a comment, a vote): opened now
    if it was not yet, before what they do is recorded. `UnknownLink` as `participant`."""
    participant = await team.participant(secret)
    if participant.opened_at is None:
        await team.open_link(participant)
    return participant
