"""Hostile model text in a real Chromium: markup, `javascript:` links, bidi overrides, NUL and
the longest strings the contract allows, in every field an agent fills (and in the human's
notes), on the question page, the outcome page, the list and the live updates. Nothing may
run, no element may be injected, the text shows as text, and it cannot reorder the portal's
own words. Also owns the field limits: a 100,000-character string is refused with its field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Dialog, Page, expect, sync_playwright

from choice import contract
from choice.client.portal_client import PortalClient
from tests.browser.support import DESKTOP, PHONE, shoot
from tests.portal_process import PortalProcess
from tests.security.payloads import BROWSER, LONG, RTL, SCRIPT, Marked, joined, marked, packed
from tests.tally import Seen, attacks

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
TIMEOUT_MS = 8_000
ITEMS = marked(BROWSER)
RTL_ITEM = next(item for item in ITEMS if item.payload == RTL)

# Everything a page could have been made to do, read in one round trip.
STATE = """() => ({
  pwned: typeof window.__pwned,
  scripts: document.scripts.length,
  injected: [...document.querySelectorAll("img, svg, iframe, object, embed, [autofocus]")]
    .map(e => e.outerHTML.slice(0, 80)),
  handlers: [...document.querySelectorAll("*")].flatMap(e => [...e.attributes]
    .filter(a => a.name.startsWith("on")).map(a => e.tagName + " " + a.name)),
  // the tab's icon is the page's own drawing of the waiting count (notify.js)
  urls: [...document.querySelectorAll("[href]:not(link[rel=icon]), [src], [action], [formaction]")]
    .map(e => e.getAttribute("href") || e.getAttribute("src") || e.getAttribute("action")
              || e.getAttribute("formaction") || "")
    .filter(u => !/^(\\/|https?:)/i.test(u)),
  csp: window.__csp || [],
})"""

# The text of every place model text lands, by field; `iid` picks the list row.
TEXTS = """(iid) => {
  const all = s => [...document.querySelectorAll(s)];
  const text = s => all(s).map(e => e.textContent);
  return {
    title: text("[data-testid=title]"), document_title: [document.title],
    prompt: text("[data-testid=prompt]"), context: text(".asked"),
    label: text("[data-testid=option-label]"), description: text(".option-description"),
    rationale: text("[data-testid=rationale]"),
    note_label: all("[data-testid=option-note]").map(e => e.getAttribute("aria-label")),
    placeholder: all("#custom-input").map(e => e.getAttribute("placeholder")),
    list: text(`[data-testid=list-item][data-interaction-id="${iid}"]`),
    choices: text("[data-testid=outcome-choices] li"), custom: text("[data-testid=outcome-text]"),
    summary: text("[data-testid=summary]"),
  };
}"""

# Whether `word` (the last time it occurs in the element) is drawn left to right: a bidi
# override left open in model text before it would draw it mirrored.
READS_LEFT_TO_RIGHT = """([selector, word]) => {
  const el = document.querySelector(selector);
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let node = null;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.data.includes(word)) node = n;
  const at = node.data.lastIndexOf(word), range = document.createRange();
  const x = i => { range.setStart(node, i); range.setEnd(node, i + 1);
                   return range.getBoundingClientRect().left; };
  return x(at) < x(at + word.length - 1);
}"""

# Before any page script: collect CSP violations, and note when the page's socket is open
# (the server subscribes it to changes before the handshake completes).
INSTRUMENT = """window.__csp = [];
document.addEventListener("securitypolicyviolation",
  e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));
