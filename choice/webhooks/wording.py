"""Words every person-facing webhook format shares (Slack's blocks, ntfy's pushes): what an
outcome is called, where a decision came from, and how sentences follow one another in
either language. Catalog ids only (`N_`); each format translates and escapes them its own way.
"""

from __future__ import annotations

from choice.core.i18n import N_

OUTCOME_WORDS = {"answered": N_("Decided"), "cancelled": N_("Cancelled"),
                 "timed_out": N_("Timed out"), "withdrawn": N_("Withdrawn by the agent")}
SOURCE_WORDS = {
    "discussion_extraction": N_("Decided by the person asking, from the summary of this discussion."),
    "owner_override": N_("Decided by the person asking, who changed the discussion's summary "
                         "materially."),
    "manual": N_("Decided by the person asking, in their own words."),
    "quorum": N_("Decided by the team's quorum."),
}
"""`summary_json.source`, said for people (README: "The result" explains the rule)."""


def said(*parts: str) -> str:
    """Sentences one after another (a space between English ones, none after "。")."""
    text = ""
    for part in (p for p in parts if p):
        text += part if not text or text.endswith(("。", "：", "）")) else " " + part
    return text
