"""English and Chinese on a real portal: per request, per saved preference, per CHOICE_LANG,
never mixed between concurrent requests, and kept across a restart."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow
SETTINGS_ZH = "设置"


def question(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"title": "Pick", "prompt": "Why.",
                            "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}
    body.update(overrides)
    return body


@contextmanager
def browser(portal: PortalProcess) -> Iterator[httpx.Client]:
    """A signed-in browser session (the session cookie), as httpx."""
    with httpx.Client(base_url=portal.base_url) as client:
        client.get(f"/login?token={portal.token}&next=/")
        yield client


def test_choice_lang_zh_renders_pages_and_summaries_in_chinese(isolated_env: Path) -> None:
    portal = PortalProcess(isolated_env, CHOICE_LANG="zh").start()
    try:
        iid = portal.client().create(question())["interaction_id"]
        with browser(portal) as page:
            html = page.get(f"/choice/{iid}").text
        assert '<html lang="zh">' in html and SETTINGS_ZH in html
        portal.client().call("POST", f"/api/interactions/{iid}/response", {"selected_ids": ["a"]})
        assert "已选择" in portal.client().poll(iid, 0)["summary"]
    finally:
        portal.stop()


def test_concurrent_requests_in_two_languages_never_mix(isolated_env: Path) -> None:
    portal = PortalProcess(isolated_env).start()
    try:
        client = portal.client()
        chinese = client.create(question(language="zh"))["interaction_id"]
        english = client.create(question(language="en"))["interaction_id"]
        with browser(portal) as page:
            def fetch(iid: str) -> tuple[str, str]:
                return iid, page.get(f"/choice/{iid}").text

            with ThreadPoolExecutor(8) as pool:
                pages = list(pool.map(fetch, [chinese, english] * 20))
        for iid, html in pages:
            assert (SETTINGS_ZH in html) == (iid == chinese), iid
            assert (">Settings<" in html) == (iid == english), iid
    finally:
        portal.stop()


def test_the_saved_language_switches_pages_and_survives_a_restart(isolated_env: Path) -> None:
    portal = PortalProcess(isolated_env).start()
    try:
        with browser(portal) as page:
            saved = page.post("/settings", data={"language": "zh", "timeout_seconds": "300",
                                                 "interface": "web"},
                              headers={"HX-Request": "true"})
            assert saved.headers.get("hx-refresh") == "true"
            assert SETTINGS_ZH in page.get("/").text
        portal.stop()
        portal.start()
        with browser(portal) as page:
            assert SETTINGS_ZH in page.get("/").text
    finally:
        portal.stop()


def test_the_plain_terminal_speaks_chinese_under_choice_lang_zh(isolated_env: Path) -> None:
    portal = PortalProcess(isolated_env, CHOICE_LANG="zh").start()
    try:
        iid = portal.client().create(question())["interaction_id"]
        env = {"CHOICE_DATA_DIR": str(isolated_env), "CHOICE_PORT": str(portal.port),
               "CHOICE_LANG": "zh", "PATH": "/usr/bin:/bin"}
        done = subprocess.run([sys.executable, "-m", "choice.cli", "answer", iid], input="1\n",
                              env=env, text=True, capture_output=True, timeout=30)
        assert "选择" in done.stdout, done.stdout + done.stderr
        assert done.returncode == 0
    finally:
        portal.stop()


def test_status_and_interface_badges_are_translated_too(isolated_env: Path) -> None:
    portal = PortalProcess(isolated_env, CHOICE_LANG="zh").start()
    try:
        client = portal.client()
        client.create(question())
        answered = client.create(question())["interaction_id"]  # where it was answered shows
        client.call("POST", f"/api/interactions/{answered}/response", {"selected_ids": ["a"]})
        with browser(portal) as page:  # on answered lines only
            html = page.get("/").text
        assert ">等待中<" in html and ">网页<" in html and ">Pending<" not in html
    finally:
        portal.stop()
