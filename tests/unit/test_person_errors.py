"""The team's and the decision's field errors as a person reads them (`web/views/
person_errors.py`): a sentence for people in their language, never the API's wording for an
agent (JSON field names, routes), and the numbers the domain's message carried. And what an
error page says for each status."""

from __future__ import annotations

import re

import pytest

from choice.contract import FieldError
from choice.core.i18n import Translator
from choice.web.views.person_errors import (
    _BY_FIELD,
    page_problem,
    person_errors,
    person_message,
)

EN, ZH = Translator("en"), Translator("zh")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def test_an_empty_defer_reason_reads_as_a_sentence_for_a_person_in_both_languages() -> None:
    error = FieldError(field="rationale", code="required",
                       message="say why it is deferred: the agent and the team see this rationale.")
    assert person_message(error, EN, "defer_rationale") == (
        "Say why you are deferring it: the agent and the team see this reason.")
    assert person_message(error, ZH, "defer_rationale") == "请说明推迟的原因：智能体和团队都会看到。"


@pytest.mark.parametrize(("field", "code"), sorted(_BY_FIELD))
def test_every_sentence_is_translated_and_filled(field: str, code: str) -> None:
    error = FieldError(field=field, code=code, message="an agent's words: selected_ids")
    english, chinese = person_message(error, EN, field), person_message(error, ZH, field)
    assert "{" not in english and "selected_ids" not in english
    assert not LATIN_WORD.search(chinese), chinese  # no English left in the Chinese one


def test_the_quorum_error_keeps_its_numbers() -> None:
    error = FieldError(field="quorum.min_votes", code="quorum_too_large",
                       message="a quorum of 5 votes cannot be reached by the 3 people invited: "
                               "lower it to at most 3, invite more people, or leave it out.")
    assert person_message(error, EN) == ("A quorum of 5 votes cannot be reached by the 3 people "
                                         "invited: lower it to at most 3, or invite more people.")
    assert "5" in person_message(error, ZH) and "3" in person_message(error, ZH)


def test_a_field_is_known_by_its_base_name_and_an_unknown_error_keeps_its_message() -> None:
    name = FieldError(field="audience[2]", code="too_long", message="a name is at most 80...")
    assert person_message(name, ZH).startswith("名字最多")
    odd = FieldError(field="mode", code="invalid_choice", message="mode must be one of ...")
    assert person_errors([odd], EN)[0].message == "Mode must be one of ..."


@pytest.mark.parametrize("status", [400, 404, 405, 409, 410, 413, 415, 422, 429, 500, 502])
def test_every_error_page_reads_as_a_sentence_for_a_person_in_both_languages(
        status: int) -> None:
    english = page_problem(status, EN, size=256 * 1024, seconds=42)
    chinese = page_problem(status, ZH, size=256 * 1024, seconds=42)
    for said in (english, chinese):
        assert said.title and said.detail and "{" not in said.detail and "/api" not in said.detail
    assert not LATIN_WORD.search(chinese.title + chinese.detail.replace("KiB", "")), chinese


def test_an_error_page_says_the_limit_and_the_wait_it_is_about() -> None:
    assert "at most 10 MiB in one request" in page_problem(413, EN, size=10 * 2**20).detail
    assert page_problem(429, ZH, seconds=42).detail == "请等待 42 秒后再试。"
    assert page_problem(404, EN, question=True).title == "This question is not here"
    assert page_problem(404, EN).title == "There is no page at this address"
    assert page_problem(503, EN) == page_problem(500, EN)
