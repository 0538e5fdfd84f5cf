"""The team pages without a browser: a participant's page and forms (authorised by the link
alone, never a cookie), the owner's widen form, team panel and team list, and the sockets
(a participant's, and the owner's forwarding of discussions and reminders)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.exceptions import WebSocketDisconnect
from litestar.testing import TestClient

from choice.core.notifier import Change
from choice.core.service import InteractionService
from choice.web.live.discussion_feed import DiscussionFeeds
from tests.api.conftest import agent, ask, owner
from tests.reliability.faults import wait_until

Client = TestClient[Litestar]
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
HTMX = {**FORM, "HX-Request": "true"}
TEAM = [{"name": "Alice Johnson", "handle": "@alice"}, {"name": "Bob"}]


def injected(app: Litestar, name: str) -> Any:
    """What the app factory built and hands handlers by dependency injection."""
    return app.dependencies[name].dependency()


@pytest.fixture
def web(anonymous: Client) -> Iterator[Client]:
    """No token, no cookie: every owner request below sends its credential itself."""
    assert anonymous.put("/api/settings", json={"team": TEAM}, headers=agent()).status_code == 200
    yield anonymous


def widened(web: Client, **body: Any) -> tuple[str, dict[str, str]]:
    """A widened question and each participant's secret, by name."""
    iid = web.post("/api/interactions", json=ask(), headers=agent()).json()["interaction_id"]
    reply = web.post(f"/api/interactions/{iid}/widen", json=body, headers=agent())
    assert reply.status_code == 201, reply.text
    return iid, {p["name"]: p["link"].rsplit("/d/", 1)[1] for p in reply.json()["participants"]}


def test_a_participant_page_needs_only_the_link_and_sets_no_cookie(web: Client) -> None:
    iid, secrets = widened(web, note="Thoughts?")
    page = web.get(f"/d/{secrets['Bob']}")
    assert page.status_code == 200
    assert "set-cookie" not in page.headers and not web.cookies
    assert 'data-testid="discussion"' in page.text and "Thoughts?" in page.text
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert not re.search(r'href="/(choice|settings|\?|")', page.text)  # no owner page
    assert iid not in page.text  # nothing that reaches the owner's API
    for path in ("/", f"/choice/{iid}", "/settings", f"/choice/{iid}/team",
                 "/api/interactions", f"/api/interactions/{iid}"):
        assert web.get(path).status_code == 401, path
    assert web.get(f"/d/{secrets['Bob']}").status_code == 200  # opened again: audited once
    kinds = [e["kind"] for e in web.get(f"/api/interactions/{iid}/events",
                                        headers=agent()).json()["events"]]
    assert kinds.count("participant_opened") == 1


def test_a_title_s_code_spans_show_as_code_on_every_page_that_names_the_question(
        web: Client) -> None:
    iid = web.post("/api/interactions", json=ask(title="Rename `Interaction.opened`?"),
                   headers=agent()).json()["interaction_id"]
    secret = web.post(f"/api/interactions/{iid}/widen", json={}, headers=agent()).json()[
        "participants"][0]["link"].rsplit("/d/", 1)[1]
    shown = '<code class="inline">Interaction.opened</code>'
    for page in (web.get(f"/d/{secret}").text, web.get(f"/choice/{iid}", headers=owner(web)).text):
        assert shown in page and "`" not in page.split("<title>")[1].split("</title>")[0]


def test_a_participant_form_from_another_site_is_refused(web: Client) -> None:
    iid, secrets = widened(web)
    for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
        refused = web.post(f"/d/{secrets['Bob']}/comment", content="text=forged",
                           headers={**FORM, **headers})
        assert refused.status_code == 403
    assert web.get(f"/api/interactions/{iid}/team", headers=agent()).json()["comments"] == []


def test_every_link_that_opens_nothing_gets_the_same_calm_404(web: Client) -> None:
    iid, secrets = widened(web)
    assert web.delete(f"/api/interactions/{iid}/participants/"
                      f"{participant_id(web, iid, 'Bob')}", headers=agent()).status_code == 204
    pages = [web.get(f"/d/{path}") for path in ("A" * 32, "short", secrets["Bob"])]
    assert [page.status_code for page in pages] == [404, 404, 404]
    assert len({page.text for page in pages}) == 1
    assert 'data-testid="link-gone"' in pages[0].text
    assert web.post(f"/d/{secrets['Bob']}/comment", content="text=hi",
                    headers=FORM).status_code == 404


