"""Reaching the team through a webhook (`CHOICE_WEBHOOK_URL`): on widen, on new comments
(coalesced), on reminders and on the decision, a message with the question and each
participant's link.

`messages` builds the events; `formats` renders one as Slack, signed JSON or an ntfy push
(`ntfy`; `wording`: the words the person-facing formats share); `rows` is the outbox
table's data access; `sender` is one POST and the retry policy; `outbox` persists and
delivers; `listener` decides what to send when, and `webhooks_for` wires it in.
"""
