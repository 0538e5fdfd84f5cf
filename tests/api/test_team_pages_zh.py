"""Every state of the team's and the decision's pages, rendered in Chinese with Chinese
content, holds no English sentence: what is left once the model's and the people's own
text is Chinese is ours, and ours must all come from the catalogs. The states: a
participant's open page and decided page, a refused comment, the owner's widened page with
the review open and with errors, the deferred panel, and the widen dialog with an error."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.test_team_pages import FORM, HTMX, agent, owner

Client = TestClient[Litestar]
TEAM_ZH = [{"name": "王芳"}, {"name": "李雷"}]
ASK_ZH: dict[str, Any] = {
    "title": "选一个数据库", "prompt": "同步服务需要一个存储。", "language": "zh",
    "timeout_seconds": 86_400, "widen_hint": "[WIDEN-HINT] 问问王芳。",
    "options": [{"id": "pg", "label": "甲库", "description": "已经在用。", "recommended": True,
                 "rationale": "团队**熟悉**它。"},
                {"id": "lite", "label": "乙库", "description": "一个文件。"}]}
ENGLISH = re.compile(r"\b[A-Za-z][a-z]+(?:[ ,'’-]+[A-Za-z][a-z]+)+")
"""Two English words in a row: a phrase of ours that no catalog translated."""


def visible_text(page: str) -> str:
    """What a person reads: the text between tags, and the attributes a screen reader or a
    tooltip speaks (`aria-label`, `title`, `placeholder`, `hx-confirm`)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    spoken = re.findall(r'(?:aria-label|title|placeholder|hx-confirm)="([^"]*)"', page)
    return html.unescape(" ".join([re.sub(r"<[^>]+>", " ", page), *spoken]))


def english_in(page: str) -> list[str]:
    return ENGLISH.findall(visible_text(page))


@pytest.fixture
def web(anonymous: Client) -> Client:
    assert anonymous.put("/api/settings", json={"team": TEAM_ZH, "language": "zh"},
                         headers=agent()).status_code == 200
    return anonymous


def widened(web: Client) -> tuple[str, dict[str, str]]:
    iid = web.post("/api/interactions", json=ASK_ZH, headers=agent()).json()["interaction_id"]
    reply = web.post(f"/api/interactions/{iid}/widen", json={"note": "大家怎么看？"},
                     headers=agent())
    assert reply.status_code == 201, reply.text
    links = {p["name"]: p["link"].rsplit("/d/", 1)[1] for p in reply.json()["participants"]}
    web.post(f"/api/d/{links['王芳']}/comments", json={"text": "我选甲库。"})
    web.put(f"/api/d/{links['王芳']}/vote", json={"option_ids": ["pg"]})
    web.put(f"/api/d/{links['李雷']}/vote", json={"option_ids": ["pg"]})
    return iid, links


SHOWN = {"participant": "vote-form", "refused comment": "comment-error",
         "quorum too large": "quorum-error", "owner, waiting": "review-waiting",
         "owner, review": "candidate-review", "empty defer reason": "defer-error",
         "deferred": "deferred", "participant, deferred": "discussion-deferred",
         "participant, decided": "team-outcome-facts", "widen dialog": "widen-dialog-hint",
         "widen refused": "widen-quorum-error"}


def post(web: Client, path: str, data: dict[str, Any]) -> str:
    return str(web.post(path, data=data, headers={**HTMX, **owner(web)}).text)


def test_the_team_and_decision_pages_hold_no_english_sentence_in_chinese(web: Client) -> None:
    iid, links = widened(web)
    pages: dict[str, str] = {}
    pages["participant"] = web.get(f"/d/{links['李雷']}").text
    pages["refused comment"] = str(web.post(f"/d/{links['李雷']}/comment", data={"text": " "},
                                            headers=HTMX).text)
    pages["owner, before the review"] = web.get(f"/choice/{iid}", headers=owner(web)).text
    pages["quorum too large"] = post(web, f"/choice/{iid}/quorum", {"min_votes": "9"})
    web.post(f"/api/interactions/{iid}/review", headers=agent())
    pages["owner, waiting"] = web.get(f"/choice/{iid}", headers=owner(web)).text
    web.post(f"/api/interactions/{iid}/candidate", headers=agent(),
             json={"candidate_summary": "两人都选甲库。", "candidate_answer": "甲库"})
    pages["owner, review"] = web.get(f"/choice/{iid}", headers=owner(web)).text
    pages["empty defer reason"] = post(web, f"/choice/{iid}/defer", {"defer_rationale": " "})
    pages["deferred"] = post(web, f"/choice/{iid}/defer", {"defer_rationale": "等预算。"})
    pages["participant, deferred"] = web.get(f"/d/{links['李雷']}").text
    pages["owner, decided"] = post(web, f"/choice/{iid}/resolve",
                                   {"action": "write", "selected": "pg", "rationale": "都同意。"})
    pages["participant, decided"] = web.get(f"/d/{links['李雷']}").text
    other = web.post("/api/interactions", json=ASK_ZH, headers=agent()).json()["interaction_id"]
    pages["widen dialog"] = web.get(f"/choice/{other}/widen", headers={**HTMX, **owner(web)}).text
    pages["widen refused"] = str(web.post(f"/choice/{other}/widen", headers={
        **FORM, **owner(web)}, data={"names": "王芳", "quorum": "5"}).text)
    for name, testid in SHOWN.items():  # each page is the state it is named for
        assert f'data-testid="{testid}"' in pages[name], name
    assert english_in(web.get(f"/d/{links['李雷']}?lang=en").text)  # the check sees English
    found = {name: english_in(page) for name, page in pages.items()}
    assert {name: words for name, words in found.items() if words} == {}


def test_the_owner_has_one_name_for_others_and_is_you_on_their_own_page(web: Client) -> None:
    iid, links = widened(web)
    assert web.post(f"/choice/{iid}/comment", data={"text": "我倾向甲库。"},
                    headers={**HTMX, **owner(web)}).status_code == 200
    authors = re.compile(r'data-testid="comment-author">([^<]+)<')
    assert authors.findall(web.get(f"/d/{links['李雷']}").text) == ["王芳", "提问者"]
    assert authors.findall(web.get(f"/choice/{iid}", headers=owner(web)).text) == ["王芳", "你"]
    post(web, f"/choice/{iid}/resolve", {"action": "write", "selected": "pg", "rationale": "都同意。"})
    decided = web.get(f"/choice/{iid}", headers=owner(web)).text
    assert re.search(r'data-testid="decided-by"[^>]*>你<', decided)
    teammate = visible_text(web.get(f"/d/{links['李雷']}").text)
    assert "提问者" in teammate and "决策人" not in teammate


def test_the_settings_say_in_plain_words_what_agents_call_auto_and_handles(web: Client) -> None:
    settings = visible_text(web.get("/settings", headers=owner(web)).text)
    assert "智能体让门户决定在哪里提问时使用" in settings
    assert "auto" not in settings and "@handle" not in settings
    assert "聊天消息里的 @名字" in settings  # the team row's handle, said as a person would
