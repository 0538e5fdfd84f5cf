"""What the browser tests share besides fixtures: the questions they ask, screen sizes,
screenshots, and reading the countdown."""

from __future__ import annotations

import math
import time
from datetime import date, datetime
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, ViewportSize

from choice.client.portal_client import PortalClient

DESKTOP = ViewportSize(width=1280, height=860)
PHONE = ViewportSize(width=375, height=812)
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

OPTIONS = [
    {"id": "pg", "label": "PostgreSQL",
     "description": "Runs as a **separate service**; the team already operates one.",
     "recommended": True, "rationale": "Concurrent writers and the ops team knows it."},
    {"id": "lite", "label": "SQLite", "description": "One file next to the app, no server."},
    {"id": "duck", "label": "DuckDB", "description": "Columnar, for the analytics side."},
    {"id": "mem", "label": "In memory", "description": "Lost on restart: tests only."},
]


def question(**overrides: Any) -> dict[str, Any]:
    """A realistic request (Markdown prompt, descriptions, a recommendation, context)."""
    body: dict[str, Any] = {
        "title": "Pick a database for the sync service",
        "prompt": "The sync service needs a store.\n\n- about 200 writes/s\n- one host\n\n"
                  "Which one should I set up?",
        "options": OPTIONS,
        "context": {"agent": "claude-code", "project": "sync"},
    }
    body.update(overrides)
    return body


def shoot(page: Page, name: str) -> Path:
    """A full-page screenshot under tests/artifacts/, for a reviewer to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def epoch_ms(iso_stamp: str) -> int:
    return round(datetime.fromisoformat(iso_stamp.replace("Z", "+00:00")).timestamp() * 1000)


def iso_in(seconds: float) -> str:
    """An ISO 8601 time (with its UTC offset) `seconds` from now, as the API takes it."""
    stamp = datetime.fromtimestamp(time.time() + seconds).astimezone()
    return stamp.isoformat(timespec="milliseconds")


SHOWN = """() => {
  const el = document.querySelector("[data-testid=countdown]");
  const clock = el.querySelector("[data-testid=countdown-clock]");
  const seconds = clock ? clock.textContent.trim().split(":")
    .reduce((total, part) => total * 60 + Number(part), 0) : null;
  return [seconds, +el.getAttribute("data-expires-at"), Date.now()];
}"""

MATCHES_DEADLINE = """([deadlineMs, tolerance]) => {
  const el = document.querySelector("[data-testid=countdown]");
  if (!el) return false;
  const clock = el.querySelector("[data-testid=countdown-clock]");
  if (!clock) return Math.abs(+el.getAttribute("data-expires-at") - deadlineMs) <= tolerance * 1000;
  const shown = clock.textContent.trim().split(":").reduce((t, p) => t * 60 + Number(p), 0);
  return Math.abs(shown - Math.ceil((deadlineMs - Date.now()) / 1000)) <= tolerance;
}"""


def countdown_error(page: Page, deadline_ms: int) -> int:
    """How far the countdown on the page is from the server's deadline, in whole seconds:
    the clock's (whole seconds left, rounded up) in the last ten minutes, else the deadline
    the page words ("due 14:05")."""
    shown, expires_ms, now_ms = page.evaluate(SHOWN)
    if shown is None:
        return round(abs(expires_ms - deadline_ms) / 1000)
    return int(abs(shown - math.ceil((deadline_ms - now_ms) / 1000)))


def wait_for_countdown(page: Page, deadline_ms: int, timeout: float = 8000) -> None:
    """Until the page's countdown agrees with `deadline_ms` within 1 s."""
    page.wait_for_function(MATCHES_DEADLINE, arg=[deadline_ms, 1], timeout=timeout)


def due_text(deadline_ms: int) -> str:
    """What an English page says of a deadline more than ten minutes (and at most a day)
    away: "due 14:05" today, "due tomorrow 14:05" (local time, minutes cut)."""
    due = datetime.fromtimestamp(deadline_ms / 1000)
    return f"due {'' if due.date() == date.today() else 'tomorrow '}{due:%H:%M}"


def kinds_once(client: PortalClient, interaction_id: str, kind: str,
               timeout: float = 8.0) -> list[str]:
    """The interaction's audit trail (its kinds) once `kind` is in it. A page's `opened`
    comes from its socket after the page has loaded, so a test that reads the trail right
    after `goto` would race it: wait for it (another process's state: polled, bounded)."""
    deadline = time.monotonic() + timeout
    while True:
        kinds = [e["kind"] for e in
                 client.call("GET", f"/api/interactions/{interaction_id}/events")["events"]]
        if kind in kinds:
            return kinds
        if time.monotonic() > deadline:
            raise AssertionError(f"no {kind!r} event within {timeout} s: {kinds}")
        time.sleep(0.02)  # a polling interval, not a synchronization

