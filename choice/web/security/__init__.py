"""Who may talk to the portal: Host and Origin checks, the bearer token, browser sessions and
sign-in codes (and the links that carry them), log redaction, and how many clients are
served at once (participants' turns, large bodies).

The bottom of `choice.web`: imports no other part of it.
"""
