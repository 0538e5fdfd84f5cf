"""Shared by the team half of the security suite: widening a question on the real portal,
the participants' links, and what a participant's requests must leave alone."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from tests.portal_process import PortalProcess
from tests.security.conftest import JSON, Reply, ask, send, state_of


@dataclass(frozen=True)
class Invitee:
    interaction_id: str
    participant_id: str
    name: str
    secret: str

    @property
    def api(self) -> str:
        return f"/api/d/{self.secret}"

    @property
    def stored_hash(self) -> str:
        return hashlib.sha256(self.secret.encode()).hexdigest()


def widened(portal: PortalProcess, names: list[str], mode: str = "continue",
            **question: Any) -> list[Invitee]:
    """A fresh question widened to `names`; its participants with their links."""
    iid = ask(portal, **question)
    reply = portal.client().call("POST", f"/api/interactions/{iid}/widen",
                                 {"audience": names, "mode": mode})
    return [Invitee(iid, p["participant_id"], p["name"], p["link"].rsplit("/d/", 1)[1])
            for p in reply["participants"]]


def same_origin(portal: PortalProcess) -> dict[str, str]:
    """What a browser on the portal's own page sends: only credentials can stand in the way."""
    return {"Origin": f"http://127.0.0.1:{portal.port}", "Sec-Fetch-Site": "same-origin"}


def comment(portal: PortalProcess, who: Invitee, text: str,
            headers: dict[str, str] | None = None) -> Reply:
    return send(portal, "POST", f"{who.api}/comments", json.dumps({"text": text}),
                {**JSON, **(headers or {})})


def vote(portal: PortalProcess, who: Invitee, option_ids: list[str],
         headers: dict[str, str] | None = None) -> Reply:
    return send(portal, "PUT", f"{who.api}/vote", json.dumps({"option_ids": option_ids}),
                {**JSON, **(headers or {})})


def team_state(portal: PortalProcess, interaction_id: str) -> dict[str, Any]:
    """`state_of` plus the discussion as the owner sees it (thread, tally, who opened)."""
    return {**state_of(portal, interaction_id),
            "team": portal.client().call("GET", f"/api/interactions/{interaction_id}/team")}
