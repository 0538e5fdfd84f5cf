"""What the team sees of the owner's decision, in a real browser: after Accept the
participant's page names the proposed option (even when the agent named it only in words),
who decided and how; after Edit it shows the edited answer, in Chinese too; and the review's
Accept | Edit | Defer buttons keep their places when Edit or Defer opens, with one Defer
button. Screenshots under tests/artifacts/decision-visible-*.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.browser.team import TEAM_DESKTOP, TEAM_PHONE, links, shoot_dialog, widen
from tests.browser.test_accessibility import AXE_VERSION, violations
from tests.npm_cache import npm_package
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.usefixtures("team_list")

LIVE_MS = 8_000
SUMMARY = "Alice and Bob back PostgreSQL: the team runs it already. Carol asked about backups."


@pytest.fixture(scope="module")
def portal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalProcess]:
    process = PortalProcess(tmp_path_factory.mktemp("portal"),
                            CHOICE_SUMMARY_SECONDS="600").start()
    yield process
    process.stop()


def in_review(client: PortalClient, answer: str, **body: object) -> tuple[str, dict[str, str]]:
    """A widened question whose candidate has come: `answer` in words, and the request's
    `body` fields (a language, a selection mode)."""
    iid = client.create(question(**body))["interaction_id"]
    people = links(widen(client, iid))
    client.call("POST", f"/api/interactions/{iid}/review", {})
    client.call("POST", f"/api/interactions/{iid}/candidate",
                {"candidate_summary": SUMMARY, "candidate_answer": answer})
    return iid, people


def test_after_accept_the_team_sees_the_proposed_option_who_decided_and_how(
        open_page: OpenPage, client: PortalClient) -> None:
    iid, people = in_review(client, "PostgreSQL")  # named in words only, as agents often do
    alice = open_page(people["Alice Johnson"], signed_in=False, viewport=TEAM_PHONE)
    owner = open_page(f"/choice/{iid}", viewport=TEAM_DESKTOP)
    expect(owner.get_by_test_id("candidate-options")).to_have_text("PostgreSQL")
    owner.get_by_test_id("accept").click()

    outcome = alice.get_by_test_id("team-outcome")
    expect(outcome.get_by_test_id("team-outcome-text")).to_have_text(
        "The person asking decided:", timeout=LIVE_MS)  # over the page's socket
    expect(outcome.get_by_test_id("team-outcome-choices")).to_have_text("PostgreSQL")
    expect(outcome.get_by_test_id("team-outcome-decided-by")).to_have_text("the person asking")
    expect(outcome.get_by_test_id("team-outcome-source")).to_have_text(
        "accepted the agent's summary of the discussion")
    expect(outcome.get_by_test_id("team-outcome-summary")).to_have_text(SUMMARY)
    shoot(alice, "decision-visible-accepted-phone")
    seen = client.call("GET", "/api/d/" + people["Bob Smith"].rsplit("/", 1)[1])["outcome"]
    assert (seen["selected_labels"], seen["decided_by"], seen["source"]) == (
        ["PostgreSQL"], "owner", "discussion_extraction")


def test_edit_starts_from_the_proposal_and_the_team_reads_the_edit_in_chinese(
        open_page: OpenPage, client: PortalClient) -> None:
    iid, people = in_review(client, "PostgreSQL", language="zh", selection_mode="hybrid",
                            min_selections=0)
    owner = open_page(f"/choice/{iid}", viewport=TEAM_DESKTOP)
    owner.get_by_test_id("edit-open").click()
    edit = owner.get_by_test_id("edit-form")
    expect(edit.locator("[data-option-id=pg] [data-testid=option-input]")).to_be_checked()
    edit.locator("[data-option-id=lite] [data-testid=option-label]").click()
    edit.get_by_test_id("final-answer").fill("先用 SQLite：一个文件，不需要服务器。")
    edit.get_by_test_id("save-edit").click()
    owner.get_by_test_id("rationale-input").fill("这个季度运维没有时间。")
    owner.get_by_test_id("save-answer").click()
    expect(owner.get_by_test_id("provenance")).to_be_visible()

    alice = open_page(people["Alice Johnson"], signed_in=False, viewport=TEAM_DESKTOP)
    outcome = alice.get_by_test_id("team-outcome")
    expect(outcome.get_by_test_id("team-outcome-text")).to_have_text("提问者的决定：")
    expect(outcome.get_by_test_id("team-outcome-choices")).to_have_text("SQLite")
    expect(outcome.get_by_test_id("team-outcome-answer")).to_have_text(
        "先用 SQLite：一个文件，不需要服务器。")
    expect(outcome.get_by_test_id("team-outcome-source")).to_have_text("修改过：与智能体的提议不同")
    expect(outcome.get_by_test_id("team-outcome-rationale")).to_have_text("这个季度运维没有时间。")
    shoot(alice, "decision-visible-edited-zh-desktop")


def _places(page: Page) -> dict[str, tuple[float, float]]:
    """Where each review button sits on the page (scrolling does not move it here)."""
    places: dict[str, tuple[float, float]] = page.evaluate(
        """() => Object.fromEntries(['accept', 'edit-open', 'defer-open'].map(id => {
             const box = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
             return [id, [Math.round(box.x), Math.round(box.y + window.scrollY)]];
           }))""")
    return {name: (x, y) for name, (x, y) in places.items()}


@pytest.mark.parametrize("viewport", [TEAM_DESKTOP, TEAM_PHONE], ids=["desktop", "phone"])
def test_review_buttons_keep_their_places_and_defer_shows_one_defer_button(
        open_page: OpenPage, client: PortalClient, viewport: ViewportSize) -> None:
    iid, _ = in_review(client, "PostgreSQL")
    owner = open_page(f"/choice/{iid}", viewport=viewport)
    box = owner.get_by_test_id("candidate-review")
    before = _places(owner)
    box.get_by_test_id("edit-open").click()
    expect(box.get_by_test_id("edit-form")).to_be_visible()
    assert _places(owner) == before
    box.get_by_test_id("edit-open").click()
    box.get_by_test_id("defer-open").click()
    expect(box.get_by_test_id("defer-form")).to_be_visible()
    assert _places(owner) == before
    expect(box.get_by_role("button", name="Defer", exact=True)).to_have_count(0)
    expect(box.get_by_text("Defer", exact=True)).to_have_count(1)  # the row's own
    expect(box.get_by_test_id("defer-submit")).to_have_text("Confirm the deferral")
    shoot(owner, f"decision-visible-defer-open-{viewport['width']}")


def _vote(client: PortalClient, link: str, option_id: str) -> None:
    """A participant votes through their link's API (what a chat bot holding it does)."""
    client.call("PUT", f"/api/d/{link.rsplit('/', 1)[1]}/vote", {"option_ids": [option_id]})


