"""choice/terminal/answer_command.py: what `choice answer <id>` says before any UI runs, to
a person: an id that names no question, in the person's language."""

from __future__ import annotations

import io
from typing import Any

import pytest

from choice.client.portal_client import PortalError
from choice.core.config import Settings
from choice.core.i18n import translator
from choice.terminal.answer_command import answer, unknown_question


class NoSuchQuestion:
    """A portal with no questions and a saved language; it records what it was asked."""

    def __init__(self, language: str | None) -> None:
        self.language = language
        self.asked: list[str] = []

    def settings(self) -> dict[str, Any]:
        return {"language": self.language} if self.language else {}

    def detail(self, interaction_id: str) -> Any:
        self.asked.append(interaction_id)
        raise PortalError(404, {"errors": [{"code": "not_found", "message": "GET /api/..."}]})


def run(interaction_id: str, language: str | None = None) -> tuple[int, list[str]]:
    client = NoSuchQuestion(language)
    code = answer(client, interaction_id, out=io.StringIO(),  # type: ignore[arg-type]
                  settings=Settings.from_env())
    return code, client.asked


def test_an_unknown_id_is_named_with_choice_list_in_the_saved_language(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run("0123456789abcdef", "zh") == (1, ["0123456789abcdef"])
    assert capsys.readouterr().err == ("choice answer: 没有 id 为“0123456789abcdef”的问题："
                                       "`choice list` 会列出未结束的问题及其 id。\n")


@pytest.mark.parametrize("typed", ["a b", "a/b", "a?b", "x" * 65, "", "id\x1b[2J"])
def test_an_id_no_url_can_carry_is_not_sent(typed: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert run(typed) == (1, [])
    said = capsys.readouterr().err
    assert said.startswith('choice answer: no question has the id "')
    assert "\x1b" not in said and "GET /api" not in said


def test_a_long_id_is_cut_to_what_the_portal_could_hold() -> None:
    said = unknown_question("y" * 500, translator("en"))
    assert f'"{"y" * 64}"' in said and "y" * 65 not in said
