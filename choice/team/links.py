"""Participant links: `/d/<secret>`, a capability for one participant of one interaction.

The secret is 192 random bits (`token_urlsafe(24)`), shown once, to the owner who widened;
the database keeps only its SHA-256, so a copy of the database opens no discussion. A
secret is looked up by its hash and the stored hash compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

SECRET_BYTES = 24
SECRET_SHAPE = re.compile(r"^[A-Za-z0-9_-]{32}$")
"""What `token_urlsafe(24)` gives; anything else is refused before it reaches the database."""


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def well_formed(secret: str) -> bool:
    return bool(SECRET_SHAPE.match(secret))


def same_hash(stored: str, secret: str) -> bool:
    return hmac.compare_digest(stored.encode(), secret_hash(secret).encode())


def participant_path(secret: str) -> str:
    return f"/d/{secret}"


def member_path(interaction_id: str) -> str:
    """Team mode: where a member a question is widened to takes part, signed in (no secret:
    their session is the credential)."""
    return f"/widened/{interaction_id}"