const NativeSocket = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const socket = new NativeSocket(url, protocols);
  socket.addEventListener("open", () => { window.__socketOpen = true; });
  return socket;
};
window.WebSocket.prototype = NativeSocket.prototype;"""

Expected = dict[str, list[list[Marked]]]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def signed_in(browser: Browser, portal: PortalProcess) -> Iterator[BrowserContext]:
    """One signed-in desktop context for the module, instrumented before any page script."""
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(INSTRUMENT)
    page = context.new_page()
    page.goto(f"{portal.base_url}/login?token={portal.token}&next=/")
    expect(page.get_by_test_id("welcome")).to_be_visible()
    page.close()
    yield context
    context.close()


@pytest.fixture
def page(signed_in: BrowserContext) -> Iterator[Page]:
    """A tab in the signed-in context. A dialog (`alert(1)` ran), an uncaught script error
    or a console message about the CSP (it had to block an injection) fails the test."""
    dialogs: list[str] = []
    errors: list[str] = []
    console: list[str] = []

    def on_dialog(dialog: Dialog) -> None:
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page = signed_in.new_page()
    page.on("dialog", on_dialog)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    yield page
    page.close()
    assert dialogs == [], "a dialog opened: model text ran as script"
    assert errors == [], "script errors in the page"
    assert [line for line in console if "Content Security Policy" in line] == []


# -- building the questions and answers --------------------------------------------------------------
MODES = ("single", "multi", "text_input", "hybrid")
TITLES = packed(ITEMS, contract.TITLE_MAX, prefix="text_input ")
CONTEXTS = packed(ITEMS, contract.CONTEXT_VALUE_MAX)


def hostile_request(mode: str, turn: int) -> tuple[dict[str, Any], Expected]:
    """A question in `mode` with payloads in every field, and where each should show.
    Title, agent and project take turns with the groups that fit in 200 characters, so
    every payload lands in each of them in one question or another."""
    title = TITLES[turn % len(TITLES)]
    agent, project = CONTEXTS[(turn + 1) % len(CONTEXTS)], CONTEXTS[(turn + 2) % len(CONTEXTS)]
    request: dict[str, Any] = {
        "title": joined(title, f"{mode} "), "prompt": "\n\n".join(item.text for item in ITEMS),
        "selection_mode": mode, "context": {"agent": joined(agent), "project": joined(project),
                                            "conversation_id": joined(agent),
                                            "tool_call_id": joined(project)},
    }
    expected: Expected = {"title": [title], "document_title": [title], "prompt": [ITEMS],
                          "context": [agent + project], "list": [title + agent + project]}
    if mode != "text_input":
        request["options"] = [
            {"id": f"o{item.number}", "label": item.text, "description": item.text,
             "rationale": item.text, "recommended": item in (ITEMS[0], RTL_ITEM)}
            for item in ITEMS]
        per_option = [[item] for item in ITEMS]
        expected |= {"label": per_option, "description": per_option, "rationale": per_option,
                     "note_label": per_option}
    if mode in ("multi", "hybrid"):
        request["max_selections"] = len(ITEMS)
    if mode in ("text_input", "hybrid"):
        request["placeholder"] = joined(ITEMS)
        expected["placeholder"] = [ITEMS]
    return request, expected


def hostile_answer(mode: str, turn: int) -> tuple[dict[str, Any], Expected]:
    """The human's answer, hostile too: every note and the typed answer carry payloads. The
    summary clips notes to 80 characters, so each note holds one payload."""
    note = ITEMS[turn % len(ITEMS)]
    chosen = {"single": [RTL_ITEM], "multi": ITEMS, "text_input": [],
              "hybrid": [ITEMS[0], RTL_ITEM]}[mode]
    answer: dict[str, Any] = {
        "selected_ids": [f"o{item.number}" for item in chosen] if chosen else None,
        "option_annotations": {f"o{item.number}": item.text for item in chosen},
        "global_annotation": note.text,
    }
    expected: Expected = {"choices": [[item] for item in chosen], "summary": [[note]]}
    if mode in ("text_input", "hybrid"):
        answer["custom_input"] = joined(ITEMS)
        expected["custom"] = [ITEMS]
    return answer, expected


# -- what a page must (not) show -----------------------------------------------------------------
def normalized(text: str) -> str:
    """NUL never reaches the DOM (dropped in text, U+FFFD in attributes and Markdown), and
    the summary folds whitespace (U+2028 and U+2029 count)."""
    return re.sub(r"\s+", " ", text.replace("\x00", "").replace("\ufffd", ""))


def shows_as_text(page: Page, iid: str, expected: Expected, seen: Seen) -> None:
    """Every payload shows literally between its markers where it should: one attempt per
    (payload, field), refused when the text is there, whole and inert."""
    texts: dict[str, list[str | None]] = page.evaluate(TEXTS, iid)
    for field, per_element in expected.items():
        shown = texts[field]
        if len(shown) != len(per_element):
            seen.miss(f"{field}: {len(shown)} elements, {len(per_element)} expected: {shown}")
        for index, items in enumerate(per_element):
            text = shown[index] if index < len(shown) else None
            for item in items:
                between = item.between(text) if text is not None else None
                seen.refused_if(between is not None
                                and normalized(between) == normalized(item.payload),
                                f"{field}: payload {item.number} shows as {between!r}")


def inert(page: Page, baseline: dict[str, Any], seen: Seen) -> None:
    """Nothing ran and nothing was added (the same scripts and URLs as a benign page): one
    attempt per page looked at."""
    state = page.evaluate(STATE)
    problems = [problem for problem, happened in [
        ("model text ran as script", state["pwned"] != "undefined"),
        ("model text became elements", state["injected"] != []),
        ("model text became event handlers", state["handlers"] != []),
        ("model text added a <script>", state["scripts"] != baseline["scripts"]),
        ("model text became a link or a source", state["urls"] != baseline["urls"]),
        ("the CSP had to block something", state["csp"] != []),
    ] if happened]
    seen.refused_if(problems == [], (page.url, problems, state))


def fits(page: Page) -> tuple[int, list[str]]:
    """The page's width, and what sticks out of the question's card."""
    width, outside = page.evaluate("""() => {
      const edge = document.querySelector("#interaction").getBoundingClientRect().right;
      return [document.documentElement.scrollWidth,
              [...document.querySelectorAll("#interaction *")]
                .filter(e => e.getBoundingClientRect().right > edge + 0.5)
                .map(e => e.tagName + "." + e.className)];
    }""")
    return int(width), list(outside)


def reads_left_to_right(page: Page, selector: str, word: str) -> bool:
    return bool(page.evaluate(READS_LEFT_TO_RIGHT, [selector, word]))


def benign(page: Page, portal: PortalProcess, client: PortalClient) -> dict[str, Any]:
    """A harmless question's page: what every hostile page is compared with."""
    iid = client.create({"title": "A harmless question", "prompt": "Plain **text**.",
                         "options": [{"id": "a", "label": "A", "description": "About A"}]})[
        "interaction_id"]
    page.goto(f"{portal.base_url}/choice/{iid}")
    expect(page.get_by_test_id("title")).to_have_text("A harmless question")
    state: dict[str, Any] = page.evaluate(STATE)
    assert state["handlers"] == [] and state["injected"] == []
    page.goto("about:blank")
    client.cancel(iid)
    return state


