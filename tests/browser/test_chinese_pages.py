"""Every page state a person sees, rendered in Chinese, holds no English sentence: a run of
three or more Latin words outside what the model wrote (and the model's text in these
questions is Chinese itself, so anything English on the page is ours). Covers a question in
each mode, several questions, the outcomes (answered, timed out, cancelled), the list,
settings, sign-in, a link that opens nothing, and the form's errors with scripts off."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from choice.client.portal_client import PortalClient
from tests.browser.conftest import OpenPage
from tests.browser.support import DESKTOP, iso_in, shoot
from tests.portal_process import PortalProcess

ENGLISH = re.compile(r"[A-Za-z][A-Za-z'’]*(?:[ \t]+[A-Za-z][A-Za-z'’]*){2,}")
"""Three Latin words in a row: a sentence (or most of one) that was not translated."""
DOUBLED_GAP = re.compile(r"[：，。；！？、] +\S")
"""A space after full-width punctuation, which carries its own gap ("理由：  适合")."""

OPTIONS = [
    {"id": "pg", "label": "关系数据库", "description": "作为**独立服务**运行。",
     "recommended": True, "rationale": "适合 **三副本** 部署。"},
    {"id": "lite", "label": "单文件数据库", "description": "与应用放在一起。"},
    {"id": "mem", "label": "内存", "description": "重启后丢失。"},
]


def zh_question(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"title": "为同步服务选择数据库",
                            "prompt": "同步服务需要存储。\n\n> 每秒约两百次写入",
                            "options": OPTIONS, "language": "zh",
                            "context": {"agent": "助手", "project": "同步"}}
    body.update(overrides)
    return body


def test_the_check_catches_an_english_sentence_and_lets_commands_and_names_pass() -> None:
    assert ENGLISH.findall("截止。the human did not choose") == ["the human did not choose"]
    assert ENGLISH.findall("运行 choice open 或粘贴 PostgreSQL、SQLite") == []
    assert DOUBLED_GAP.findall("你选择了 甲。 你的备注：乙") == ["。 你"]


def english_in(page: Page) -> list[str]:
    """The English sentences on the page, and any doubled gap after Chinese punctuation."""
    text = page.locator("body").inner_text()
    return ENGLISH.findall(text) + DOUBLED_GAP.findall(text)


@pytest.fixture
def in_chinese(client: PortalClient) -> Iterator[None]:
    """The portal's saved language is Chinese (the list, settings and sign-in follow it)."""
    before = client.settings()
    client.save_settings({"language": "zh"})
    yield
    client.save_settings({"language": before["language"]})


@pytest.mark.parametrize("mode", ["single", "multi", "text_input", "hybrid"])
def test_a_question_in_each_mode_reads_in_chinese(open_page: OpenPage, client: PortalClient,
                                                  in_chinese: None, mode: str) -> None:
    extra: dict[str, Any] = {"selection_mode": mode}
    if mode == "multi":
        extra.update(min_selections=2, max_selections=3, require_confirmation=True)
    if mode == "text_input":
        extra["options"] = []
    iid = client.create(zh_question(**extra))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    expect(page.get_by_test_id("title")).to_have_text("为同步服务选择数据库")
    assert english_in(page) == []


def test_several_questions_read_in_chinese(open_page: OpenPage, client: PortalClient,
                                           in_chinese: None) -> None:
    asked = [{"id": "db", "header": "数据库", "prompt": "选哪个？", "options": OPTIONS},
             {"id": "why", "header": "原因", "prompt": "为什么？", "selection_mode": "text_input"}]
    iid = client.create({"title": "两个问题", "questions": asked, "language": "zh"})["interaction_id"]
    page = open_page(f"/choice/{iid}")
    expect(page.get_by_test_id("question")).to_have_count(2)
    assert english_in(page) == []


def test_every_ending_reads_in_chinese_and_speaks_to_the_person(
        open_page: OpenPage, client: PortalClient, in_chinese: None) -> None:
    answered = client.create(zh_question(allow_annotations=True))["interaction_id"]
    client.respond(answered, {"selected_ids": ["pg"], "global_annotation": "尽快上线"})
    cancelled = client.create(zh_question())["interaction_id"]
    client.cancel(cancelled, "不需要了")
    timed_out = client.create(zh_question(timeout_seconds=10))["interaction_id"]
    client.call("PATCH", f"/api/interactions/{timed_out}", {"expires_at": iso_in(3)})
    assert client.poll(timed_out, 15)["action_status"] == "timeout"
    for iid, status in ((answered, "submitted"), (cancelled, "cancelled"), (timed_out, "timeout")):
        page = open_page(f"/choice/{iid}")
        expect(page.get_by_test_id("outcome")).to_have_attribute("data-status", status)
        assert english_in(page) == [], status
    summary = page.get_by_test_id("summary")
    expect(summary).to_have_text("截止前没有收到回答。已告知智能体在没有你的回答的情况下继续。")
    shoot(page, "zh-timed-out-desktop")


def test_the_list_settings_sign_in_and_a_dead_link_read_in_chinese(
        open_page: OpenPage, client: PortalClient, portal: PortalProcess, in_chinese: None) -> None:
    client.create(zh_question())
    for path, testid in (("/", "interaction-list"), ("/settings", "settings-page")):
        page = open_page(path)
        expect(page.get_by_test_id(testid)).to_be_visible()
        assert english_in(page) == [], path
    login = open_page("/login", signed_in=False)
    expect(login.get_by_test_id("login")).to_be_visible()
    assert english_in(login) == []
    gone = open_page("/d/" + "x" * 43, signed_in=False)
    expect(gone.get_by_test_id("link-gone")).to_be_visible()
    assert english_in(gone) == []


def test_the_forms_errors_without_scripts_are_chinese(
        browser: Browser, portal: PortalProcess, client: PortalClient, in_chinese: None) -> None:
    iid = client.create(zh_question(selection_mode="multi", min_selections=2,
                                    max_selections=3))["interaction_id"]
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{portal.base_url}/login?token={portal.token}&next=/choice/{iid}")
        page.locator("[data-option-id=pg] [data-testid=option-label]").click()
        page.get_by_test_id("submit").click()
        errors = page.get_by_test_id("form-errors")
        expect(errors).to_have_text("至少选择 2 项")
        assert english_in(page) == []
    finally:
        context.close()


def test_the_review_step_reads_in_chinese(open_page: OpenPage, client: PortalClient,
                                          in_chinese: None) -> None:
    iid = client.create(zh_question(require_confirmation=True, allow_annotations=True))
    page = open_page(f"/choice/{iid['interaction_id']}")
    page.locator("[data-option-id=pg] [data-testid=option-label]").click()
    page.get_by_test_id("global-note").fill("尽快")
    page.get_by_test_id("submit").click()
    expect(page.get_by_test_id("review-choice")).to_contain_text("关系数据库")
    assert english_in(page) == []
    shoot(page, "zh-review-desktop")


def test_chinese_is_never_slanted(open_page: OpenPage, client: PortalClient,
                                  in_chinese: None) -> None:
    iid = client.create(zh_question(prompt="这是*重点*，请注意。"))["interaction_id"]
    page = open_page(f"/choice/{iid}")
    emphasis = page.get_by_test_id("prompt").locator("em")
    expect(emphasis).to_have_text("重点")
    style = emphasis.evaluate("e => [getComputedStyle(e).fontStyle, getComputedStyle(e).fontWeight,"
                              " getComputedStyle(e).fontSynthesis]")
    assert style[0] == "normal" and int(style[1]) >= 600, style  # by weight, not a fake italic
    assert "none" in style[2], style
