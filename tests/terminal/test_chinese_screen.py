"""The screen in Chinese: a box's right border stays in one column on lines with wide
characters (`？`, `：`, names in Hanzi), counted in display cells as the terminal draws
them; and the key bar names every key in the same words."""

from __future__ import annotations

import pytest

from choice.client.portal_client import PortalClient
from choice.terminal.text import width
from tests.portal_process import PortalProcess
from tests.terminal.conftest import Ask, Run

pytestmark = pytest.mark.slow


def border_columns(screen: str) -> dict[str, int]:
    """Each line of the box (from `╭` to `╰`) and the display column of its right border."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if "╭" in line)
    bottom = next(i for i, line in enumerate(lines) if "╰" in line)
    return {line: width(line[:max(line.rfind(mark) for mark in "╮│╯")])
            for line in lines[top:bottom + 1]}


@pytest.mark.parametrize("size", [(80, 24), (50, 20)])
def test_a_boxs_right_border_is_one_column_on_every_line_in_chinese(
        size: tuple[int, int], ask: Ask, run: Run, client: PortalClient,
        portal: PortalProcess) -> None:
    client.save_settings({"team": [{"name": "王芳"}, {"name": "李雷"}]})
    iid = ask(f"要把 opened 事件改名吗？ {size[0]} 列", language="zh")
    invited = client.widen(iid, None, "block")
    secret = invited["participants"][0]["link"].rsplit("/", 1)[1]
    PortalClient(portal.base_url, None).call("GET", f"/api/d/{secret}")  # 王芳 ✓
    pane = run("answer", iid, width=size[0], height=size[1])
    screen = pane.wait_for("╰", "问题：要把 opened 事件改名吗？", "王芳 ✓")
    columns = border_columns(screen)
    assert len(columns) >= 4 and len(set(columns.values())) == 1, columns


def test_the_key_bar_names_each_key_alike_in_chinese(ask: Ask, run: Run) -> None:
    iid = ask("Which store, the key bar in Chinese?", language="zh")
    pane = run("answer", iid, width=120, height=30)
    bar = pane.wait_for("回车 提交").splitlines()[-1]
    assert "空格 选择" in bar and "enter" not in bar.lower() and "space" not in bar
    pane.press("Tab")  # a note on the option: the editor's own bar
    bar = pane.wait_for("回车 保存").splitlines()[-1]
    assert "Esc 返回" in bar and "Enter" not in bar