def ask(page: Page, client: PortalClient, request: dict[str, Any]) -> str:
    """Create a question with no portal tab open: an idle tab would open it by itself (see
    the live test), racing the test's own navigation."""
    page.goto("about:blank")
    return str(client.create(request)["interaction_id"])


# -- the tests -------------------------------------------------------------------------------------
def test_a_string_over_a_field_limit_is_refused_with_its_field_named(
        client: PortalClient, portal: PortalProcess, page: Page) -> None:
    base = {"title": "Limits", "prompt": "Limits.", "options": [{"id": "a", "label": "A"}]}
    too_long = {
        "title": {"title": LONG}, "prompt": {"prompt": LONG}, "placeholder": {
            "selection_mode": "hybrid", "placeholder": LONG},
        **{f"options[0].{name}": {"options": [{"id": "a", "label": "A", name: LONG}]}
           for name in ("label", "description", "rationale")},
        **{f"context.{name}": {"context": {name: LONG}}
           for name in ("agent", "conversation_id", "tool_call_id", "project")},
    }
    before = len(client.list("all", 100)["interactions"])

    def refused_on(reply: dict[str, Any], status: int, field: str) -> bool:
        errors = reply.get("errors") or [{}]
        return (status == 422 and [error.get("field") for error in errors] == [field]
                and errors[0].get("code") == "too_long")

    with attacks("Field limits") as seen:
        seen.fact("characters", len(LONG))
        for field, change in too_long.items():
            status, reply = client.request("POST", "/api/interactions", {**base, **change})
            seen.refused_if(refused_on(reply, status, field), (field, status, reply))
        # nothing was created
        seen.unchanged(before, len(client.list("all", 100)["interactions"]))

        iid = client.create({**base, "selection_mode": "hybrid"})["interaction_id"]
        answers = {"custom_input": {"custom_input": LONG}, "global_annotation": {
            "global_annotation": LONG}, "option_annotations.a": {"option_annotations": {"a": LONG}}}
        for field, answer in answers.items():
            status, reply = client.request("POST", f"/api/interactions/{iid}/response", answer)
            seen.refused_if(refused_on(reply, status, field), (field, status, reply))
        status, reply = client.request("POST", f"/api/interactions/{iid}/cancel",
                                       {"global_annotation": LONG})
        seen.refused_if(refused_on(reply, status, "global_annotation"), (status, reply))

        # the page's own form: a 100,000-character answer that also closes the textarea
        page.goto(f"{portal.base_url}/choice/{iid}")
        typed = "</textarea>" + SCRIPT + LONG
        page.get_by_test_id("custom-input").fill(typed)
        page.get_by_test_id("global-note").fill(typed)
        page.get_by_test_id("submit").click()
        errors = page.get_by_test_id("form-errors")
        expect(errors).to_be_visible()
        shown = errors.inner_text()
        for limit in ("the limit is 20000", "the limit is 5000"):
            seen.refused_if(limit in shown, (limit, shown))
        seen.unchanged("pending", client.poll(iid, 0)["status"])
    expect(page.get_by_test_id("custom-input")).to_have_value(typed)  # kept, as text
    assert page.evaluate("typeof window.__pwned") == "undefined"


