"""What is pushed: WebSockets for pages, server-sent events for agents, open tabs,
participants' live feeds.
"""