def participant_id(web: Client, iid: str, name: str) -> str:
    team = web.get(f"/api/interactions/{iid}/team", headers=agent()).json()
    return str(next(p["participant_id"] for p in team["participants"] if p["name"] == name))


def test_forms_without_script_post_and_redirect_back(web: Client) -> None:
    _iid, secrets = widened(web)
    base = f"/d/{secrets['Alice Johnson']}"
    posted = web.post(f"{base}/comment", content="text=PG%0Aplease&lang=zh", headers=FORM,
                      follow_redirects=False)
    assert (posted.status_code, posted.headers["location"]) == (303, f"{base}?lang=zh#thread")
    voted = web.post(f"{base}/vote", content="option=pg", headers=FORM, follow_redirects=False)
    assert (voted.status_code, voted.headers["location"]) == (303, f"{base}#vote")
    state = web.get(f"/api/d/{secrets['Alice Johnson']}").json()
    assert state["you"]["vote"] == ["pg"] and state["comments"][0]["text"] == "PG\nplease"
    cleared = web.post(f"{base}/vote", content="option=pg&action=clear", headers=FORM,
                       follow_redirects=False)
    assert cleared.status_code == 303
    assert web.get(f"/api/d/{secrets['Alice Johnson']}").json()["you"]["vote"] == []


def test_refused_forms_keep_what_was_typed_and_say_why(web: Client) -> None:
    _iid, secrets = widened(web)
    base = f"/d/{secrets['Bob']}"
    blank = web.post(f"{base}/comment", content="text=+++", headers=HTMX)
    assert blank.status_code == 422 and 'data-testid="comment-error"' in blank.text
    assert 'data-testid="comment-form"' in blank.text
    forged = web.post(f"{base}/vote", content="option=nope", headers=FORM)
    assert forged.status_code == 422 and "not one of this question" in forged.text
    assert 'data-testid="discussion"' in forged.text  # the whole page, without script
    for _ in range(20):
        web.post(f"{base}/comment", content="text=again", headers=HTMX)
    limited = web.post(f"{base}/comment", content="text=one+too+many", headers=HTMX)
    assert limited.status_code == 429 and "one too many" in limited.text
    assert "Too many comments in a minute" in limited.text
    for n in range(10):
        web.post(f"{base}/vote", content=f"option={'pg' if n % 2 else 'lite'}", headers=HTMX)
    flipped = web.post(f"{base}/vote", content="option=lite", headers=HTMX)
    assert flipped.status_code == 429 and 'data-testid="vote-error"' in flipped.text
    assert "changed your vote many times in a minute" in flipped.text
    assert web.get(f"/api/d/{secrets['Bob']}").json()["you"]["vote"] == ["pg"]


def test_an_ended_discussion_is_read_only_and_says_how_it_ended(web: Client) -> None:
    iid, secrets = widened(web)
    base = f"/d/{secrets['Bob']}"
    web.post(f"{base}/vote", content="option=lite", headers=FORM)
    web.post(f"/api/interactions/{iid}/response", json={"selected_ids": ["pg"]}, headers=agent())
    late = web.post(f"{base}/comment", content="text=late", headers=HTMX)
    assert late.status_code == 409 and late.headers["hx-retarget"] == "#discussion"
    page = web.get(base).text
    assert 'data-testid="team-outcome"' in page and "PostgreSQL" in page
    assert "<form" not in page and 'data-testid="my-vote-badge"' in page
    assert web.get(f"/api/d/{secrets['Bob']}").json()["comments"] == []


