"""What is pushed to the portal's pages: their WebSockets, the open tabs (and opening the
browser when there is none), participants' live feeds. (The agents' server-sent events are
an `/api` route: `api/stream.py`.)

Must not import `api` or `pages`: what they share with this package lives in `views` or
`security`.
"""