def test_hostile_text_in_every_field_and_mode_renders_as_inert_text(
        page: Page, portal: PortalProcess, client: PortalClient) -> None:
    baseline = benign(page, portal, client)
    asked = []
    with attacks("Hostile text in the browser") as seen:
        for turn, mode in enumerate(MODES):
            request, expected = hostile_request(mode, turn)
            iid = ask(page, client, request)
            asked.append((iid, mode, turn, request))
            page.goto(f"{portal.base_url}/choice/{iid}")
            expect(page.get_by_test_id("choice-form")).to_be_visible()
            inert(page, baseline, seen)
            shows_as_text(page, iid, expected, seen)
            seen.refused_if(reads_left_to_right(
                page, ".asked time", page.locator(".asked time").inner_text()), "asked at")
            if mode != "text_input":
                seen.refused_if(reads_left_to_right(
                    page, f"[data-option-id=o{RTL_ITEM.number}]", "Recommended"), "Recommended")
            if mode == "hybrid":
                shoot(page, "hostile-every-field-desktop")

        page.goto(f"{portal.base_url}/")
        inert(page, baseline, seen)
        for iid, _mode, turn, request in asked:
            title = TITLES[turn % len(TITLES)]
            row = page.locator(f"[data-testid=list-item][data-interaction-id='{iid}']")
            expect(row).to_contain_text(request["title"][:20])
            shows_as_text(page, iid, {"list": [title]}, seen)

        for iid, mode, turn, _request in asked:
            answer, expected = hostile_answer(mode, turn)
            client.respond(iid, answer)
            page.goto(f"{portal.base_url}/choice/{iid}")
            expect(page.get_by_test_id("outcome")).to_be_visible()
            inert(page, baseline, seen)
            shows_as_text(page, iid, expected, seen)
            shows_as_text(page, iid, {"title": hostile_request(mode, turn)[1]["title"]}, seen)
            seen.refused_if(reads_left_to_right(page, "[data-testid=summary]", "Your"), "Your")

        cancelled = ask(page, client, hostile_request("single", 0)[0])
        client.cancel(cancelled, joined(ITEMS))
        page.goto(f"{portal.base_url}/choice/{cancelled}")
        expect(page.get_by_test_id("outcome")).to_have_attribute("data-status", "cancelled")
        inert(page, baseline, seen)
        first = packed(ITEMS, 119)[0]  # the summary quotes the first 120 characters of the note
        shows_as_text(page, cancelled, {"summary": [first]}, seen)


