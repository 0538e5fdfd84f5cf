"""Screenshots for the README and the docs, made from a real portal with realistic questions.

`scripts/screenshots` starts a portal on a temporary data dir, asks it the questions of
`bench/realistic.py` (one question, several questions, a question widened to the team with
its discussion, an answered one, and the list of them all), and photographs each page with
Debian's Chromium: light and dark, English and Chinese, desktop (1280 wide) and phone (375).
`--all` adds the screens a person trips over first (`REVIEW`): the questions `choice hook`
asks (a long command, an edit's diff, a plan with its headings), a deadline in its last
minutes and in its last minute, a withdrawn and a cancelled question, a teammate's page,
the settings, and a refused answer without script (which lands back on the question's own
address).
Each lands in `docs/images/` as `<page>-<device>-<theme>-<lang>.png`, e.g.
`question-desktop-light-en.png`; the same random seed gives the same pages, so the names stay.

By default it makes only the images the docs use (`COMMITTED`, kept small: they are committed); `--all`
makes every combination (into `--out`, default `docs/images/`), to look at before choosing.
Re-run it after changing a page's look and commit what changed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from bench.realistic import TEAM, realistic_ask, realistic_questions  # noqa: E402
from choice.client.portal_client import PortalClient  # noqa: E402
from choice.core.i18n import translator  # noqa: E402
from choice.hooks.payload import HookPayload  # noqa: E402
from choice.hooks.questions import question_for  # noqa: E402
from tests.portal_process import PortalProcess  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
OUT = ROOT / "docs" / "images"
DEVICES = {"desktop": {"width": 1280, "height": 860}, "phone": {"width": 375, "height": 812}}
THEMES = ("light", "dark")
LANGS = ("en", "zh")
PAGES = ("question", "questions", "widened", "answered", "list")
REVIEW = ("hook-bash", "hook-edit", "hook-plan", "due-soon", "withdrawn", "cancelled",
          "teammate", "settings", "refused", "urgent")
"""The screens `--all` adds, for a person to look at (none is in the docs)."""

COMMITTED = [
    *(f"{page}-desktop-light-{lang}" for page in PAGES for lang in LANGS),
    "question-desktop-dark-en",
    "widened-desktop-dark-en",
    "question-phone-light-en",
    "questions-phone-light-en",
    "widened-phone-light-en",
    "answered-phone-dark-en",
    "list-phone-light-en",
]
"""The images the README and the docs use: every page on a desktop in English and in
Chinese, and a few in the dark and on a phone."""


@dataclass(frozen=True)
class Shot:
    page: str
    device: str
    theme: str
    lang: str

    @property
    def name(self) -> str:
        return f"{self.page}-{self.device}-{self.theme}-{self.lang}"


def every_shot() -> list[Shot]:
    return [Shot(page, device, theme, lang) for lang in LANGS for page in (*PAGES, *REVIEW)
            for device in DEVICES for theme in THEMES]


def chosen_shots() -> list[Shot]:
    return [Shot(*name.rsplit("-", 3)) for name in COMMITTED]


RENAME = {
    "title": "Rename the `Interaction.opened` event?",
    "prompt": "The event fires when a page *or* the terminal shows a question, so `opened` reads "
              "as if a person clicked something. Webhook receivers match on the name: a rename "
              "breaks them unless we send both for a release.",
    "options": [
        {"id": "keep", "label": "Keep \"opened\"", "description": "No change for receivers; "
         "document what it means."},
        {"id": "alias", "label": "Rename to \"shown\", send both for one release",
         "description": "Receivers have a release to switch.", "recommended": True},
        {"id": "rename", "label": "Rename to \"shown\" now",
         "description": "Simplest code, breaks every receiver at once."},
    ],
    "timeout_seconds": 3600, "interface": "web",
    "context": {"agent": "cursor-agent", "project": "choice-portal"},
}
DATABASE = {
    "title": "Which database for the staging copy?",
    "prompt": "Staging needs a copy of production's data for the migration rehearsal. "
              "Production runs on PostgreSQL 16 (38 GB).",
    "options": [
        {"id": "pg", "label": "PostgreSQL 16, restored nightly from the backup",
         "description": "The same engine as production: the rehearsal means something."},
        {"id": "sqlite", "label": "SQLite, a sampled 1 % copy",
         "description": "Fast to make, but not the engine the migration runs on."},
    ],
    "timeout_seconds": 3600, "interface": "web",
    "context": {"agent": "codex", "project": "billing"},
}
DISCUSSION = [
    ("Alice Johnson", "\"shown\" is clearer. Send both for a release: our receiver matches on "
                      "the name, and I would rather not deploy on the same day.", "alias"),
    ("Bob Smith", "We only have two receivers and I own both: rename now, I will update them "
                  "this afternoon.", "rename"),
    ("Carol Lee", "Agree with Alice. The changelog should say when \"opened\" goes away.", "alias"),
]


def seeded(client: PortalClient, origin: str, scratch: Path) -> dict[str, str]:
    """The questions the pages show, asked as an agent would; each page's path by name."""
    for i in (3, 5, 8):  # a few more waiting, so the list is a list
        client.create(realistic_ask(i))
    answered = client.create(DATABASE)["interaction_id"]
    client.respond(answered, {"selected_ids": ["pg"], "global_annotation":
                              "Restore it on the staging box, not on a laptop."})
    several = client.create(realistic_questions(4))["interaction_id"]
    widened = client.create(RENAME)["interaction_id"]
    client.save_settings({"team": TEAM})
    reply = client.widen(widened, None, "block")
    links = {p["name"]: p["link"].rsplit("/d/", 1)[1] for p in reply["participants"]}
    for name, text, option in DISCUSSION:
        api = f"/api/d/{links[name]}"
        as_participant(origin, "POST", f"{api}/comments", {"text": text})
        as_participant(origin, "PUT", f"{api}/vote", {"option_ids": [option]})
    question = client.create(realistic_ask(0))["interaction_id"]
    soon = client.create(realistic_ask(1, timeout_s=300))["interaction_id"]
    withdrawn = client.create(realistic_ask(2))["interaction_id"]
    client.withdraw(withdrawn, "The agent found the answer in the README.")
    cancelled = client.create(realistic_ask(4))["interaction_id"]
    client.cancel(cancelled, "Not now: ask again after the release.")
    refused = client.create({**realistic_ask(6), "selection_mode": "multi",
                             "min_selections": 2, "max_selections": 3})["interaction_id"]
    return {"question": f"/choice/{question}", "questions": f"/choice/{several}",
            "widened": f"/choice/{widened}", "answered": f"/choice/{answered}", "list": "/",
            "due-soon": f"/choice/{soon}", "withdrawn": f"/choice/{withdrawn}",
            "cancelled": f"/choice/{cancelled}", "teammate": f"/d/{links['Bob Smith']}",
            "settings": "/settings", "refused": f"/choice/{refused}",
            **{f"{page}@{lang}": f"/choice/{iid}" for lang in LANGS
               for page, iid in hook_questions(client, lang, scratch).items()}}


