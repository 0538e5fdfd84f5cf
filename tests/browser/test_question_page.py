"""What the question page shows a person: Markdown in the rationale too, code in titles,
styled quotes, a far deadline as its date and time from the server, a hitl question once,
the way to the next waiting question after deciding, and focus rings a person can see."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import DESKTOP, PHONE, due_text, epoch_ms, question, shoot
from tests.portal_process import PortalProcess

CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const v = rgb(c).map((x) => { x /= 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  let back = el.parentElement;
  const clear = (e) => getComputedStyle(e).backgroundColor === "rgba(0, 0, 0, 0)";
  while (back && clear(back)) back = back.parentElement;
  const a = lum(getComputedStyle(el).outlineColor);
  const b = lum(getComputedStyle(back || document.body).backgroundColor);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_the_rationale_is_markdown_and_a_quote_is_styled(open_page: OpenPage,
                                                         client: PortalClient) -> None:
    options = [{"id": "redis", "label": "Redis `7`", "recommended": True,
                "rationale": "Fits the **3-replica** deployment"},
               {"id": "pg", "label": "PostgreSQL"}]
    iid = client.create(question(title="Cache: `redis` or <b>pg</b>?", options=options,
                                 prompt="> The ops team asked for one store.\n\nWhich?"))
    page = open_page(f"/choice/{iid['interaction_id']}")
    rationale = page.get_by_test_id("rationale")
    expect(rationale.locator("strong")).to_have_text("3-replica")
    expect(rationale).to_have_text("Why: Fits the 3-replica deployment")
    title = page.get_by_test_id("title")
    expect(title.locator("code")).to_have_text("redis")
    expect(title).to_have_text("Cache: redis or <b>pg</b>?")  # the tag stays text
    expect(title.locator("b")).to_have_count(0)
    expect(page.get_by_test_id("option-label").first.locator("code")).to_have_text("7")
    quote = page.get_by_test_id("prompt").locator("blockquote")
    assert quote.evaluate("q => parseFloat(getComputedStyle(q).borderLeftWidth)") >= 2
    shoot(page, "question-markdown-desktop")


def test_the_server_renders_a_day_long_deadline_as_its_date_and_time(
        browser: Browser, portal: PortalProcess, client: PortalClient) -> None:
    created = client.create(question(timeout_seconds=86400))
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{portal.base_url}/login?token={portal.token}&next=/choice/{created['interaction_id']}")
        expect(page.get_by_test_id("countdown-text")).to_have_text(
            due_text(epoch_ms(created["expires_at"])))
        expect(page.get_by_test_id("countdown-clock")).to_have_count(0)
    finally:
        context.close()


def test_a_hitl_question_is_shown_once(open_page: OpenPage, client: PortalClient) -> None:
    asked = client.create({"question": "Deploy the release to production?",
                           "options": ["Yes", "No"]})
    page = open_page(f"/choice/{asked['interaction_id']}")
    expect(page.get_by_test_id("title")).to_have_text("Deploy the release to production?")
    expect(page.get_by_test_id("prompt")).to_have_count(0)
    assert page.locator("main").inner_text().count("Deploy the release") == 1


def test_after_deciding_the_page_leads_to_the_next_waiting_question(
        open_page: OpenPage, client: PortalClient) -> None:
    for done in client.list("active", 100)["interactions"]:  # earlier tests' questions
        client.cancel(done["interaction_id"])
    first = client.create(question(title="First"))["interaction_id"]
    later = client.create(question(title="Later", timeout_seconds=3600))["interaction_id"]
    sooner = client.create(question(title="Sooner", timeout_seconds=600))["interaction_id"]
    page = open_page(f"/choice/{first}")
    page.locator("[data-option-id=lite] [data-testid=option-label]").click()
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("outcome")).to_be_visible()
    expect(page.get_by_test_id("next-question-line")).to_contain_text("2 more questions are waiting")
    shoot(page, "outcome-next-question-desktop")
    page.get_by_test_id("next-question").click()
    expect(page.get_by_test_id("title")).to_have_text("Sooner")
    client.cancel(sooner)
    client.cancel(later)
    page.goto(page.url.replace(sooner, first))
    expect(page.get_by_test_id("all-done")).to_contain_text("you can close this tab")
    expect(page.get_by_test_id("next-question")).to_have_count(0)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_focus_rings_stand_out_three_to_one(open_page: OpenPage, client: PortalClient,
                                            scheme: str) -> None:
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}", color_scheme=scheme)
    page.keyboard.press("Tab")
    page.get_by_test_id("submit").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    focused = page.locator(":focus-visible")
    assert focused.evaluate(CONTRAST) >= 3


def test_a_long_prompt_on_a_phone_keeps_the_options_reachable(open_page: OpenPage,
                                                              client: PortalClient) -> None:
    long_prompt = "\n\n".join(f"Paragraph {n}: " + "the details of this choice " * 12
                              for n in range(12))
    iid = client.create(question(prompt=long_prompt))["interaction_id"]
    page = open_page(f"/choice/{iid}", phone=True)
    first_option = page.get_by_test_id("option").first
    assert first_option.bounding_box()["y"] < PHONE["height"]  # type: ignore[index]
    more = page.get_by_test_id("prompt-more")
    expect(more).to_be_visible()
    shoot(page, "question-long-prompt-phone")
    more.click()
    expect(page.get_by_test_id("prompt")).to_contain_text("Paragraph 11")
    assert page.get_by_test_id("prompt").evaluate("p => p.scrollHeight <= p.clientHeight + 1")


def test_a_code_block_wider_than_its_box_shows_it_scrolls(open_page: OpenPage,
                                                          client: PortalClient) -> None:
    wide = "```\n" + "docker run --rm -e SYNC_URL=https://sync.example.com/v1 " * 4 + "\n```"
    iid = client.create(question(prompt=f"Run this first:\n\n{wide}"))["interaction_id"]
    page = open_page(f"/choice/{iid}", phone=True)
    block = page.get_by_test_id("prompt").locator("pre")
    assert block.evaluate("b => b.scrollWidth > b.clientWidth")  # it does scroll sideways
    shadows = block.evaluate("b => getComputedStyle(b).backgroundImage")
    assert shadows.count("radial-gradient") == 2, shadows  # the edge with more to see
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_widen_hint_shows_without_its_tag_and_dim(open_page: OpenPage,
                                                       client: PortalClient) -> None:
    iid = client.create(question(widen_hint="[WIDEN-HINT] Two teams run databases here."))
    page = open_page(f"/choice/{iid['interaction_id']}")
    hint = page.get_by_test_id("widen-hint")
    expect(hint).to_have_text("Two teams run databases here.")
    title_colour = page.get_by_test_id("title").evaluate("t => getComputedStyle(t).color")
    assert hint.evaluate("h => getComputedStyle(h).color") != title_colour
