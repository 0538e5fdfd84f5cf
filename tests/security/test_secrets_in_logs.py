"""The API token and sign-in codes never reach the portal's log: the access log redacts
`token=` and `code=` values as it does participant links, and the start-up banner offers a
one-time sign-in link instead of the token. `GET /login?token=` still signs a script in.

The log read here is the real one: everything the portal process wrote (uvicorn's access
lines, the banner, warnings), as `portal.log` holds it for a portal `choice mcp` started.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest

from tests.integration.test_real_server import wait_until
from tests.portal_process import PortalProcess
from tests.security.conftest import FORM, JSON, bearer, send
from tests.tally import attacks

pytestmark = pytest.mark.slow


@pytest.fixture
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("logged-portal")).start()
    yield process
    process.stop()


def code_link(portal: PortalProcess) -> str:
    """A one-time sign-in link as `choice open --print` gets it (path and query)."""
    url = send(portal, "POST", "/api/login-links", json.dumps({"next": "/"}),
               {**bearer(portal), **JSON}).json()["url"]
    return str(url).removeprefix(portal.base_url)


def test_the_banner_offers_a_one_time_link_that_signs_in(portal: PortalProcess) -> None:
    banner = "".join(portal.log)
    links = re.findall(r"http://127\.0\.0\.1:\d+(/login\?code=[A-Za-z0-9_-]+)", banner)
    assert len(links) == 1, banner
    first = send(portal, "GET", links[0])
    assert first.status == 303 and "set-cookie" in first.headers
    assert send(portal, "GET", links[0]).status == 401  # once
    with attacks("Secrets in logs") as seen:
        seen.refused_if(portal.token not in banner, "the token in the banner")


def test_sign_in_secrets_never_reach_the_log(portal: PortalProcess) -> None:
    token = portal.token
    used, spare = code_link(portal), code_link(portal)
    codes = [link.partition("code=")[2].partition("&")[0] for link in (used, spare)]
    requests = [  # (method, path, body, headers, the secret it carries)
        ("GET", f"/login?{urlencode({'token': token, 'next': '/'})}", None, {}, token),
        ("GET", f"/login?{urlencode({'next': '/settings', 'token': token})}", None, {}, token),
        ("GET", f"/login?token={token}x", None, {}, token),  # wrong, but holds the token
        ("GET", f"/login?%74oken={token}", None, {}, token),  # the name percent-encoded
        ("GET", f"/login?TOKEN={token}", None, {}, token),
        ("GET", f"/?token={token}", None, {}, token),  # a page that takes no token
        ("GET", used, None, {}, codes[0]),
        ("GET", used, None, {}, codes[0]),  # used again: refused, and still not logged
        ("GET", f"/login?code={codes[1]}x", None, {}, codes[1]),
        ("POST", "/login", urlencode({"token": token, "next": "/"}),
         {**FORM, "Origin": portal.base_url}, token),
    ]
    for method, path, body, headers, _secret in requests:
        send(portal, method, path, body, headers)
    assert send(portal, "GET", requests[0][1]).status == 303  # scripts still sign in
    # The access log writes its line after each response: wait for every one (bounded).
    wait_until(lambda: sum(bool(ACCESS_LINE.search(line)) for line in portal.log)
               >= len(requests) + 1)
    log = "".join(portal.log)
    with attacks("Secrets in logs") as seen:
        for method, path, _body, _headers, secret in requests:
            seen.refused_if(secret not in log, (method, path.replace(secret, "<the secret>")))
    assert "/login?token=<secret>" in log and "/login?code=<secret>" in log  # the lines are there


ACCESS_LINE = re.compile(r'"(GET|POST) /(login|\?token)')
"""uvicorn's access line of one of the requests above."""
