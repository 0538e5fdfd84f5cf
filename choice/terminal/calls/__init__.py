"""The terminal's calls to the portal: drafts, the team, the write-back of a decision."""
