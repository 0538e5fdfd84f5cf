"""The write-back of a decision (docs/guides/write-back.md): the owner asks the agent to summarise a
widened discussion, reviews its candidate, and resolves, edits or defers; or the team's
quorum resolves it. The result says where the final answer came from."""
