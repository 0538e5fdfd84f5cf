"""MCP: the portal's tools over Streamable HTTP at `/mcp`, and `choice mcp`, the stdio bridge.

`server.py` imports the SDK and runs inside the portal; `bridge.py` imports neither the SDK
nor the app, so an agent's `choice mcp` starts in a fraction of a second and answers
`initialize` and `tools/list` from `listing.json`, the portal's own answers.
"""
