"""Accessibility (docs/guides/browser.md#accessibility): every kind of page passes axe-core
with no serious or critical violation, in English and Chinese, at desktop and phone width,
light and dark; the whole answer flow works with the keyboard alone, with a visible focus;
the countdown is announced politely and rarely; reduced motion is respected; Chinese renders
with a CJK font.

axe-core is the npm package, pinned, installed once into the cache (`tests/npm_cache.py`)
and injected into each page (the portal's CSP forbids injected scripts, so the context
bypasses CSP for the scan only)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import iso_in, question, shoot
from tests.browser.team import links, widen
from tests.missing_tool import unavailable
from tests.npm_cache import npm_package

AXE_VERSION = "4.14.1"
BLOCKING = ("serious", "critical")
SEVERAL = {"title": "Set up the sync service", "prompt": "Three quick decisions.",
           "questions": [
               {"id": "db", "header": "Database", "prompt": "Which database?",
                "options": [{"id": "pg", "label": "PostgreSQL", "recommended": True},
                            {"id": "lite", "label": "SQLite"}]},
               {"id": "extras", "header": "Extras", "prompt": "Which extras?",
                "selection_mode": "multi",
                "options": [{"id": "cache", "label": "Cache"}, {"id": "queue", "label": "Queue"}]},
               {"id": "name", "header": "Name", "prompt": "What do we call it?",
                "selection_mode": "text_input"}]}


@pytest.fixture(scope="module")
def axe_source() -> str:
    home = npm_package("axe-core", AXE_VERSION, "the accessibility scans")
    return (home / "node_modules" / "axe-core" / "axe.min.js").read_text()


@pytest.fixture
def english_team(client: PortalClient) -> Iterator[None]:
    before = client.settings()
    client.save_settings({"team": [{"name": "Alice Johnson"}], "language": "en"})
    yield
    client.save_settings(before)


def violations(page: Page, axe: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical findings on the page as it is now."""
    page.wait_for_load_state("networkidle")
    page.evaluate(axe)
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
             .map(v => ({id: v.id, impact: v.impact, help: v.help,
                         nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))""")
    return [v for v in found if v["impact"] in BLOCKING]


def test_every_page_passes_axe_in_both_languages_at_both_widths(
        open_page: OpenPage, client: PortalClient, axe_source: str, english_team: None) -> None:
    pages: dict[str, str] = {}
    for language in ("en", "zh"):
        one = client.create(question(language=language, title=f"One question ({language})"))
        several = client.create({**SEVERAL, "language": language})
        done = client.create(question(language=language, title=f"Answered ({language})"))
        client.respond(done["interaction_id"], {"selected_ids": ["pg"]})
        pages[f"question {language}"] = f"/choice/{one['interaction_id']}"
        pages[f"questions {language}"] = f"/choice/{several['interaction_id']}"
        pages[f"outcome {language}"] = f"/choice/{done['interaction_id']}"
        cancelled = client.create(question(language=language))["interaction_id"]
        client.cancel(cancelled, "Not needed")
        pages[f"cancelled {language}"] = f"/choice/{cancelled}"
        late = client.create(question(language=language, timeout_seconds=10))["interaction_id"]
        client.call("PATCH", f"/api/interactions/{late}", {"expires_at": iso_in(3)})
        pages[f"timed out {language}"] = f"/choice/{late}"
        long = client.create(question(language=language, prompt="A long prompt. " * 80))
        pages[f"long prompt {language}"] = f"/choice/{long['interaction_id']}"
    widened = client.create(question(title="Widened"))["interaction_id"]
    pages["participant"] = links(widen(client, widened, audience=["Alice Johnson"]))[
        "Alice Johnson"]
    pages["team owner"] = f"/choice/{widened}"
    pages["list"], pages["settings"] = "/", "/settings"
    pages["error"] = "/choice/0123456789abcdef"  # a wrong link's page
    assert client.poll(late, 15)["action_status"] == "timeout"
    found: dict[str, list[dict[str, Any]]] = {}
    for phone, scheme in ((False, "light"), (True, "dark")):  # each width, each scheme
        for name, path in pages.items():
            page = open_page(path, phone=phone, bypass_csp=True, color_scheme=scheme,
                             signed_in=name != "participant")
            where = f"{'phone' if phone else 'desktop'}, {scheme}"
            found[f"{name} ({where})"] = violations(page, axe_source)
            if name.startswith("question"):
                shoot(page, f"{name.replace(' ', '-')}-{where.replace(', ', '-')}")
            page.context.close()
    login = open_page("/login", signed_in=False, bypass_csp=True)
    found["sign-in"] = violations(login, axe_source)
    client.save_settings({"hidden_options": ["SQLite"]})  # a folded option, shown
    folded = client.create(question(language="zh"))["interaction_id"]
    for scheme in ("light", "dark"):
        page = open_page(f"/choice/{folded}", bypass_csp=True, color_scheme=scheme)
        page.get_by_test_id("hidden-options-toggle").click()
        page.locator("[data-option-id=pg]").hover()
        found[f"hidden options open ({scheme})"] = violations(page, axe_source)
        page.context.close()
    client.save_settings({"hidden_options": []})
    assert {name: v for name, v in found.items() if v} == {}


def test_the_answer_flow_works_with_the_keyboard_alone(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(title="Keyboard only"))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    page.get_by_test_id("title").wait_for()
    radios = page.locator("input[type=radio]")
    for _ in range(40):  # Tab from the top of the page to the first option
        page.keyboard.press("Tab")
        if radios.first.evaluate("el => el === document.activeElement"):
            break
    else:
        raise AssertionError("Tab never reached the options")
    outline = page.evaluate("""() => getComputedStyle(document.activeElement.closest('label')
        || document.activeElement).outlineStyle + '|' +
        getComputedStyle(document.activeElement).outlineStyle""")
    assert outline != "none|none", "the focused option shows no focus ring"
    page.keyboard.press("ArrowDown")  # native radio keys: the next option is picked
    page.keyboard.press("Enter")
    page.get_by_test_id("outcome").wait_for()
    result = client.poll(iid, wait=5)
    assert result["status"] == "submitted" and result["selected_ids"] == ["lite"]


def test_the_countdown_is_announced_at_ten_minutes_and_at_the_last_minute_only(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create(question(title="Announcements", timeout_seconds=660))["interaction_id"]

    def watch(page: Page) -> None:
        page.clock.install()
        page.add_init_script("""
          window.__announced = [];
          let last = "";
          new MutationObserver(() => {
            const el = document.querySelector("[data-countdown-announce]");
            const text = el ? el.textContent : "";
            if (text && text !== last) window.__announced.push([Date.now(), text]);
            last = text;
          }).observe(document, {subtree: true, childList: true, characterData: true});""")

    page = open_page(f"/choice/{iid}", prepare=watch)
    page.wait_for_function("() => window.ChoicePortal.countdownSeconds() !== null")
    for _ in range(66):  # 660 s, ten seconds at a time, each tick run
        page.clock.run_for(10_000)
    said: list[list[Any]] = page.evaluate("window.__announced")
    assert [text for _at, text in said] == ["10 minutes left", "1 minute left"], said
    assert said[1][0] - said[0][0] == 540_000  # each when its threshold is crossed


def test_reduced_motion_turns_transitions_and_gliding_off(
        open_page: OpenPage, client: PortalClient) -> None:
    iid = client.create({**SEVERAL, "title": "Still"})["interaction_id"]

    def spy(page: Page) -> None:
        page.add_init_script("""window.__scrolls = [];
          const scroll = Element.prototype.scrollIntoView;
          Element.prototype.scrollIntoView = function (options) {
            window.__scrolls.push(options && options.behavior || "auto");
            return scroll.call(this, options);
          };""")

    page = open_page(f"/choice/{iid}", reduced_motion="reduce", prepare=spy)
    page.get_by_test_id("title").wait_for()
    page.get_by_test_id("question").first.get_by_text("SQLite").click()  # moves to the next
    page.wait_for_function("window.__scrolls.length > 0")
    assert "smooth" not in page.evaluate("window.__scrolls")
    longest = page.evaluate("""() => Math.max(...[...document.querySelectorAll("*")].map(el => {
        const style = getComputedStyle(el);
        return Math.max(...(style.transitionDuration + "," + style.animationDuration)
          .split(",").map(s => parseFloat(s) * (s.trim().endsWith("ms") ? 1 : 1000)));
      }))""")
    assert longest <= 1, f"a {longest} ms transition or animation under reduced motion"


def test_chinese_text_renders_with_a_cjk_font(open_page: OpenPage, client: PortalClient) -> None:
    """Without a CJK font, headless Chromium draws boxes: the title's glyphs must come from
    one (CI installs `fonts-noto-cjk`; the font stack names the common ones)."""
    if not subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True).stdout:
        unavailable("no CJK font installed: sudo apt-get install -y fonts-noto-cjk")
    iid = client.create(question(language="zh", title="选择同步服务的数据库"))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    page.get_by_test_id("title").wait_for()
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    title = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "[data-testid=title]"})
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": title["nodeId"]})["fonts"]
    used = {font["familyName"]: font["glyphCount"] for font in fonts}
    assert any("CJK" in name or "Han" in name for name in used), used
    shoot(page, "zh-question-desktop")