def test_the_owner_widens_from_the_plain_form(web: Client) -> None:
    iid = web.post("/api/interactions", json=ask(), headers=agent()).json()["interaction_id"]
    form = web.get(f"/choice/{iid}/widen", headers=owner(web))
    assert form.status_code == 200
    assert "Alice Johnson, Bob" in re.sub(r"<[^>]+>", "", form.text)  # the audience, as read
    cancelled = web.post(f"/choice/{iid}/widen", content="names=Cancel", headers={
        **FORM, **owner(web)}, follow_redirects=False)
    assert (cancelled.status_code, cancelled.headers["location"]) == (303, f"/choice/{iid}")
    long_name = "x" * 101
    bad = web.post(f"/choice/{iid}/widen", content=f"names=Bob%2C+{long_name}&note=kept",
                   headers={**FORM, **owner(web)})
    assert bad.status_code == 422 and 'data-testid="widen-errors"' in bad.text
    assert "at most 100 characters" in bad.text
    assert f'value="Bob, {long_name}"' in bad.text and ">kept</textarea>" in bad.text
    done = web.post(f"/choice/{iid}/widen", content="names=bob%2C+Zed&mode=continue&note=hi"
                    "&extra_seconds=3600", headers={**FORM, **owner(web)})
    assert done.status_code == 200
    found = re.findall(r'value="http://127\.0\.0\.1:8765/d/([\w-]{32})"', done.text)
    assert len(found) == 2 and "not on the team list" in done.text
    assert web.get(f"/d/{found[1]}").status_code == 200
    again = web.post(f"/choice/{iid}/widen", content="", headers={**FORM, **owner(web)})
    assert again.status_code == 409 and 'data-testid="widen-notice"' in again.text
    reply = web.get(f"/api/interactions/{iid}?wait=0", headers=agent()).json()
    assert reply["status"] == "widened" and reply["mode"] == "continue"


def test_the_owner_panel_comments_and_withdraws(web: Client) -> None:
    iid, secrets = widened(web)
    page = web.get(f"/choice/{iid}", headers=owner(web)).text
    assert 'data-testid="team-panel"' in page and 'data-testid="widen-open"' not in page
    posted = web.post(f"/choice/{iid}/comment", content="text=From+me", headers={
        **HTMX, **owner(web)})
    assert posted.status_code == 200 and 'hx-swap-oob="true"' in posted.text
    assert "From me" in posted.text
    post = web.post(f"/choice/{iid}/comment", content="text=", headers={**FORM, **owner(web)},
                    follow_redirects=False)
    assert post.status_code == 303
    blank = web.get(post.headers["location"], headers=owner(web))
    assert blank.status_code == 422 and 'data-testid="owner-comment-error"' in blank.text
    bob = participant_id(web, iid, "Bob")
    gone = web.post(f"/choice/{iid}/participants/{bob}/withdraw", headers={**HTMX, **owner(web)})
    assert gone.status_code == 200 and "Link withdrawn" in gone.text
    assert web.get(f"/d/{secrets['Bob']}").status_code == 404
    assert web.post(f"/choice/{iid}/participants/{bob}/withdraw",
                    headers={**FORM, **owner(web)}, follow_redirects=False).status_code == 303


def test_a_refused_team_row_says_what_is_wrong_in_plain_words(web: Client) -> None:
    rows = "team.name=Lee%2C+Carol&team.handle=&team.email="
    refused = web.post("/settings/team", content=rows, headers={**HTMX, **owner(web)})
    assert refused.status_code == 422
    shown = re.search(r'data-testid="team-row-error">([^<]*)<', refused.text)
    assert shown is not None, refused.text
    assert shown.group(1).startswith("&#39;Lee, Carol&#39; has a comma"), shown.group(1)
    assert "team[0]" not in shown.group(1) and "Value error" not in refused.text


def test_the_team_list_is_edited_in_settings(web: Client) -> None:
    page = web.get("/settings", headers=owner(web)).text
    assert page.count('data-testid="team-row"') == 3  # two people and a blank row
    duplicate = ("team.name=Alice+Johnson&team.handle=&team.email="
                 "&team.name=alice+johnson&team.handle=&team.email=")
    refused = web.post("/settings/team", content=duplicate, headers={**HTMX, **owner(web)})
    assert refused.status_code == 422
    assert "is in the team list twice" in refused.text and "Value error" not in refused.text
    assert [m["name"] for m in web.get("/api/settings", headers=agent()).json()["team"]] == [
        "Alice Johnson", "Bob"]
    rows = ("team.name=Alice+Johnson&team.handle=%40alice&team.email="
            "&team.name=Bob&team.handle=&team.email=&team.remove=1"
            "&team.name=Carol&team.handle=&team.email=carol%40example.com"
            "&team.name=&team.handle=&team.email=")
    saved = web.post("/settings/team", content=rows, headers={**FORM, **owner(web)},
                     follow_redirects=False)
    assert (saved.status_code, saved.headers["location"]) == (303, "/settings#team")
    assert web.get("/api/settings", headers=agent()).json()["team"] == [
        {"name": "Alice Johnson", "handle": "@alice", "email": None},
        {"name": "Carol", "handle": None, "email": "carol@example.com"}]


