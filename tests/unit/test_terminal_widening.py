"""The terminal's audience line (`choice/terminal/widening.py`): on a team server an entry
with an `@` names a member by email and the rest are guests; named alone, members are the
whole audience; in local mode the same line is names only, as before."""

from __future__ import annotations

from choice.contract import TeamMember
from choice.terminal.widening import WidenDialog

TEAM = [TeamMember(name="Ann"), TeamMember(name="Bo")]


def test_on_a_team_server_emails_name_members_and_the_rest_are_guests() -> None:
    dialog = WidenDialog("Pick", TEAM, team_mode=True)
    assert dialog.take_audience("bo@example.com, Zed") == "next"
    assert dialog.request("block") == {"audience": ["Zed"], "members": ["bo@example.com"],
                                       "mode": "block"}
    assert dialog.chosen == ["Zed", "bo@example.com"]


def test_members_named_alone_invite_nobody_from_the_team_list() -> None:
    dialog = WidenDialog("Pick", TEAM, team_mode=True)
    assert dialog.take_audience("bo@example.com") == "next"
    assert dialog.request("continue") == {"audience": None, "members": ["bo@example.com"],
                                          "mode": "continue"}
    assert dialog.chosen == ["bo@example.com"]


def test_in_local_mode_an_email_is_a_guest_name_as_before() -> None:
    dialog = WidenDialog("Pick", TEAM)
    assert dialog.take_audience("bo@example.com") == "next"
    assert dialog.request("block") == {"audience": ["bo@example.com"], "mode": "block"}
