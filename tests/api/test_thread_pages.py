"""The paged thread on the pages without a browser: "Show earlier" on both sides (the
fragment, and without script the page's window), the owner's panel kept from its first
comment on, and a reconnecting participant page given what it missed, never a gap."""

from __future__ import annotations

import re

from litestar import Litestar

from tests.api.test_team_pages import HTMX, Client, agent, injected, owner, web, widened

__all__ = ["web"]  # the fixture, used by name


def comment_ids(web: Client, iid: str, count: int) -> list[int]:
    """The thread's comment ids, oldest first (it holds `count`)."""
    ids: list[int] = []
    before = ""
    while len(ids) < count:
        page = web.get(f"/api/interactions/{iid}/comments{before}", headers=agent()).json()
        ids = [c["id"] for c in page["comments"]] + ids
        before = f"?before={page['comments_before']}"
    return ids


def items(html: str) -> list[int]:
    return [int(found) for found in re.findall(r'data-comment-id="(\d+)"', html)]


def posted(web: Client, app: Litestar, iid: str, secrets: dict[str, str], count: int) -> list[int]:
    """`count` comments posted through the participants' API (not rate limited here)."""
    injected(app, "team")._comments.limit = 10**6
    names = sorted(secrets)
    for n in range(count):
        reply = web.post(f"/api/d/{secrets[names[n % len(names)]]}/comments", json={"text": f"c{n}"})
        assert reply.status_code == 201
    return comment_ids(web, iid, count)


def test_a_reconnecting_page_gets_what_it_missed_and_never_a_gap(web: Client,
                                                                 app: Litestar) -> None:
    iid, secrets = widened(web)
    ids = posted(web, app, iid, secrets, 150)
    live = f"/d/{secrets['Bob']}/live"
    missed = web.get(f"{live}?after={ids[140]}", headers=HTMX).text
    assert "beforeend:#thread-list" in missed and items(missed) == ids[141:]
    fresh = web.get(live, headers=HTMX).text  # a page that had nothing: the newest page
    assert 'id="thread-list"' in fresh and 'hx-swap-oob="true"' in fresh
    assert items(fresh) == ids[130:] and 'data-testid="show-earlier"' in fresh
    away = web.get(f"{live}?after={ids[10]}", headers=HTMX).text  # 139 missed: replaced
    assert "beforeend:#thread-list" not in away and items(away) == ids[50:]
    assert f"before={ids[50]}" in away


def test_show_earlier_brings_the_page_before_on_both_sides(web: Client, app: Litestar) -> None:
    iid, secrets = widened(web)
    ids = posted(web, app, iid, secrets, 45)
    for comments in (f"/d/{secrets['Bob']}/comments", f"/choice/{iid}/comments"):
        earlier = web.get(f"{comments}?before={ids[25]}", headers={**HTMX, **owner(web)})
        assert earlier.status_code == 200 and items(earlier.text) == ids[5:25], comments
        assert f"before={ids[5]}" in earlier.text
        # (a `replace` of the number in the URL also hit the random link or id at times)
        first = web.get(f"{comments}?before={ids[5]}", headers={**HTMX, **owner(web)})
        assert items(first.text) == ids[:5] and "show-earlier" not in first.text
    page = web.get(f"/d/{secrets['Bob']}?before={ids[25]}").text  # without script: the window
    assert items(page) == ids[5:25] and 'data-testid="show-newest"' in page
    panel = web.get(f"/choice/{iid}/team?since={ids[5]}", headers={**HTMX, **owner(web)}).text
    assert items(panel) == ids[5:]  # what the owner brought in stays
    assert items(web.get(f"/choice/{iid}/team", headers={**HTMX, **owner(web)}).text) == ids[25:]
    assert items(web.get(f"/choice/{iid}/team?since=junk", headers=owner(web)).text) == ids[25:]
