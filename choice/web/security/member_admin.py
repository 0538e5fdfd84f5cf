"""Team mode's admins over the members: who may act as one (`admin_only`), the list of
members they see, and cutting a member off (every session ended, every agent token revoked).

An admin is a member that `CHOICE_OIDC_ADMINS` or `CHOICE_OIDC_ADMIN_GROUPS` named at their
latest sign-in (`team_sign_in.py`); the flag is read from the database with the request's
session (`auth.Access.admin`), so every instance agrees on it at once. Admin acts take a
person's signed-in browser session: an agent token, even an admin's, is refused (403), so an
agent cannot sign the team out. Being an admin opens no question: `ownership.py` stays the
only rule of who sees one.

Owns the guard and the calls; the rows are `store/members.py`'s, the HTTP sides
`api/members.py` and `pages/member_pages.py`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from litestar.connection import ASGIConnection
from litestar.exceptions import PermissionDeniedException
from litestar.handlers.base import BaseRouteHandler

from choice.store import Store
from choice.store.members import CutOff, MemberListing, cut_off_member, list_members
from choice.web.security.auth import Access

NOT_ADMIN = ("only an admin may see the members or end their access: ask an admin, or have "
             "your email added to CHOICE_OIDC_ADMINS (or your group to "
             "CHOICE_OIDC_ADMIN_GROUPS) and sign in again.")
NOT_A_PERSON = ("admin acts take an admin's signed-in browser session, not an agent token: "
                "open the portal's /settings/members page, or call this with that session.")


async def admin_only(connection: ASGIConnection[Any, Any, Any, Any],
                     _handler: BaseRouteHandler) -> None:
    """After the route's sign-in guard: 403 unless the request is an admin's session."""
    access: Access = connection.auth
    if not access.admin:
        raise PermissionDeniedException(NOT_ADMIN)
    if not access.session:
        raise PermissionDeniedException(NOT_A_PERSON)


class MemberAdmin:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    async def members(self) -> list[MemberListing]:
        return await self._store.read(list_members, self._store.engine, self._clock())

    async def cut_off(self, member_id: str) -> CutOff | None:
        """End every session of the member and revoke every token of theirs; refused from
        now on by every instance (each request looks both up). None: no such member."""
        return await self._store.write(cut_off_member, self._store.repo, member_id)