def last_minute(client: PortalClient) -> str:
    """A question in its last minute (the countdown's attention colour): asked just before
    its picture is taken, so that the minute is still running then."""
    return f"/choice/{client.create(realistic_ask(1, timeout_s=50))['interaction_id']}"


PLAN = """## Plan: add invoice tax

The invoices leave out VAT for EU customers.

### Steps
1. Add `tax_rate` to `Customer`, filled from the billing country.
2. Compute the tax in `invoice_total()`; round per line, not per invoice.
3. Backfill open invoices; leave paid ones alone.

### Risks
- Rounding differs from the old PDF invoices by up to 1 cent.
"""
EDITED_FILE = """def invoice_total(lines):
    s = 0
    for line in lines:
        s += line.amount
    return s
"""


def hook_questions(client: PortalClient, lang: str, scratch: Path) -> dict[str, str]:
    """What `choice hook` asks for a long command, an edit and a plan, written in `lang` as
    the hook writes them; the edit's file is on disk, as the hook's diff needs it."""
    project = scratch / lang / "billing"  # in the portal's temporary dir: gone with it
    project.mkdir(parents=True)
    (project / "invoices.py").write_text(EDITED_FILE)
    session = "5f3c2a10-8b7e-4d21-9a63-0c4f2e91b7d5"
    payloads = {
        "hook-bash": HookPayload("claude", "Bash", {
            "command": "npm test -- --watch=false --coverage && rm -rf coverage/ "
                       "node_modules/.cache/jest",
            "description": "Run the tests once with coverage, then clean up"}, session,
            str(project)),
        "hook-edit": HookPayload("claude", "Edit", {
            "file_path": str(project / "invoices.py"), "old_string": "    s = 0\n",
            "new_string": "    s = Decimal(0)  # exact cents (1 + tax_rate applied per line)\n"},
            session, str(project)),
        "hook-plan": HookPayload("claude", "ExitPlanMode", {"plan": PLAN}, session,
                                 str(project)),
    }
    return {page: client.create(question_for(payload, translator(lang), 3600))["interaction_id"]
            for page, payload in payloads.items()}


