"""Pages in English and Chinese: counts take each catalog's plural form, and the page hands
its scripts exactly the messages they look up (extracted from the JS), translated."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from choice.web.views.js_messages import js_messages
from tests.api.conftest import ask, token

Client = TestClient[Litestar]
OPTIONS = [{"id": f"o{i}", "label": f"Option {i}"} for i in range(4)]


@pytest.fixture
def browser(client: Client, app: Litestar) -> Client:
    response = client.get(f"/login?token={token()}&next=/", follow_redirects=False)
    assert response.status_code == 303
    return client


def page(client: Client, **overrides: Any) -> str:
    created = client.post("/api/interactions", json=ask(options=OPTIONS, **overrides))
    assert created.status_code == 201, created.text
    response = client.get(f"/choice/{created.json()['interaction_id']}")
    assert response.status_code == 200
    return response.text


def legend(html: str) -> str:
    found = re.search(r'<legend class="options-legend">\s*(.*?)\s*</legend>', html, re.S)
    assert found, "no options legend on the page"
    return found.group(1)


def script_catalog(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="choice-i18n">(.*?)</script>', html, re.S)
    assert found, "no message catalog for the scripts"
    catalog: dict[str, Any] = json.loads(found.group(1))
    return catalog


@pytest.mark.parametrize(("language", "fields", "shown"), [
    ("en", {"min_selections": 3, "max_selections": 3}, "Choose 3 options"),
    ("en", {"min_selections": 0, "max_selections": 3}, "Choose up to 3 options"),
    ("en", {"min_selections": 2, "max_selections": 3}, "Choose 2 to 3 options"),
    ("zh", {"min_selections": 3, "max_selections": 3}, "选择 3 项"),
    ("zh", {"min_selections": 0, "max_selections": 3}, "最多选择 3 项"),
    ("zh", {"min_selections": 2, "max_selections": 3}, "选择 2 到 3 项"),
])
def test_the_legend_counts_the_options_in_the_pages_language(
        browser: Client, language: str, fields: dict[str, int], shown: str) -> None:
    assert legend(page(browser, selection_mode="multi", language=language, **fields)) == shown


def test_the_page_hands_its_scripts_exactly_the_messages_they_use(browser: Client) -> None:
    used = {message if isinstance(message, str) else message[0] for message in js_messages()}
    assert "Reconnecting…" in used and "{n} minute left" in used  # P.t and P.nt both found
    for language in ("en", "zh"):
        catalog = script_catalog(page(browser, language=language))
        assert set(catalog["messages"]) == used, language


def test_the_scripts_get_the_plural_forms_of_the_pages_catalog(browser: Client) -> None:
    english = script_catalog(page(browser, language="en"))
    chinese = script_catalog(page(browser, language="zh"))
    assert (english["plural"], english["nplurals"]) == ("(n != 1)", 2)
    assert (chinese["plural"], chinese["nplurals"]) == ("0", 1)
    assert english["messages"]["{n} minute left"] == ["{n} minute left", "{n} minutes left"]
    assert chinese["messages"]["{n} minute left"] == ["还剩 {n} 分钟"]
    untranslated = [msgid for msgid, text in chinese["messages"].items() if text in (msgid, [])]
    assert untranslated == []
