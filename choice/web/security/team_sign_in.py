"""Team mode's sign-in: a browser sent to the OpenID provider and back, ending in a session
bound to a member.

`start` makes a random `state`, `nonce` and PKCE verifier, keeps them server-side
(`store/sign_in_attempts.py`, by the hash of the state, with the hash of a random value the
browser holds in a short-lived cookie), and answers the provider's authorization URL.
`finish` takes the attempt once (a second callback with the same state finds nothing),
refuses it unless the browser that started it brings it back, exchanges the code and
verifies the ID token (`oidc_client.py`), then decides who may come in: a verified email,
in one of `CHOICE_OIDC_ALLOWED_DOMAINS` when that is set. The member is made or refreshed
from the claims (`store/members.py`: name from `name`, email from `email`, admin from
`CHOICE_OIDC_ADMINS` or the `groups` claim and `CHOICE_OIDC_ADMIN_GROUPS`, decided again at
every sign-in) and gets a new session (`sessions.py`).

Owns the attempt cookie and the rules of who is let in; the HTTP side is
`web/pages/team_sign_in.py`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from litestar.datastructures import Cookie
from sqlalchemy.exc import IntegrityError

from choice.core.config import Settings
from choice.store import Store
from choice.store.members import Member, find_member, record_sign_in
from choice.store.sign_in_attempts import Attempt, open_attempt, take_attempt
from choice.web.security.auth import safe_next

if TYPE_CHECKING:  # the OpenID libraries load only in team mode
    from choice.web.security.oidc_client import OidcClient

ATTEMPT_COOKIE = "choice_sign_in"
ATTEMPT_SECONDS = 600.0
"""How long a browser may take at the provider before its sign-in must start again."""
CALLBACK_PATH = "/auth/callback"


def _hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


class BadCallback(Exception):
    """A callback that no sign-in of this browser is waiting for: a missing, unknown, used
    or expired `state`, or another browser's."""


class NotAllowed(Exception):
    """The provider signed the person in, but the portal does not let them in."""

    def __init__(self, email: str | None, reason: str) -> None:
        super().__init__(reason)
        self.email = email
        self.reason = reason
        """`unverified`, `domain`, or `taken` (another member has this email)."""


class Started:
    def __init__(self, url: str, cookie: Cookie) -> None:
        self.url = url
        """The provider's authorization URL."""
        self.cookie = cookie
        """The attempt cookie the browser must bring back to the callback."""


class TeamSignIn:
    def __init__(self, settings: Settings, store: Store, client: OidcClient,
                 secure: Callable[[str], bool], clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._client = client
        self._secure = secure
        self._clock = clock
        self._domains = {d.lower().lstrip("@") for d in settings.oidc_allowed_domains}
        self._admins = {email.lower() for email in settings.oidc_admins}
        self._admin_groups = set(settings.oidc_admin_groups)

    async def start(self, host: str, next_path: str | None) -> Started:
        """Raises `sign_in_errors.ProviderUnavailable` when the provider cannot be reached."""
        state, browser = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        nonce, verifier = secrets.token_urlsafe(32), secrets.token_urlsafe(64)
        url = await self._client.authorization_url(state, nonce, verifier)
        attempt = Attempt(browser_hash=_hash(browser), nonce=nonce, code_verifier=verifier,
                          next_path=safe_next(next_path))
        await self._store.write(open_attempt, self._store.repo, _hash(state), attempt,
                                self._clock(), ATTEMPT_SECONDS)
        return Started(url, Cookie(key=ATTEMPT_COOKIE, value=browser, httponly=True,
                                   samesite="lax", path=CALLBACK_PATH,
                                   max_age=int(ATTEMPT_SECONDS), secure=self._secure(host)))

    def cleared(self, host: str) -> Cookie:
        return Cookie(key=ATTEMPT_COOKIE, value="", httponly=True, samesite="lax",
                      path=CALLBACK_PATH, max_age=0, secure=self._secure(host))

    async def finish(self, state: str | None, code: str | None, browser: str | None
                     ) -> tuple[Member, str]:
        """The member signed in and the path to land on. Raises `BadCallback`,
        `NotAllowed`, or `sign_in_errors.ProviderUnavailable` / `SignInRejected`."""
        if not state or not code or not browser:
            raise BadCallback("the callback lacks its state, its code or the browser's cookie")
        attempt = await self._store.write(take_attempt, self._store.repo, _hash(state),
                                          self._clock())
        if attempt is None or not hmac.compare_digest(attempt.browser_hash, _hash(browser)):
            raise BadCallback("no sign-in of this browser is waiting for this state")
        claims = await self._client.verified_claims(code, attempt.code_verifier, attempt.nonce)
        email, name = self._allowed(claims)
        try:
            member = await self._store.write(record_sign_in, self._store.repo,
                                             str(claims["sub"]), email, name,
                                             self._admin(email, claims), self._clock())
        except IntegrityError:  # another member (another `sub`) has this email
            raise NotAllowed(email, "taken") from None
        return member, attempt.next_path

    async def member(self, member_id: str) -> Member | None:
        """A signed-in session's member (None: removed meanwhile)."""
        return await self._store.read(find_member, self._store.engine, member_id)

    def _admin(self, email: str, claims: dict[str, Any]) -> bool:
        """Named in `CHOICE_OIDC_ADMINS`, or in a group of `CHOICE_OIDC_ADMIN_GROUPS` by the
        ID token's `groups` claim (a list of names; one name alone is read as a list of one).
        Group names are matched exactly: providers treat them as case-sensitive ids."""
        groups = claims.get("groups")
        named = [groups] if isinstance(groups, str) else groups if isinstance(groups, list) else []
        return (email.lower() in self._admins
                or any(isinstance(g, str) and g in self._admin_groups for g in named))

    def _allowed(self, claims: dict[str, Any]) -> tuple[str, str]:
        """The member's email and name, if the claims let them in."""
        email = claims.get("email")
        if not isinstance(email, str) or "@" not in email:
            raise NotAllowed(None, "unverified")
        if claims.get("email_verified") is not True:
            raise NotAllowed(email, "unverified")
        if self._domains and email.rpartition("@")[2].lower() not in self._domains:
            raise NotAllowed(email, "domain")
        name = claims.get("name")
        return email, (name.strip() if isinstance(name, str) and name.strip() else email)[:200]
