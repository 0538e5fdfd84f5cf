"""`choice`: the command line (serve, ask, answer, list, open, token, db, mcp). The entry
point: it may import any transport; nothing imports it.
"""
