"""The repository explains itself to the people who read it, from a clone and nothing else.

- No file cites a document its readers do not have: a design "seed", its sections, an issue
  number, a requirement id. Say what the rule means and why, and point at the docs page
  that explains it (docs/design.md, docs/internals.md, docs/guides/team-mode.md).
- Every file or folder of ours that a comment, docstring, message or page names exists,
  and so does the heading a `page.md#heading` points at: a module that moved takes the
  comments that name it along (`web/security/auth.py`, not `web/auth.py`).

What counts as a path is written down here, with the few names that are not ours and
why; everything else that looks like a file of the repository must be one.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TREES = ("choice", "static", "templates", "tests", "bench", "scripts", "docs", "locales", ".ci")
TOP_FILES = ("README.md", "CONTRIBUTING.md", "pyproject.toml", "manifest.toml", "server.py",
             "hatch_build.py", "babel.cfg", "mkdocs.yml")
TEXT = {".py", ".html", ".css", ".js", ".mjs", ".json", ".mako", ".txt", ".md", ".svg",
        ".toml", ".ini", ".cfg", ".yml", ""}
"""Read as text ("": the scripts). Not read: pictures, the 0.1.0 database fixture, and the
catalogs (`.po`, `.pot`), which `scripts/extract-messages` writes from the code and pages."""
THIS = Path(__file__).resolve()
"""Skipped: its examples are what the patterns must catch."""

CITATION = re.compile(
    r"(?=[sibnf§])(?:"  # where one can start: skips the rest of the text fast
    # a design seed, not a random one (`seed=42`, `.seed(1)`, `--seed 7`, `{seed}`,
    # `seed: int`, "the same random seed"); the name only, so `SEED` is a constant
    r"(?<!random )(?<![.{-])\b(?-i:[Ss]eeds?)\b(?!\s*[=(]|[:)}\"]|'(?!s\b))"
    r"|(?<!RFC )(?<!RFC \d)(?<!RFC \d\d)(?<!RFC \d{3})(?<!RFC \d{4})(?<!RFC \d{4} )§"  # a section
    r"|\bissues? #?\d"  # an issue of the tracker
    r"|\bbug \d+[a-z]?\b"
    r"|\bN?FR-\d)",  # a requirement id
    re.IGNORECASE)

# -- What a path is ------------------------------------------------------------------------
EXTENSIONS = ("md", "py", "html", "js", "mjs", "css", "toml", "po", "pot", "cfg", "ini", "json",
              "lock", "sh", "yml", "yaml", "mako", "txt", "png", "svg", "pyz", "whl")
BARE_EXTENSIONS = ("md", "py", "html", "js", "mjs", "css", "toml", "cfg", "yml", "mako")
"""A name without a folder counts as one of ours only with these: `tool.sh`, `notes.txt`
or `answer.json` alone is far more often a file a test or a person makes than a file here."""
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s`'\"()<>\]]*")
IN_FOLDER = re.compile(
    rf"^(?:\.\.?/)*(?:[\w.-]+/)+(?:[\w.-]+\.(?:{'|'.join(EXTENSIONS)}))?$"
    r"|^(?:scripts|\.ci)/[\w.-]+$")
"""`docs/internals.md`, `web/security/auth.py`, `../guides/terminal.md`, `tests/unit/`, and
the scripts, which have no extension (`scripts/lock`, `.ci/run`)."""
BARE = re.compile(rf"^[\w-]+(?:\.[\w-]+)*\.(?:{'|'.join(BARE_EXTENSIONS)})$")
"""`DESIGN.md`, `relay.py`, `hx.js`."""
NOT_A_PATH = re.compile(r"^[/~<$]|[<>*?{}$@%:+\[\]]")
"""An absolute system path or an API route (`/etc/mime.types`, `/api/interactions`), a
person's own (`~/.local/share/choice`), a placeholder (`<data dir>/cache/`,
`<NNNN>_what_changed.py`), a variable, a glob (`static/js/**.js`) or a format string."""
PROSE_ROOTS = ("choice", "tests", "docs", "static", "templates", "locales")
"""Where prose may start a path: `web/security/auth.py` in any docstring means
`choice/web/security/auth.py`, `partials/_list.html` means `templates/partials/_list.html`."""

NOT_OURS = {
    "CLAUDE.md": "Claude Code's instructions, in the person's own project",
    ".claude/settings.json": "Claude Code's settings, in the person's own project",
    ".codex/hooks.json": "Codex's hooks, in the person's own project",
    "cache/": "the data dir's compiled templates (`<data dir>/cache/`)",
    "bin/": "a virtualenv's scripts",
    "../guides/terminal.md": "CONTRIBUTING's example of a link from one docs page to another",
}
MADE_UP = {
    "bench/realistic.py": "an agent's question about its own repository (`tests/test_cli.py`)",
}
"""Files whose text is someone else's: their paths are not checked (citations still are)."""


