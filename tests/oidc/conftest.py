"""The members a team-mode test module signs in: `ann`, `bob` and `cat` (their
`<name>@example.com` accounts), each a browser signed in once for the module, on the
portal of the module's own `team` fixture (which makes their accounts)."""

from __future__ import annotations

import pytest

from tests.oidc.provider import Member, OidcProvider
from tests.portal_process import PortalProcess


@pytest.fixture(scope="module")
def ann(team: tuple[OidcProvider, PortalProcess]) -> Member:
    return Member(team[1], "ann@example.com")


@pytest.fixture(scope="module")
def bob(team: tuple[OidcProvider, PortalProcess]) -> Member:
    return Member(team[1], "bob@example.com")


@pytest.fixture(scope="module")
def cat(team: tuple[OidcProvider, PortalProcess]) -> Member:
    return Member(team[1], "cat@example.com")
