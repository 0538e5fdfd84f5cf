"""The write-back of a decision (seed 003 §5–7): the owner asks the agent to summarise a
widened discussion, reviews its candidate, and resolves, edits or defers; or the team's
quorum resolves it. The result says where the final answer came from."""
