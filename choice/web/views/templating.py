"""The Jinja environment: autoescaping everywhere, per-request translation, Markdown.

Translations (`_` and `ngettext`) are looked up per render from the `locale` in the
template context, never installed into the shared environment (that races between
concurrent requests). Model text is untrusted: it is autoescaped, bidi controls it leaves
open are closed where it ends (so they cannot mirror the page's own words), and the only
HTML we emit from it is markdown-it output with raw HTML and images turned off.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from jinja2.runtime import Context
from markupsafe import Markup

from choice.contract.attachments import ALLOWED_TYPES, ANSWER_LIMITS, INLINE_TYPES, file_size
from choice.contract.clock import iso, now
from choice.contract.safe_text import closed_bidi
from choice.contract.vocabulary import CUSTOM_INPUT_MAX, NOTE_MAX
from choice.core.i18n import translator
from choice.core.replies import question_count
from choice.core.resources import RESOURCES
from choice.core.time_defaults import ago, duration
from choice.web.views.template_cache import TemplateCache
from choice.web.views.time_left import (
    clock,
    due_words,
    relative_words,
    seconds_left,
    ticking,
    urgent,
)

if TYPE_CHECKING:  # imported on the first page that needs it, not at start
    from markdown_it import MarkdownIt


COMMAND_LANGUAGES = frozenset({"sh", "bash", "shell", "zsh"})
"""Code blocks that hold a command to approve: they wrap, at spaces only (`_words`)."""
_WORD = re.compile(r"(\S+)")


def _highlight(code: str, language: str, _attrs: str) -> str:
    """A ```diff block (what `choice hook` shows for an edit) with its added, removed and
    hunk lines marked for the stylesheet; a command block with its words marked; any other
    block is left to markdown-it, which escapes it. Every line is escaped here too: the
    text is the model's."""
    if language in COMMAND_LANGUAGES:
        return _words(code)
    if language != "diff":
        return ""
    marked = []
    for line in code.split("\n"):
        kind = ("hunk" if line.startswith("@@") else "" if line.startswith(("+++", "---"))
                else "add" if line.startswith("+") else "del" if line.startswith("-") else "")
        text = Markup.escape(closed_bidi(line))
        marked.append(Markup('<span class="diff-{}">{}</span>').format(kind, text) if kind else text)
    return str(Markup("\n").join(marked))


def _words(code: str) -> str:
    """Each run of non-blank characters in its own `<span class="word">`, which the
    stylesheet never breaks: a command wraps at its spaces only, so `--watch=false
    --coverage` cannot read as `--` / `coverage`; a word longer than the line scrolls."""
    pieces = _WORD.split(code.removesuffix("\n"))  # odd: a word, with its bidi controls closed
    return str(Markup("").join(
        Markup('<span class="word">{}</span>').format(closed_bidi(piece)) if index % 2
        else Markup.escape(piece) for index, piece in enumerate(pieces)))


@cache
def _markdown() -> MarkdownIt:
    """Made on the first page, not at start (markdown-it's import is slow)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "linkify": False,
                                     "highlight": _highlight}).disable("image")


_PLAIN_MARKS = frozenset(" ,.;:?!'\"/%$@=^{}()-+")


def _plain(text: str) -> bool:
    """One line that Markdown leaves as it is: it starts with a letter, ends without a
    space, and has only letters, digits, spaces and marks that mean nothing inside a line
    (no `*_`[]<>&#|~\\`, no line break, no tab, no Unicode space or control)."""
    return bool(text) and text[0].isalpha() and not text[-1].isspace() and all(
        char.isalnum() or char in _PLAIN_MARKS for char in text)


@lru_cache(maxsize=1024)
def render_markdown(text: str) -> Markup:
    """Markdown to HTML with raw HTML off: model text cannot inject elements or scripts;
    markdown-it refuses `javascript:` and other unsafe link schemes itself. Cached: a
    question's text never changes, and rendering it was most of a page's cost.

    Plain text is one paragraph, as markdown-it writes it, without loading markdown-it
    (its import costs time and memory): a page of plain questions never does."""
    if _plain(text):  # no `<`, `>` or `&` in it: only `"` needs escaping, as markdown-it does
        return Markup("<p>{}</p>\n").format(Markup(text.replace('"', "&quot;")))
    return Markup(_markdown().render(text))


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def inline_code(text: str) -> Markup:
    """A title, a label or help text: plain text but for `code` spans, which show as code.
    Nothing else is markup there (no emphasis, no links); each piece has its own bidi
    controls closed, so an override inside a code span cannot leak out of it."""
    pieces = _CODE_SPAN.split(text)  # even: plain text; odd: a code span's content
    return Markup("").join(
        Markup('<code class="inline">{}</code>').format(closed_bidi(piece)) if index % 2
        else Markup.escape(closed_bidi(piece)) for index, piece in enumerate(pieces))


def without_code_marks(text: str) -> str:
    """A title where no markup can show (the tab's <title>): its code spans as plain words."""
    return _CODE_SPAN.sub(r"\1", text)


@pass_context
def gettext(context: Context, message: str, **values: Any) -> str:
    """`_("If none comes within {time}, ...", time=...)`. A value that is our own markup
    (a `{% set %}` block, a macro's output) goes in as markup: the sentence is escaped
    and the other values with it, so one sentence stays one message for translators."""
    translated = translator(context.get("locale", "en"))(message)
    if any(isinstance(value, Markup) for value in values.values()):
        return Markup.escape(translated).format(**values)
    return translated.format(**values) if values else translated


@pass_context
def ngettext(context: Context, singular: str, plural: str, n: int, **values: Any) -> str:
    """Text with a count: the form the catalog's plural rule picks for `n`, with `{n}` and
    the keyword arguments filled in (`ngettext("{n} option", "{n} options", 3)`)."""
    translated = translator(context.get("locale", "en")).ngettext(singular, plural, n)
    return translated.format(n=n, **values)


@pass_context
def duration_text(context: Context, seconds: int) -> str:
    """`1800` -> `30 minutes`, in the page's language (`time_defaults.duration`)."""
    return duration(seconds, translator(context.get("locale", "en")))


@pass_context
def relative_age(context: Context, epoch: float) -> str:
    """`3 minutes ago`, in the page's language (`time_defaults.ago`)."""
    return ago(now() - epoch, translator(context.get("locale", "en")))


def seconds_to(expires_at: float) -> int:
    """Whole seconds left until `expires_at`, as the page's script counts them."""
    return seconds_left(expires_at, now())


@pass_context
def due_text(context: Context, expires_at: float) -> str:
    """"due 14:05", "due tomorrow 14:05": a far deadline, in the page's language."""
    return due_words(expires_at, now(), translator(context.get("locale", "en")))


@pass_context
def time_left_text(context: Context, expires_at: float) -> str:
    """"in 25 min": a list line's time left, in the page's language."""
    return relative_words(expires_at - now(), translator(context.get("locale", "en")))


def finalize(value: Any) -> Any:
    """Every `{{ ... }}` output: plain text (what a model wrote among it) gets its open bidi
    controls closed before it is escaped; Markup is ours and passes as it is."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return closed_bidi(value)
    return value


def make_environment(compiled: Path | None = None) -> Environment:
    """The pages' environment; `compiled` keeps the templates' compiled code between starts
    (`template_cache.py`)."""
    env = Environment(
        loader=FileSystemLoader(RESOURCES.templates),
        bytecode_cache=TemplateCache(compiled) if compiled else None,
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=finalize,
    )
    env.globals["_"] = gettext
    env.globals["ngettext"] = ngettext
    env.globals["now"] = now
    env.globals["duration"] = duration_text
    env.globals["text_limits"] = {"answer": CUSTOM_INPUT_MAX, "note": NOTE_MAX}
    env.filters["markdown"] = render_markdown
    env.filters["code"] = inline_code
    env.filters["unmarked"] = without_code_marks
    env.filters["filesize"] = file_size  # contract/attachments.py: the terminal says it so too
    env.tests["inline_image"] = INLINE_TYPES.__contains__  # shown in the page, not downloaded
    env.globals["file_limits"] = {"accept": ",".join(sorted(ALLOWED_TYPES)),
                                   "most": ANSWER_LIMITS.files,
                                   "each_mb": round(ANSWER_LIMITS.each / 1e6),
                                   "each_bytes": ANSWER_LIMITS.each}
    env.filters["age"] = relative_age
    env.filters["iso"] = iso
    env.filters["clock"] = clock  # time_left.py: the words of a deadline, as the scripts say them
    env.globals["seconds_left"] = seconds_to
    env.globals["due_words"] = due_text
    env.globals["time_left_words"] = time_left_text
    env.tests["ticking"] = ticking
    env.tests["urgent"] = urgent
    env.filters["question_count"] = question_count
    return env