def test_the_owner_socket_forwards_discussions_and_reminders(web: Client, app: Litestar) -> None:
    iid, secrets = widened(web)
    service: InteractionService = injected(app, "service")
    with web.websocket_connect(f"/ws/choice/{iid}", headers=owner(web)) as socket:
        assert socket.receive_json()["status"] == "widened"
        web.post(f"/d/{secrets['Bob']}/comment", content="text=hi", headers=HTMX)
        # Bob never loaded his page: his comment opens his link first
        assert [socket.receive_json() for _ in range(2)] == [
            {"type": "team", "interaction_id": iid, "change": change}
            for change in ("opened", "comment")]
        row = web.blocking_portal.call(service.get, iid)
        web.blocking_portal.call(service.notifier.publish,
                        Change("interaction.reminder", iid, {"title": "Pick \u202ea",
                                                             "reason": "discussion_idle"}, row))
        assert socket.receive_json() == {"type": "reminder", "interaction_id": iid,
                                         "title": "Pick \u202ea\u202c",
                                         "path": f"/choice/{iid}", "reason": "discussion_idle",
                                         "seconds_left": None}
    with web.websocket_connect("/ws/portal", headers=owner(web)) as socket:
        web.blocking_portal.call(service.notifier.publish,
                        Change("interaction.reminder", iid, {"title": "Pick"}, row))
        assert socket.receive_json()["type"] == "reminder"


def test_a_participant_socket_gets_one_render_shared_by_every_page(
        web: Client, app: Litestar) -> None:
    iid, secrets = widened(web)
    feeds: DiscussionFeeds = injected(app, "feeds")
    renders: list[str] = []
    real = feeds._render
    feeds._render = lambda *args: renders.append("render") or real(*args)  # type: ignore[method-assign]
    alice, bob = (f"/ws/d/{secrets[name]}" for name in ("Alice Johnson", "Bob"))
    with web.websocket_connect(alice) as one, web.websocket_connect(alice) as two, \
            web.websocket_connect(bob) as three:
        sockets = (one, two, three)
        assert all(socket.receive_json()["type"] == "deadline" for socket in sockets)
        web.post(f"/d/{secrets['Bob']}/comment", content="text=%3Cimg+src%3Dx%3E",
                 headers=HTMX)
        texts = [socket.receive_text() for socket in sockets]
        assert len(set(texts)) == 1 and renders == ["render"]
        assert "&lt;img src=x&gt;" in texts[0] and "<img" not in texts[0]
        web.delete(f"/api/interactions/{iid}/participants/"
                   f"{participant_id(web, iid, 'Bob')}", headers=agent())
        people = one.receive_json()["html"]  # Bob's withdrawal changes who is in it
        assert 'id="people-list"' in people and ">Bob<" not in people
        assert ">Bob<" not in two.receive_json()["html"]
        with pytest.raises(WebSocketDisconnect) as closed:
            three.receive_text()  # Bob's link was withdrawn: his page is closed
        assert closed.value.code == 4404
    wait_until(lambda: feeds.watching == 0, 5, "the feed lets go of closed pages")


def test_a_socket_for_a_link_that_opens_nothing_is_closed(web: Client) -> None:
    with pytest.raises(WebSocketDisconnect) as closed, \
            web.websocket_connect(f"/ws/d/{'A' * 32}") as socket:
        socket.receive_json()
    assert closed.value.code == 4404


PREVIEWS = [
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    "TelegramBot (like TwitterBot)", "WhatsApp/2.23.20.0", "facebookexternalhit/1.1",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) SkypeUriPreview Preview/0.5",
]
BROWSER = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/150.0.0.0 Safari/537.36")


def test_a_chat_apps_link_preview_is_served_but_not_counted_as_opening(web: Client) -> None:
    iid, secrets = widened(web)
    for preview in PREVIEWS:
        assert web.get(f"/d/{secrets['Bob']}", headers={"user-agent": preview}).status_code == 200

    def opened() -> list[str]:
        return [e["detail"]["name"] for e in web.get(
            f"/api/interactions/{iid}/events", headers=agent()).json()["events"]
            if e["kind"] == "participant_opened"]

    assert opened() == []
    assert web.get(f"/d/{secrets['Bob']}", headers={"user-agent": BROWSER}).status_code == 200
    assert opened() == ["Bob"]

