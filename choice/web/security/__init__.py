"""Who may talk to the portal: Host and Origin checks, the bearer token, browser sessions and
sign-in codes (and the links that carry them), log redaction.

The bottom of `choice.web`: imports no other part of it.
"""
