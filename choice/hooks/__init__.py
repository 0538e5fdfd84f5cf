"""`choice hook`: a coding agent's own prompts (Claude Code's and Codex's `PermissionRequest`
hook: a command, an edit, the plan, AskUserQuestion) asked in the portal, and the person's
answer handed back as the hook's decision. When nobody answers in time, or nothing answers,
the hook says nothing and the agent shows its own dialog: it never allows what a person did
not.

`payload` reads what the agent sends, `questions` turns it into a question, `decisions`
turns the answer into what the agent reads, `command` runs it against the portal, and
`config` prints the agents' settings. A transport: it reaches the portal through
`choice.client` only, and starts fast (standard library, no pydantic).
"""
