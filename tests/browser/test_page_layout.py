"""How code, headings and the tally read on the page, measured in Chromium's own layout: a
command wraps at its spaces only on a 390 px phone (no token split over two lines, inline
code and ids included), a code box that scrolls sideways shows a cue on the side with more
(light and dark, read from the pixels), a model's headings keep their order of sizes under
the title, each voter's name sits with their own option, a hook question shows its agent and
project with the session id folded away, and an answer is said once."""

from __future__ import annotations

import struct
import uuid
import zlib
from collections.abc import Callable, Iterator
from itertools import pairwise

import pytest
from playwright.sync_api import Locator, Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question, shoot
from tests.browser.team import TEAM_DESKTOP, TEAM_PHONE, links, widen
from tests.hook_process import claude, question_of, run_hook
from tests.portal_process import PortalProcess

PHONE_390 = {"width": 390, "height": 844}
COMMAND = ("npm test -- --watch=false --coverage && rm -rf coverage/lcov-report/tmp "
           "&& echo 5f3c2a10-8d1e-4c7b-9a2f-0e6d4b1c9a77")
SESSION = "5f3c2a10-8d1e-4c7b-9a2f-0e6d4b1c9a77"  # what tests/hook_process.py's payload sends

SPLIT_TOKENS = """(selector) => {
  // Every whitespace-separated token of each element's text, as Chromium laid it out: a
  // token whose pieces sit on more than one line box was broken inside.
  const split = [];
  for (const el of document.querySelectorAll(selector)) {
    const nodes = [], walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
    const text = nodes.map(n => n.data).join("");
    const at = offset => {  // the text node and the offset in it of a character of `text`
      for (const node of nodes) { if (offset <= node.data.length) return [node, offset];
                                  offset -= node.data.length; }
    };
    for (const match of text.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(...at(match.index));
      range.setEnd(...at(match.index + match[0].length));
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                           .map(r => Math.round(r.top)));
      if (tops.size > 1) split.push(match[0]);
    }
  }
  return split;
}"""

LINES_OF = """(el) => {  // how many line boxes the element's text takes
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].filter(r => r.width > 0)
                 .map(r => Math.round(r.top))).size;
}"""


@pytest.fixture
def language(client: PortalClient) -> Iterator[Callable[[str], object]]:
    """`language("zh")` sets the portal's language for the rest of the test; put back after."""
    before = client.settings()["language"]
    yield lambda code: client.save_settings({"language": code})
    client.save_settings({"language": before})


# -- A. code never breaks inside a token ---------------------------------------------------------
def test_a_command_wraps_at_its_spaces_only_on_a_390_px_phone(
        open_page: OpenPage, portal: PortalProcess, client: PortalClient) -> None:
    name = f"wrap-{uuid.uuid4().hex[:8]}"
    hook = run_hook(portal, claude("Bash", {"command": COMMAND, "description": "Test, clean up"},
                                   cwd=f"/home/dev/{name}"), CHOICE_HOOK_WAIT_SECONDS="60")
    try:
        iid = str(question_of(client, name, hook)["interaction_id"])
        for scheme in ("light", "dark"):
            page = open_page(f"/choice/{iid}", viewport=PHONE_390, color_scheme=scheme)
            block = page.get_by_test_id("prompt").locator("pre code")
            expect(block).to_have_text(COMMAND)
            assert block.evaluate(LINES_OF) > 1  # it does wrap on a phone: the check means something
            assert page.evaluate(SPLIT_TOKENS, "[data-testid=prompt] pre code") == []
            assert page.evaluate(SPLIT_TOKENS, "#interaction :not(pre) > code") == []
            # the uuid is longer than the line: it scrolls in the box, never out of the page
            assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
            shoot(page, f"command-wraps-at-spaces-phone-{scheme}")
    finally:
        hook.kill()


def test_long_inline_code_and_a_label_with_its_value_stay_whole_in_chinese(
        open_page: OpenPage, client: PortalClient, language: Callable[[str], object]) -> None:
    path = "/srv/releases/2026-11-29/billing-service/config/production.override.yaml"
    iid = client.create(question(
        title="Ship `--watch=false` to `5f3c2a10-8d1e-4c7b-9a2f-0e6d4b1c9a77`?",
        prompt=f"The config at `{path}` sets `--max-old-space-size=4096 --watch=false`, and "
               f"the session `{SESSION}` asked for it.",
        context={"agent": "Claude Code", "project": "billing", "conversation_id": SESSION,
                 "tool": "Bash"}))["interaction_id"]
    language("zh")
    page = open_page(f"/choice/{iid}", viewport=PHONE_390)
    page.get_by_test_id("asked-details").locator("summary").click()
    expect(page.get_by_test_id("session-id")).to_be_visible()
    for where in ("h1 code", "[data-testid=prompt] code", "[data-testid=asked-details] dt",
                  "[data-testid=asked-details] code"):
        assert page.evaluate(SPLIT_TOKENS, where) == [], where
    labels = page.get_by_test_id("asked-details").locator("dt")
    expect(labels).to_have_text(["工具", "会话"])
    for label in labels.all():  # 会话 stays one word on one line
        assert label.evaluate("(dt) => dt.getClientRects().length") == 1
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    shoot(page, "inline-code-whole-phone-zh")


