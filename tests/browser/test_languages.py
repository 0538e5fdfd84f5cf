"""Counts in the browser: the scripts word them by the page catalog's plural rule (English
"1 option" / "3 options", Chinese one form), and that rule is the catalog's own
Plural-Forms expression, evaluated as Python's gettext evaluates it."""

from __future__ import annotations

import gettext

import pytest
from playwright.sync_api import Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import question

# Plural-Forms expressions from the gettext manual's table, and two that must not parse.
RULES = [
    "0", "(n != 1)", "(n > 1)", "n == 1 ? 0 : n == 2 ? 1 : 2", "(n%10!=1 || n%100==11)",
    "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)",
    "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)",
    "(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5)",
    "(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3)",
    "(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2)", "!(n == 1)", "n / 10 % 3",
]


def hint_after_touching(page: Page) -> str:
    """Pick an option and take it back, so the form explains what it needs."""
    label = page.locator("[data-testid=option][data-option-id=pg] [data-testid=option-label]")
    label.click()
    label.click()
    hint = page.get_by_test_id("selection-hint")
    expect(hint).not_to_have_text("")
    return hint.inner_text()


@pytest.mark.parametrize(("language", "least", "shown"), [
    ("en", 1, "Choose at least 1 option"), ("en", 3, "Choose at least 3 options"),
    ("zh", 1, "至少选择 1 项"), ("zh", 3, "至少选择 3 项"),
])
def test_the_hint_counts_options_in_the_pages_language(
        open_page: OpenPage, client: PortalClient, language: str, least: int, shown: str) -> None:
    iid = client.create(question(selection_mode="multi", min_selections=least, max_selections=4,
                                 language=language))["interaction_id"]
    assert hint_after_touching(open_page(f"/choice/{iid}")) == shown


def test_the_scripts_plural_helper_follows_each_catalog(open_page: OpenPage,
                                                        client: PortalClient) -> None:
    counts = "n => ChoicePortal.nt('{n} minute left', '{n} minutes left', n, {})"
    shown = {}
    for language in ("en", "zh"):
        iid = client.create(question(language=language))["interaction_id"]
        page = open_page(f"/choice/{iid}")
        shown[language] = [page.evaluate(f"({counts})({n})") for n in (0, 1, 3)]
    assert shown["en"] == ["0 minutes left", "1 minute left", "3 minutes left"]
    assert shown["zh"] == ["还剩 0 分钟", "还剩 1 分钟", "还剩 3 分钟"]


def test_the_scripts_evaluate_plural_forms_as_gettext_does(open_page: OpenPage,
                                                            client: PortalClient) -> None:
    iid = client.create(question())["interaction_id"]
    page = open_page(f"/choice/{iid}")
    numbers = list(range(0, 230))
    for rule in RULES:
        expected = [gettext.c2py(rule)(n) for n in numbers]
        got = page.evaluate("([rule, ns]) => ns.map(ChoicePortal.compilePlural(rule))",
                            [rule, numbers])
        assert got == expected, rule
    for unreadable in ("n +", "alert(1)", "n ? 1"):  # falls back to English's rule
        got = page.evaluate("(rule) => [0, 1, 2].map(ChoicePortal.compilePlural(rule))", unreadable)
        assert got == [1, 0, 1], unreadable
