"""choice/web/views/templating.py: `ngettext` in templates picks the page's plural form."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from litestar.exceptions import TemplateNotFoundException

from choice.web.views.templates import Templates
from choice.web.views.templating import (
    _markdown,
    _plain,
    inline_code,
    make_environment,
    render_markdown,
)

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


def test_backticks_show_as_code_and_nothing_else_becomes_markup() -> None:
    shown = inline_code("Use `redis:7` **not** <b>x</b> [link](javascript:alert(1)) ``")
    assert shown == ('Use <code class="inline">redis:7</code> **not** &lt;b&gt;x&lt;/b&gt; '
                     "[link](javascript:alert(1)) ``")


def test_a_bidi_override_inside_a_code_span_is_closed_inside_it() -> None:
    shown = inline_code("a `\u202eb` c")
    assert shown == 'a <code class="inline">\u202eb\u202c</code> c'


def test_markdown_renders_emphasis_and_quotes_but_no_html() -> None:
    shown = render_markdown("Fits the **3-replica** deployment\n\n> quoted <script>x</script>")
    assert "<strong>3-replica</strong>" in shown and "<blockquote>" in shown
    assert "<script>" not in shown


def test_a_diff_block_marks_its_lines_and_escapes_them() -> None:
    shown = render_markdown("```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-<b>old</b>\n+new\n same\n```")
    assert '<span class="diff-del">-&lt;b&gt;old&lt;/b&gt;</span>' in shown
    assert '<span class="diff-add">+new</span>' in shown and '<span class="diff-hunk">' in shown
    assert "--- a/x\n+++ b/x" in shown and "<b>" not in shown  # file names unmarked
    assert "diff-" not in render_markdown("```sh\n+not a diff\n```")


def test_a_command_block_marks_each_word_and_keeps_every_space_escaped() -> None:
    shown = render_markdown("```sh\nnpm test -- --watch=false  <x>\nrm -rf \u202ecoverage/\n```")
    assert shown == (
        '<pre><code class="language-sh"><span class="word">npm</span> <span class="word">test'
        '</span> <span class="word">--</span> <span class="word">--watch=false</span>  '
        '<span class="word">&lt;x&gt;</span>\n<span class="word">rm</span> '
        '<span class="word">-rf</span> <span class="word">\u202ecoverage/\u202c</span></code></pre>\n')


def test_the_environment_is_made_at_the_first_template_and_missing_ones_are_named() -> None:
    templates = Templates()
    assert "env" not in vars(templates)
    assert templates.get_template("choice.html").name == "choice.html"
    assert "env" in vars(templates)
    with pytest.raises(TemplateNotFoundException, match=r"nowhere\.html"):
        templates.get_template("nowhere.html")
    assert templates.render_string("{{ _('Deny') }}", {"locale": "zh"}) == "拒绝"


PLAIN = list("abcXYZéß中文ÿ0129 ,.;:?!'\"/%$@=^{}()-+")
MARKED = ["*", "_", "`", "[", "]", "<", ">", "&", "#", "\\", "|", "~", "\n", "\t", "\u00a0",
          "\u202e", "\u2028", "\x00"]
NEAR_PLAIN = st.builds(str.__add__, st.sampled_from(["a", "Z", "é", "中", "1", " ", "*"]),
                       st.text(st.sampled_from(PLAIN * 4 + MARKED), max_size=40))


@settings(max_examples=500, deadline=None)
@given(st.one_of(NEAR_PLAIN, st.text(max_size=40)))
def test_plain_text_is_rendered_as_markdown_it_would_without_it(text: str) -> None:
    # The fast path must be invisible: whatever it takes, markdown-it writes the same bytes.
    if _plain(text):
        assert str(render_markdown(text)) == _markdown().render(text)


def test_a_plain_prompt_does_not_need_markdown_it_but_a_marked_one_does() -> None:
    assert _plain("Which database should the sync service use?")
    assert not _plain("Use `sqlite`?") and not _plain("1. first") and not _plain("- item")
    assert str(render_markdown('Say "hi" (or not)')) == "<p>Say &quot;hi&quot; (or not)</p>\n"
