"""Every terminal screen drawn in Chinese has no English sentence (a person reads
the catalogs' words, never an untranslated line): the question, its help, the settings,
the confirmation, the editors, the widen dialog, the waiting box with a reminder, a
deferral and the review, drawn into a window that records what curses would show.

Model text here is Chinese too, so any English that shows is ours. Key names (`Tab`,
`Esc`) and commands (`choice open`) are not sentences and are allowed; the key bar names
Enter and Space in the catalog's words, the same on every screen."""

from __future__ import annotations

import re
from typing import Any

import pytest

from choice.contract import TeamMember
from choice.contract.clock import iso, now
from choice.contract.validation import validate_request
from choice.core.i18n import translator
from choice.terminal.question import Question
from choice.terminal.screens.screen import Screen
from choice.terminal.stages.review import open_defer, open_review
from choice.terminal.state import AnswerState
from choice.terminal.team_view import Member, TeamView
from choice.terminal.widening import WidenDialog
from choice.terminal.write_back import Candidate, Deferral, WriteBack

ENGLISH = re.compile(r"[A-Za-z]{2,}(?:[ ,;:'-]+[A-Za-z]{2,}){2,}")
"""Three English words in a row: a sentence, or part of one."""
ALLOWED = ("choice open", "choice answer")


class Window:
    """What curses would show: the text put at each row."""

    def __init__(self, cols: int = 80, rows: int = 40) -> None:
        self.size, self.rows = (rows, cols), [""] * rows

    def getmaxyx(self) -> tuple[int, int]:
        return self.size

    def erase(self) -> None:
        self.rows = [""] * self.size[0]

    def addstr(self, row: int, col: int, text: str, attr: int = 0) -> None:
        self.rows[row] += text

    def refresh(self) -> None:
        pass


def zh_state(**fields: Any) -> AnswerState:
    payload = {"title": "选择数据库", "prompt": "服务需要一个**存储**。选哪个？",
               "options": [{"id": "pg", "label": "甲", "description": "服务器",
                            "rationale": "适合**三副本**部署"},
                           {"id": "lite", "label": "乙", "description": "文件"}],
               "allow_annotations": True, **fields}
    request = validate_request(payload).request
    question = Question.from_detail({
        "interaction_id": "i-1", "request": request.model_dump(mode="json"),
        "created_at": iso(now()), "expires_at": iso(now() + 300), "status": "pending",
        "language": "zh"})
    return AnswerState(question, lambda _s: None, translator("zh"),
                       {"interface": "terminal", "timeout_seconds": 300, "language": "zh"})


def widened(state: AnswerState) -> AnswerState:
    state.team = TeamView("block", now(), now() + 300, [Member("王芳", False),
                                                        Member("李雷", True)],
                          [], {"pg": ["李雷"]}, 0)
    state.status, state.discussion_url = "widened", "http://127.0.0.1:8765/choice/i-1"
    return state


def screens() -> dict[str, AnswerState]:
    states: dict[str, AnswerState] = {"question": zh_state(), "hidden": zh_state()}
    states["hidden"].hidden = {"lite"}
    states["help"] = zh_state()
    states["help"].help_open = True
    states["settings"] = zh_state()
    states["settings"].stage = "settings"
    states["text row"] = zh_state(selection_mode="hybrid")
    states["text row"].cursor = 2
    states["note"] = zh_state()
    states["note"].open_editor("note", states["note"]._("Note on {label}").format(label="甲"),
                               "")
    states["cancel"] = zh_state()
    states["cancel"].open_cancel()
    states["confirm"] = zh_state(require_confirmation=True)
    states["confirm"].picked = {"pg"}
    states["confirm"].stage = "confirm"
    states["widen"] = zh_state()
    states["widen"].open_widen(WidenDialog("选择数据库", [TeamMember(name="王芳")]))
    states["waiting, reminded"] = widened(zh_state())
    states["waiting, reminded"].reminder = True
    states["deferred"] = zh_state()
    states["deferred"].deferral = Deferral("等预算", now())
    states["review"] = widened(zh_state())
    open_review(states["review"], Candidate("candidate_ready", "大家同意甲", "甲", "甲", ["pg"],
                                            None, ["[李雷] 甲"], 1, False, ["李雷"]))
    states["review, timed out"] = widened(zh_state())
    states["review, timed out"].write_back = WriteBack(Candidate(
        "timed_out", "", "", "", [], None, [], 0, False, []))
    states["review, timed out"].stage = "review"
    states["defer reason"] = zh_state()
    open_defer(states["defer reason"])
    return states


@pytest.mark.parametrize("name", list(screens()))
@pytest.mark.parametrize("cols", [80, 50])
def test_a_chinese_terminal_screen_has_no_english_sentence(name: str, cols: int) -> None:
    state = screens()[name]
    window = Window(cols)
    Screen(window, state, lambda: True).draw()
    shown = "\n".join(window.rows)
    for allowed in ALLOWED:
        shown = shown.replace(allowed, "")
    found = ENGLISH.findall(shown)
    assert not found, f"{name}: {found}\n{shown}"
    assert "代理" not in shown  # agent is 智能体


@pytest.mark.parametrize("name", list(screens()))
def test_a_chinese_key_bar_names_each_key_in_one_word_on_every_screen(name: str) -> None:
    window = Window(cols=240)
    Screen(window, screens()[name], lambda: True).draw()
    bar = window.rows[-1]
    assert bar.strip(), name
    assert not re.search(r"\b([Ee]nter|[Ss]pace|esc|tab)\b", bar), f"{name}: {bar}"