@pytest.mark.parametrize(("language", "joined", "opened", "never"), [
    ("en", "Alice Johnson, 王芳", "Opened", "Not opened yet"),
    ("zh", "Alice Johnson、王芳", "打开", "尚未打开")])
def test_the_team_panel_says_who_voted_opened_and_joins_names_the_languages_way(
        open_page: OpenPage, client: PortalClient, language: str, joined: str, opened: str,
        never: str) -> None:
    client.save_settings({"team": [{"name": "Alice Johnson"}, {"name": "王芳"},
                                   {"name": "Bob Smith"}]})
    iid = client.create(question(language=language))["interaction_id"]
    people = links(widen(client, iid))
    _vote(client, people["Alice Johnson"], "pg")
    _vote(client, people["王芳"], "pg")
    owner = open_page(f"/choice/{iid}", viewport=TEAM_DESKTOP)
    row = owner.locator("[data-testid=owner-tally][data-option-id=pg]")
    expect(row.get_by_test_id("voters")).to_have_text(joined)
    for name in ("Alice Johnson", "王芳"):
        person = owner.locator("[data-testid=invited-person]", has_text=name)
        expect(person).to_have_attribute("data-opened", "true")
        expect(person.get_by_test_id("invited-state")).to_contain_text(opened)
        expect(person.get_by_test_id("invited-state")).not_to_contain_text(never)
    bob = owner.locator("[data-testid=invited-person]", has_text="Bob Smith")
    expect(bob.get_by_test_id("invited-state")).to_have_text(never)
    alice = open_page(people["Bob Smith"], signed_in=False, viewport=TEAM_PHONE)
    expect(alice.locator("[data-testid=tally]").first.get_by_test_id("voters")).to_have_text(
        joined)
    shoot(owner, f"decision-visible-team-panel-{language}")


LONG = ("I would go with PostgreSQL: we already run it for billing, the backups are done "
        "nightly, the on-call people know how to fix it at three in the morning, and the "
        "second writer the roadmap promises for next quarter would not fit SQLite. ")


