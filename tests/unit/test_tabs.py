"""Opening the browser: only for web questions, only when no portal tab is open."""

from __future__ import annotations

import asyncio
from pathlib import Path

from choice.core.config import Settings
from choice.core.notifier import Change, LocalNotifier
from choice.web.live.tabs import BrowserOpener, Tabs
from tests.unit.test_login_codes import codes_in_memory


def created(interaction_id: str, interface: str = "web") -> Change:
    return Change("interaction.created", interaction_id, {"interface": interface})


def opener_for(tmp_path: Path, **env: str) -> BrowserOpener:
    settings = Settings.from_env({"CHOICE_DATA_DIR": str(tmp_path), **env})
    return BrowserOpener(settings, Tabs(), codes_in_memory(), lambda url: True)


async def test_a_new_web_question_with_no_tab_open_gets_a_one_time_sign_in_link(
        tmp_path: Path) -> None:
    opener = opener_for(tmp_path)
    url = opener.url_to_open(created("abc"))
    assert url is not None and url.endswith("&next=/choice/abc")
    code = url.split("code=")[1].split("&")[0]
    assert await opener.codes.redeem(code) and not await opener.codes.redeem(code)


def test_an_open_tab_is_told_instead(tmp_path: Path) -> None:
    opener = opener_for(tmp_path)
    with opener.tabs.connected():
        assert opener.url_to_open(created("abc")) is None


def test_terminal_questions_and_other_changes_open_nothing(tmp_path: Path) -> None:
    opener = opener_for(tmp_path)
    assert opener.url_to_open(created("abc", interface="terminal")) is None
    assert opener.url_to_open(Change("interaction.completed", "abc", {"interface": "web"})) is None


def test_a_question_the_mcp_client_handed_back_to_the_page_opens_it(tmp_path: Path) -> None:
    """An elicitation form that failed or was refused falls back to the page: nobody is
    looking at the portal yet, so it opens like a new question would."""
    opener = opener_for(tmp_path)
    handed_back = Change("interaction.updated", "abc", {"interface": "web",
                                                        "switched_from": "client"})
    url = opener.url_to_open(handed_back)
    assert url is not None and url.endswith("&next=/choice/abc")
    from_terminal = Change("interaction.updated", "abc", {"interface": "web",
                                                          "switched_from": "terminal"})
    assert opener.url_to_open(from_terminal) is None  # the terminal opens its own browser
    assert opener.url_to_open(Change("interaction.updated", "abc", {"interface": "web"})) is None


def test_disabled_never_opens(tmp_path: Path) -> None:
    assert opener_for(tmp_path, CHOICE_OPEN_BROWSER="0").url_to_open(created("abc")) is None


async def test_publishing_a_created_change_opens_the_browser_off_the_loop(tmp_path: Path) -> None:
    settings = Settings.from_env({"CHOICE_DATA_DIR": str(tmp_path)})
    opened: list[str] = []
    done = asyncio.Event()
    loop = asyncio.get_running_loop()

    def open_url(url: str) -> bool:
        opened.append(url)
        loop.call_soon_threadsafe(done.set)
        return True

    notifier = LocalNotifier()
    notifier.listen(BrowserOpener(settings, Tabs(), codes_in_memory(), open_url))
    notifier.publish(created("abc"))
    await asyncio.wait_for(done.wait(), 5)
    assert len(opened) == 1 and "next=/choice/abc" in opened[0]
