"""`choice/webhooks/messages.py`: a settled event keeps no participant's link."""

from __future__ import annotations

from choice.webhooks.messages import without_links


def test_an_invitation_loses_every_link_once_settled() -> None:
    invitation = {"type": "interaction.widened",
                  "participants": [{"name": "Alice", "link": "https://x/d/secret"}, "odd"]}
    settled = without_links(invitation)
    assert settled["participants"] == [{"name": "Alice", "link": None}, "odd"]
    assert invitation["participants"][0] == {"name": "Alice", "link": "https://x/d/secret"}


def test_a_reminder_whose_participants_is_a_count_settles_unchanged() -> None:
    """This raised `'int' object is not iterable`, so the delivery was never
    recorded and the reminder went out again at every retry."""
    reminder = {"type": "interaction.reminder", "participants": 3, "opened": 1}
    assert without_links(reminder) == reminder