def test_hostile_titles_arriving_live_stay_text(
        page: Page, portal: PortalProcess, client: PortalClient) -> None:
    waiting = client.create({"title": "Waiting here", "prompt": "Benign.",
                             "options": [{"id": "a", "label": "A"}]})["interaction_id"]
    page.goto(f"{portal.base_url}/choice/{waiting}")
    expect(page.get_by_test_id("title")).to_have_text("Waiting here")
    baseline = page.evaluate(STATE)
    page.wait_for_function("() => window.__socketOpen === true")

    with attacks("Hostile text in the browser") as seen:
        # a question open: the new one is announced in a toast, and the list refreshes
        group = next(g for g in TITLES if RTL_ITEM in g)
        request, _ = hostile_request("single", TITLES.index(group))
        iid = client.create(request)["interaction_id"]
        toast = page.get_by_test_id("toast")
        expect(toast).to_contain_text(f"New question: {request['title'][:20]}")
        expect(page.locator(f"[data-testid=list-item][data-interaction-id='{iid}']")
               ).to_have_count(1)
        inert(page, baseline, seen)
        for item in group:
            between = item.between(toast.text_content() or "")
            seen.refused_if(between is not None
                            and normalized(between) == normalized(item.payload),
                            f"toast: payload {item.number} shows as {between!r}")
        seen.refused_if(reads_left_to_right(page, "[data-testid=toast]", "Open"), "Open")
        expect(toast.locator("a")).to_have_attribute("href", f"/choice/{iid}")
        shows_as_text(page, iid, {"list": [group]}, seen)

        # nothing to answer on `/`: the new question opens in this tab
        client.cancel(waiting)
        client.cancel(iid)
        page.goto(f"{portal.base_url}/?filter=active")
        expect(page.get_by_test_id("welcome")).to_be_visible()
        page.wait_for_function("() => window.__socketOpen === true")
        other = next(g for g in TITLES if ITEMS[0] in g)
        request, expected = hostile_request("hybrid", TITLES.index(other))
        opened = client.create(request)["interaction_id"]
        page.wait_for_url(f"**/choice/{opened}")
        expect(page.get_by_test_id("choice-form")).to_be_visible()
        inert(page, baseline, seen)
        shows_as_text(page, opened, {"title": expected["title"], "list": expected["list"]},
                      seen)


def test_the_longest_allowed_text_fits_the_page_at_any_width(
        page: Page, portal: PortalProcess, client: PortalClient) -> None:
    """Every field at its limit, markup and then one unbroken word: it renders, stays inert
    and does not push the page wider than the window (no sideways scrolling)."""
    def filled(limit: int) -> str:
        return SCRIPT + "x" * (limit - len(SCRIPT))

    context_value = filled(contract.CONTEXT_VALUE_MAX)
    iid = client.create({
        "title": filled(contract.TITLE_MAX), "prompt": filled(contract.PROMPT_MAX),
        "selection_mode": "hybrid", "placeholder": filled(contract.PLACEHOLDER_MAX),
        "max_selections": 3,
        "options": [{"id": f"o{n}", "label": filled(contract.LABEL_MAX),
                     "description": filled(contract.DESCRIPTION_MAX),
                     "rationale": filled(contract.RATIONALE_MAX), "recommended": n == 0}
                    for n in range(contract.MAX_OPTIONS)],
        "context": {"agent": context_value, "project": context_value,
                    "conversation_id": context_value, "tool_call_id": context_value},
    })["interaction_id"]
    with attacks("Hostile text in the browser") as seen:
        page.goto(f"{portal.base_url}/choice/{iid}")
        expect(page.get_by_test_id("option")).to_have_count(contract.MAX_OPTIONS)
        seen.refused_if(page.evaluate("typeof window.__pwned") == "undefined", "script ran")
        for size in (DESKTOP, PHONE):
            page.set_viewport_size(size)
            width = fits(page)
            seen.refused_if(width == (size["width"], []), ("the question", size, width))

        client.respond(iid, {"selected_ids": ["o0", "o1", "o2"],
                             "custom_input": filled(contract.CUSTOM_INPUT_MAX),
                             "option_annotations": {f"o{n}": filled(contract.NOTE_MAX)
                                                    for n in range(3)},
                             "global_annotation": filled(contract.NOTE_MAX)})
        page.reload()
        expect(page.get_by_test_id("outcome")).to_be_visible()
        seen.refused_if(page.evaluate("typeof window.__pwned") == "undefined", "script ran")
        for size in (PHONE, DESKTOP):
            page.set_viewport_size(size)
            width = fits(page)
            seen.refused_if(width == (size["width"], []), ("the outcome", size, width))
