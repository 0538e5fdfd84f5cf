"""Drafts: what a person typed on an open question and has not sent yet, kept on the server."""