def citations(text: str) -> list[str]:
    return [match.group(0) for match in CITATION.finditer(text)]


@cache
def ignored_folders() -> tuple[str, ...]:
    """What the build and the runs make (`dist/`, `tests/artifacts/`, `__pycache__/`): the
    folders `.gitignore` names, which no clone has until something makes them."""
    lines = (ROOT / ".gitignore").read_text("utf-8").splitlines()
    return tuple(line for line in lines if line.endswith("/") and not NOT_A_PATH.search(line))


def generated(path: str) -> bool:
    for folder in ignored_folders():
        anchored = "/" in folder[:-1]
        if path.startswith(folder) or (not anchored and f"/{folder}" in f"/{path}"):
            return True
    return False


@cache
def repository_files() -> tuple[Path, ...]:
    """Every file of the trees and the top-level files, without what runs leave behind."""
    found = [ROOT / name for name in TOP_FILES]
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*")):
            inside = path.relative_to(ROOT / tree).parts
            if path.is_file() and not any(
                    part.startswith(".") or part == "__pycache__" for part in inside):
                found.append(path)
    return tuple(found)


@cache
def our_names() -> frozenset[str]:
    return frozenset(path.name for path in repository_files())


WRITTEN_BY_TOOLS = ("package-lock.json",)
"""Not read either: npm writes them, and the paths in them are inside the packages."""


def files() -> list[Path]:
    """The files read: text, not this one, not one a tool writes."""
    return [path for path in repository_files()
            if path.suffix in TEXT and path != THIS and path.name not in WRITTEN_BY_TOOLS]


# -- What a reader reads -------------------------------------------------------------------
PYTHON_TEXT = re.compile(
    r"(?=[#'\"rRbBuUfF])(?:(?P<comment>#[^\n]*)"
    r"|(?P<string>(?:[rRbBuU]|[fF][rR]?|[rR][fFbB]|[bB][rR])?"
    r'(?:"{3}[\s\S]*?"{3}|' r"'{3}[\s\S]*?'{3}|"
    r'"(?:\\.|[^"\\\n])*"|' r"'(?:\\.|[^'\\\n])*')))")
"""A comment, or a string literal whole (a `#` inside a string is not a comment, nor is a
quote inside a comment a string): one regular expression, many times faster than
`tokenize`, and this test is in the unit tier."""
COMMENTS = {
    ".html": re.compile(r"\{#.*?#\}|<!--.*?-->", re.DOTALL),
    ".js": re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL),
    ".mjs": re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL),
    ".css": re.compile(r"/\*.*?\*/", re.DOTALL),
    "": re.compile(r"^[ \t]*#.*$", re.MULTILINE),  # a shell script
}


def prose(path: Path, text: str) -> tuple[list[tuple[int, str]], frozenset[str]]:
    """What points a reader somewhere, as (where it starts, its text): comments and
    docstrings, messages, Markdown and configuration. Code is left out: a path the code
    opens fails its own tests when it is wrong. Second, the file names a Python file spells
    as values (`tmp_path / "tool.sh"`, `f"{cwd}/src/app.py"`): a test's own files, which
    its prose may name too."""
    if path.suffix in (".py", ".mako") or text.startswith("#!/usr/bin/env python"):
        read, data = [], set()
        for match in PYTHON_TEXT.finditer(text):
            string = match.group("string")
            if string is None or re.search(r"\s", string):
                read.append((match.start(), match.group(0)))
            else:
                data.add(string.strip("'\"rbfRBF").rsplit("/", 1)[-1])
        return read, frozenset(data)
    if path.suffix in COMMENTS:
        return [(m.start(), m.group(0)) for m in COMMENTS[path.suffix].finditer(text)], frozenset()
    return [(0, text)], frozenset()


# -- Where a path leads --------------------------------------------------------------------
CANDIDATE = re.compile(
    rf"(?<![\w\\/.~<>$@%#-])(?=[\w.~<>*?{{}}$@%:/#+\[\]-]*?(?:/|\.(?:{'|'.join(EXTENSIONS)})\b))"
    r"[\w.~<>*?{}$@%:/#+\[\]-]+")
"""A word with a `/` or a known extension in it: the only ones worth a closer look."""


def mentioned_paths(text: str) -> Iterator[tuple[int, str]]:
    """(where, token) for each token of `text` shaped like a path, `#heading` included."""
    masked = URL.sub(lambda url: " " * len(url.group(0)), text)
    for match in CANDIDATE.finditer(masked):
        token = match.group(0).rstrip(".,;:")
        token = re.sub(r"(?::\d+)+$", "", token).split("::")[0]  # file:12, test::name
        path = token.split("#")[0]
        if path and not NOT_A_PATH.search(path) and (IN_FOLDER.match(path) or BARE.match(path)):
            yield match.start(), token