@pytest.mark.parametrize("viewport", [TEAM_DESKTOP, TEAM_PHONE], ids=["desktop", "phone"])
def test_the_owners_thread_shows_every_comment_whole_down_to_the_newest(
        open_page: OpenPage, client: PortalClient, viewport: ViewportSize) -> None:
    iid = client.create(question())["interaction_id"]
    people = links(widen(client, iid))
    secret = people["Alice Johnson"].rsplit("/", 1)[1]
    for n in range(1, 4):
        client.call("POST", f"/api/d/{secret}/comments", {"text": f"{n}. {LONG * n}"})
    owner = open_page(f"/choice/{iid}", viewport=viewport)
    panel = owner.get_by_test_id("team-panel")
    expect(panel.get_by_test_id("comment-count")).to_have_text("3 comments")
    thread = panel.get_by_test_id("thread")
    expect(thread.get_by_test_id("comment")).to_have_count(3)
    # The thread is no scroll box of its own: each comment is laid out whole in the page.
    assert thread.evaluate("t => t.scrollHeight <= t.clientHeight + 1")
    newest = thread.get_by_test_id("comment").last
    expect(newest.get_by_test_id("comment-text")).to_have_text(f"3. {LONG * 3}".strip())
    assert newest.evaluate("c => c.getBoundingClientRect().height >= c.scrollHeight")
    shoot(owner, f"decision-visible-thread-{viewport['width']}")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_widen_dialog_fits_1280x800_in_web_words_with_the_agents_hint_dimmed(
        open_page: OpenPage, client: PortalClient, language: str) -> None:
    iid = client.create(question(
        language=language, widen_hint="[WIDEN-HINT] Alice runs the databases: ask her."))[
        "interaction_id"]
    owner = open_page(f"/choice/{iid}", viewport=TEAM_DESKTOP)
    expect(owner.get_by_test_id("widen-hint")).to_have_text("Alice runs the databases: ask her.")
    owner.get_by_test_id("widen-open").click()
    dialog = owner.get_by_test_id("widen-dialog")
    expect(dialog.get_by_test_id("widen-form")).to_be_visible()
    for action in ("widen-submit", "widen-cancel"):  # in sight without scrolling
        expect(dialog.get_by_test_id(action)).to_be_in_viewport(ratio=1)
    hint = dialog.get_by_test_id("widen-dialog-hint")
    expect(hint).to_contain_text("Alice runs the databases: ask her.")
    expect(hint).not_to_contain_text("WIDEN-HINT")
    assert hint.evaluate("e => getComputedStyle(e).color") != dialog.evaluate(
        "e => getComputedStyle(e).color")  # dimmed against the dialog's text
    expect(dialog).not_to_contain_text("Type cancel")
    shoot_dialog(owner, f"decision-visible-widen-dialog-{language}-1280")


@pytest.fixture(scope="module")
def axe_script() -> str:
    home = npm_package("axe-core", AXE_VERSION, "the accessibility scans")
    return (home / "node_modules" / "axe-core" / "axe.min.js").read_text()


def test_the_new_states_pass_axe_light_and_dark_in_both_languages(
        open_page: OpenPage, client: PortalClient, axe_script: str) -> None:
    """The participant's decided page, the review with Edit and Defer open, and the widen
    dialog with the agent's hint: no serious or critical axe-core finding."""
    found: dict[str, list[dict[str, object]]] = {}
    for language in ("en", "zh"):
        decided, people = in_review(client, "PostgreSQL", language=language)
        review = client.call("GET", f"/api/interactions/{decided}/review")
        client.call("POST", f"/api/interactions/{decided}/resolve", {
            "final_answer": "PostgreSQL", "selected_ids": review["candidate_selected_ids"]})
        reviewing, _ = in_review(client, "PostgreSQL", language=language)
        pending = client.create(question(language=language, widen_hint="[WIDEN-HINT] Ask Alice."))
        for scheme in ("light", "dark"):
            where = f"{language}, {scheme}"
            page = open_page(people["Bob Smith"], signed_in=False, bypass_csp=True,
                             color_scheme=scheme)
            expect(page.get_by_test_id("team-outcome-choices")).to_be_visible()
            found[f"decided ({where})"] = violations(page, axe_script)
            owner = open_page(f"/choice/{reviewing}", bypass_csp=True, color_scheme=scheme)
            owner.get_by_test_id("edit-open").click()
            owner.get_by_test_id("defer-open").click()
            found[f"review ({where})"] = violations(owner, axe_script)
            owner.goto(owner.url.replace(reviewing, pending["interaction_id"]))
            owner.get_by_test_id("widen-open").click()
            expect(owner.get_by_test_id("widen-dialog-hint")).to_be_visible()
            found[f"widen dialog ({where})"] = violations(owner, axe_script)
    assert {name: v for name, v in found.items() if v} == {}