SHOWN = {"widened": "[data-testid=team-panel]", "refused": "[data-testid=form-errors]"}
"""What a page's screenshot must show: scrolled to it when it is below the first screen."""


def as_participant(origin: str, method: str, path: str, body: dict[str, Any]) -> None:
    """A participant's write through their link, as their page's script sends it."""
    request = urllib.request.Request(
        origin + path, json.dumps(body).encode(), method=method,
        headers={"Content-Type": "application/json", "Origin": origin,
                 "Sec-Fetch-Site": "same-origin"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        reply.read()


@contextmanager
def portal() -> Iterator[PortalProcess]:
    with tempfile.TemporaryDirectory(prefix="choice-screens-") as data:
        process = PortalProcess(Path(data), CHOICE_LANG="en").start()
        try:
            yield process
        finally:
            process.stop()


def photograph(browser: Browser, process: PortalProcess, path: str, shot: Shot,
               out: Path) -> Path:
    context = browser.new_context(viewport=DEVICES[shot.device],  # type: ignore[arg-type]
                                  color_scheme=shot.theme,  # type: ignore[arg-type]
                                  device_scale_factor=1, locale=shot.lang,
                                  reduced_motion="reduce",
                                  java_script_enabled=shot.page != "refused")
    try:
        page = context.new_page()
        page.goto(f"{process.base_url}/login?token={process.token}&next={path}")
        settle(page)
        if shot.page == "refused":  # one pick where two are needed, sent without script
            page.locator("[data-testid=option] input").first.check()
            page.get_by_test_id("submit").click()
            page.get_by_test_id("form-errors").wait_for()
        if shot.page in SHOWN:
            focus_on(page, SHOWN[shot.page])
        target = out / f"{shot.name}.png"
        page.screenshot(path=str(target), animations="disabled", caret="hide")
        return target
    finally:
        context.close()


def settle(page: Page) -> None:
    """The page as a person sees it once it has loaded: its socket open, its fonts in."""
    page.wait_for_load_state("networkidle")
    if page.evaluate("() => Boolean(window.ChoicePortal?.config?.ws_path)"):
        page.locator("html[data-live]").wait_for(state="attached")
    page.evaluate("() => document.fonts.ready")


def focus_on(page: Page, selector: str) -> None:
    """Scroll so that `selector` starts near the top, if it is not on the first screen."""
    page.evaluate("""(selector) => {
        const top = document.querySelector(selector).getBoundingClientRect().top;
        if (top > window.innerHeight * 0.6) window.scrollBy(0, top - 70);
    }""", selector)


def make(shots: list[Shot], out: Path, say: Callable[[str], Any] = print) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = []
    with portal() as process, sync_playwright() as playwright:
        client = process.client()
        paths = seeded(client, process.base_url, process.data_dir)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for lang in LANGS:
                client.save_settings({"language": lang})
                for shot in (s for s in shots if s.lang == lang):
                    path = (last_minute(client) if shot.page == "urgent"
                            else paths.get(f"{shot.page}@{lang}") or paths[shot.page])
                    made.append(photograph(browser, process, path, shot, out))
                    say(f"{made[-1].relative_to(ROOT) if made[-1].is_relative_to(ROOT) else made[-1]}"
                        f"  {made[-1].stat().st_size // 1024} KB")
        finally:
            browser.close()
    return made


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/screenshots", description=__doc__.split("\n")[0])
    parser.add_argument("--all", action="store_true",
                        help="every page, device, theme and language, not only the docs' ones")
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNGs go (docs/images)")
    parser.add_argument("--pages", help="only these pages, comma-separated (e.g. hook-bash,refused)")
    args = parser.parse_args(argv)
    shots = every_shot() if args.all or args.pages else chosen_shots()
    if args.pages:
        shots = [shot for shot in shots if shot.page in args.pages.split(",")]
    made = make(shots, args.out)
    total = sum(path.stat().st_size for path in made)
    print(f"{len(made)} screenshots, {total / 1e6:.1f} MB, in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
