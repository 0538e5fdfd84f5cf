"""The code explains itself to the people who read it: no comment, docstring or schema text
in `choice/`, `static/` or `templates/` cites a document they do not have (a design "seed",
its sections, an issue number, a requirement id). Say what the rule means and why, and
point at the docs page that explains it (e.g. docs/guides/team-mode.md)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TREES = ("choice", "static", "templates")
TEXT = {".py", ".html", ".css", ".js", ".json", ".mako", ".txt", ".md", ".svg", ".toml", ".ini"}
CITATION = re.compile(
    r"\bseeds?\b(?!\s*[=(])"  # a design seed (not a random seed: `seed=`, `.seed(`)
    r"|(?<!RFC )(?<!RFC \d)(?<!RFC \d\d)(?<!RFC \d{3})(?<!RFC \d{4})(?<!RFC \d{4} )§"  # a section
    r"|\bissues? #?\d"  # an issue of the tracker
    r"|\bbug \d+[a-z]?\b"
    r"|\bN?FR-\d",  # a requirement id
    re.IGNORECASE)


def citations(text: str) -> list[str]:
    return [match.group(0) for match in CITATION.finditer(text)]


def test_the_pattern_finds_citations_and_leaves_the_rest() -> None:
    for cited in ("(seed §4.1)", "Seed 003 §1.4:", "the seed's CandidateReview", "(issue 29 §2)",
                  "Issue 25, bug 10c", "seed NFR-003", "FR-12", "seeds/hitl-request.md"):
        assert citations(cited), cited
    for fine in ("RFC 6454 §6.1", "random.seed(1)", "seed=42", "a seeded portal", "issued",
                 "the tissue 3", "see docs/guides/team-mode.md"):
        assert not citations(fine), fine


def test_no_file_cites_a_document_its_readers_do_not_have() -> None:
    found = []
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*")):
            if not path.is_file() or path.suffix not in TEXT:
                continue
            for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                found += [f"{path.relative_to(ROOT)}:{number}: {cited!r} in {line.strip()[:90]}"
                          for cited in citations(line)]
    assert not found, "\n".join(found)