# -- A. a box that scrolls sideways says so ----------------------------------------------------
DIFF = ("```diff\n--- a/lib/invoice.rb\n+++ b/lib/invoice.rb\n@@ -1,2 +1,2 @@\n"
        "-def invoice_total(subtotal)\n"
        "+def invoice_total(subtotal, tax_rate = BigDecimal('0'))  # rounded half-even to the "
        "cent, as the accounting export does\n"
        " a\n b\n c\n d\n e\n```")


def pixel(png: bytes, x: int, y: int) -> tuple[int, int, int]:
    """The RGB of one pixel of a Chromium screenshot (8-bit RGB or RGBA PNG, not interlaced)."""
    width, _height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", png[16:29])
    assert (depth, colour, interlace) in ((8, 2, 0), (8, 6, 0)), (depth, colour, interlace)
    channels = 3 if colour == 2 else 4
    data, at = b"", 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        if kind == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    raw, stride = zlib.decompress(data), width * channels
    previous = bytearray(stride)
    for row in range(y + 1):  # undo each row's filter up to the one asked for
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                nearest = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                              (abs(guess - corner), 2, corner))[2]
                line[i] = (line[i] + nearest) & 255
        previous = line
    return tuple(previous[x * channels:x * channels + 3])  # type: ignore[return-value]


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours."""
    def luminance(rgb: tuple[int, int, int]) -> float:
        linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + .055) / 1.055) ** 2.4 for c in rgb]
        return .2126 * linear[0] + .7152 * linear[1] + .0722 * linear[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + .05) / (low + .05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_diff_wider_than_a_phone_shows_a_cue_on_the_side_it_scrolls_to(
        open_page: OpenPage, client: PortalClient, scheme: str) -> None:
    iid = client.create(question(title="Allow Edit: lib/invoice.rb", prompt=DIFF))["interaction_id"]
    page = open_page(f"/choice/{iid}", viewport=PHONE_390, color_scheme=scheme)
    box = page.get_by_test_id("prompt").locator("pre")
    width, height, scrolls = box.evaluate("(pre) => [pre.clientWidth, pre.clientHeight, "
                                          "pre.scrollWidth - pre.clientWidth]")
    assert scrolls > 50  # the long line is cut at the edge
    middle = height // 2 + round(height * .2)  # a short line's row: nothing drawn at the edges

    def edges() -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        shot = box.screenshot(animations="disabled", caret="hide")
        return pixel(shot, 1, middle), pixel(shot, width - 2, middle)

    left_start, right_start = edges()
    box.evaluate("(pre) => { pre.scrollLeft = pre.scrollWidth; }")
    left_end, right_end = edges()
    shoot(page, f"diff-scroll-cue-phone-{scheme}")
    # More to the right: a cue at the right edge that is gone once scrolled to the end, and
    # the other way round on the left; each edge against the plain box behind it.
    assert contrast(right_start, right_end) >= 1.5, (right_start, right_end)
    assert contrast(left_end, left_start) >= 1.5, (left_end, left_start)


# -- C. headings keep their order -------------------------------------------------------------
PLAN = ("## Plan: add invoice tax\n\nAdd a tax line.\n\n### Steps\n\n1. Migrate.\n2. Compute.\n\n"
        "#### Risks\n\nRounding.\n\n# Out of scope\n\nRefunds.\n\n##### Notes\n\nNone.\n\n"
        "###### Last\n\nEnd.")
SIZES = """(el) => ["h1", "h2", "h3", "h4", "h5", "h6"].map(
  tag => parseFloat(getComputedStyle(el.querySelector(tag)).fontSize))"""


@pytest.mark.parametrize("phone", [False, True])
def test_a_models_headings_shrink_in_order_all_below_the_title(
        open_page: OpenPage, client: PortalClient, phone: bool) -> None:
    iid = client.create(question(title="Approve the plan?", prompt=PLAN))["interaction_id"]
    page = open_page(f"/choice/{iid}", viewport=PHONE_390 if phone else TEAM_DESKTOP)
    sizes = page.get_by_test_id("prompt").evaluate(SIZES)
    title = page.get_by_test_id("title").evaluate("(h) => parseFloat(getComputedStyle(h).fontSize)")
    assert all(bigger > smaller for bigger, smaller in pairwise(sizes)), sizes
    assert sizes[0] < title, (sizes, title)
    shoot(page, "headings-in-order-" + ("phone" if phone else "desktop"))


# -- D. each voter under their own option --------------------------------------------------------
@pytest.mark.usefixtures("team_list")
@pytest.mark.parametrize("phone", [False, True])
def test_each_voter_sits_with_their_own_options_label(
        open_page: OpenPage, client: PortalClient, phone: bool) -> None:
    iid = client.create(question())["interaction_id"]
    people = links(widen(client, iid))
    for person, option_id in (("Alice Johnson", "pg"), ("Bob Smith", "lite"), ("Carol Lee", "pg")):
        client.call("PUT", f"/api/d/{people[person].rsplit('/', 1)[1]}/vote",
                    {"option_ids": [option_id]})
    page = open_page(f"/choice/{iid}", viewport=TEAM_PHONE if phone else TEAM_DESKTOP)
    rows = page.get_by_test_id("owner-tally")
    expect(rows.nth(1).get_by_test_id("voters")).to_have_text("Bob Smith")
    labels = [box(rows.nth(n).get_by_test_id("owner-tally-label")) for n in range(rows.count())]
    for n, label in enumerate(labels[:-1]):
        voters = rows.nth(n).get_by_test_id("voters")
        if not voters.count():
            continue
        names, next_label = box(voters), labels[n + 1]
        assert label["bottom"] <= names["top"] and names["bottom"] <= next_label["top"]
        # nearer its own label than the next one: it reads as this option's
        assert names["top"] - label["bottom"] < next_label["top"] - names["bottom"], (
            label, names, next_label)
    shoot(page, "voters-under-their-option-" + ("phone" if phone else "desktop"))


def box(element: Locator) -> dict[str, float]:
    found = element.bounding_box()
    assert found is not None
    return {"top": found["y"], "bottom": found["y"] + found["height"]}


# -- F. a hook page: agent and project, the session folded --------------------------------------
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_hook_page_shows_its_agent_and_project_and_folds_the_session_away(
        open_page: OpenPage, portal: PortalProcess, client: PortalClient,
        language: Callable[[str], object], lang: str) -> None:
    name = f"invoices-{uuid.uuid4().hex[:8]}"
    language(lang)
    hook = run_hook(portal, claude("Bash", {"command": "npm test", "description": "Run tests"},
                                   cwd=f"/home/dev/{name}"), CHOICE_HOOK_WAIT_SECONDS="60")
    try:
        iid = str(question_of(client, name, hook)["interaction_id"])
        page = open_page(f"/choice/{iid}", viewport=PHONE_390)
        asked = page.locator(".asked")
        expect(asked).to_contain_text("Claude Code")
        expect(asked).to_contain_text(name)
        interaction = page.get_by_test_id("interaction")
        assert SESSION not in visible_text(page)
        expect(page.get_by_test_id("session-id")).to_be_hidden()
        details = page.get_by_test_id("asked-details")
        details.locator("summary").click()
        expect(page.get_by_test_id("session-id")).to_have_text(SESSION)
        expect(page.get_by_test_id("session-id")).to_be_visible()
        expect(interaction).to_contain_text(f"/home/dev/{name}")  # where it runs stays in sight
        shoot(page, f"hook-agent-and-project-phone-{lang}")
    finally:
        hook.kill()


def visible_text(page: Page) -> str:
    """What a person can read of the question: the rendered text, closed parts left out."""
    return str(page.get_by_test_id("interaction").evaluate("(el) => el.innerText"))


# -- E. an answer said once ----------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_answered_page_says_the_answer_once(
        open_page: OpenPage, client: PortalClient, language: Callable[[str], object], lang: str) -> None:
    language(lang)
    iid = client.create(question())["interaction_id"]
    client.respond(iid, {"selected_ids": ["duck"], "global_annotation": "Only for the reports."})
    for phone in (False, True):
        page = open_page(f"/choice/{iid}", viewport=PHONE_390 if phone else TEAM_DESKTOP)
        outcome = page.get_by_test_id("outcome")
        expect(outcome).to_be_visible()
        said = str(outcome.evaluate("(el) => el.innerText"))
        assert said.count("DuckDB") == 1, said
        assert said.count("Only for the reports.") == 1, said
        expect(page.get_by_test_id("outcome-title")).to_have_text(
            {"en": "Answered", "zh": "已回答"}[lang])
        shoot(page, f"answered-once-{'phone' if phone else 'desktop'}-{lang}")
