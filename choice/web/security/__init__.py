"""Who may talk to the portal: Host and Origin checks, the bearer token, browser sessions and
sign-in codes, log redaction.
"""