def broken(token: str, where: Path, data: frozenset[str]) -> str | None:
    """Why `token`, named in the file `where`, leads nowhere; None when it leads somewhere."""
    path, _, heading = token.partition("#")
    if path in NOT_OURS or generated(path) or path.rsplit("/", 1)[-1] in data:
        return None
    if "/" not in path:
        module = ROOT / path.rsplit(".", 1)[0].replace(".", "/")  # choice.web.pages.html
        if path in our_names() or module.with_suffix(".py").is_file() or module.is_dir():
            return None
        return "no file of the repository has this name"
    bases = [*where.parents[: len(where.relative_to(ROOT).parts)], *(ROOT / r for r in PROSE_ROOTS)]
    found = next((base / path for base in bases if (base / path).exists()), None)
    if found is None:
        return "no such file or folder"
    if heading and found.suffix == ".md" and heading not in anchors(found.resolve()):
        return f"{found.relative_to(ROOT)} has no heading #{heading}"
    return None


@cache
def anchors(page: Path) -> frozenset[str]:
    """The ids mkdocs (Python-Markdown's toc) gives the page's headings."""
    ids, fenced = set(), False
    for line in page.read_text("utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (heading := re.match(r"#{1,6}\s+(.*?)\s*#*$", line)):
            ids.add(slug(heading.group(1)))
    return frozenset(ids)


def slug(title: str) -> str:
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def broken_paths(path: Path) -> list[str]:
    if path.relative_to(ROOT).as_posix() in MADE_UP:
        return []
    text = path.read_text("utf-8")
    read, data = prose(path, text)
    lines = [0, *(match.end() for match in re.finditer("\n", text))]
    return [f"{path.relative_to(ROOT)}:{bisect.bisect_right(lines, start + at)}: {token} ({why})"
            for start, piece in read for at, token in mentioned_paths(piece)
            if (why := broken(token, path, data))]


# -- The tests -----------------------------------------------------------------------------
def test_the_pattern_finds_citations_and_leaves_the_rest() -> None:
    for cited in ("(seed §4.1)", "Seed 003 §1.4:", "the seed's CandidateReview", "(issue 29 §2)",
                  "Issue 25, bug 10c", "seed NFR-003", "FR-12", "seeds/hitl-request.md",
                  "(issue 17, seeds 000/001)", "as the seed says", '"""Seed 000\'s option'):
        assert citations(cited), cited
    for fine in ("RFC 6454 §6.1", "random.seed(1)", "seed=42", "a seeded portal", "issued",
                 "the tissue 3", "see docs/guides/team-mode.md", "--seed 7", "seed: int",
                 "random.Random(seed)", 'f"{seed}"', "kill -9 random seed {SEED}", "SEED = 9",
                 "litestar#4576"):
        assert not citations(fine), fine


def test_the_path_check_finds_what_a_clone_lacks_and_leaves_the_rest() -> None:
    here = ROOT / "choice" / "store" / "engine.py"

    def leads_nowhere(line: str) -> list[str]:
        return [token for _, token in mentioned_paths(line) if broken(token, here, frozenset())]

    for missing in ("(see shared/NOTES.md)", "the request table in DESIGN.md", "(STYLE.md)",
                    "docs/nope.md", "`web/auth.py`", "choice/validation/rules.py",
                    "docs/internals.md#no-such-heading", "tests/nowhere/", "scripts/nope"):
        assert leads_nowhere(missing), missing
    for fine in ("docs/internals.md#sqlite", "`web/security/auth.py`", "`schema.py`",
                 "choice/validation.py", "tests/unit/", "`partials/_interaction_list.html`",
                 "https://github.com/litestar-org/litestar/issues/4576", "/etc/mime.types",
                 "/usr/bin/chromium", "~/.local/share/choice", "<data dir>/cache/templates",
                 "GET /api/interactions", "/choice/<id>", "static/js/**.js", "dist/choice.pyz",
                 "tests/artifacts/hardening.json", "choice.db-wal", "listing.json",
                 "choice.web.pages.html", "the project's CLAUDE.md", "0.1.0", "e.g.",
                 "scripts/lock", "`.ci/run`", "test_no_citations.py"):
        assert not leads_nowhere(fine), fine


def test_no_file_cites_a_document_its_readers_do_not_have() -> None:
    found = []
    for path in files():
        text = path.read_text("utf-8")
        lines = text.splitlines()
        starts = [0, *(match.end() for match in re.finditer("\n", text))]
        for cited in CITATION.finditer(text):
            number = bisect.bisect_right(starts, cited.start())
            found.append(f"{path.relative_to(ROOT)}:{number}: {cited.group(0)!r} in "
                         f"{lines[number - 1].strip()[:90]}")
    assert not found, "\n".join(found)


def test_every_file_a_reader_is_pointed_at_is_in_the_repository() -> None:
    found = [problem for path in files() for problem in broken_paths(path)]
    assert not found, "\n".join(found)
