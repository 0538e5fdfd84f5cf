"""choice/web/views/templating.py: `ngettext` in templates picks the page's plural form."""

from __future__ import annotations

import pytest

from choice.web.views.templating import make_environment

COUNT = '{{ ngettext("Choose {n} option", "Choose {n} options", n) }}'


@pytest.mark.parametrize(("locale", "n", "shown"), [
    ("en", 1, "Choose 1 option"), ("en", 3, "Choose 3 options"), ("en", 0, "Choose 0 options"),
    ("zh", 1, "选择 1 项"), ("zh", 3, "选择 3 项"),
])
def test_a_count_in_a_template_takes_the_languages_form(locale: str, n: int, shown: str) -> None:
    assert make_environment().from_string(COUNT).render(locale=locale, n=n) == shown


def test_concurrent_renders_in_two_languages_do_not_mix() -> None:
    # Nothing is installed into the shared environment: each render reads its own locale.
    env = make_environment()
    template = env.from_string(COUNT)
    assert [template.render(locale=locale, n=2) for locale in ("zh", "en", "zh")] == [
        "选择 2 项", "Choose 2 options", "选择 2 项"]


def test_other_values_are_filled_besides_the_count() -> None:
    template = make_environment().from_string(
        '{{ ngettext("Choose {low} to {n} option", "Choose {low} to {n} options", 3, low=1) }}')
    assert template.render(locale="en") == "Choose 1 to 3 options"
    assert template.render(locale="zh") == "选择 1 到 3 项"
