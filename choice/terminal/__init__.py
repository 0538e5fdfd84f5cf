"""The terminal side: `choice answer <id>` (curses, or plain lines for pipes and dumb
terminals), talking to the portal over its HTTP API like any other client."""
