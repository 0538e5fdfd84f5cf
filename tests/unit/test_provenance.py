"""`choice/decision/provenance.py`: where a final answer came from. The 30 % rule at its
boundary (exactly 30 % of the candidate's length is a light edit, one unit more is the
owner's own answer), whitespace that does not count, the empty candidate, long texts counted
in words, and the bounded edit distance checked against a plain Levenshtein."""

from __future__ import annotations

import random

import pytest

from choice.decision.provenance import (
    CHARACTER_LIMIT,
    bounded_distance,
    materially_changed,
    summary_source,
)


def levenshtein(a: str | list[str], b: str | list[str]) -> int:
    """The textbook dynamic programme, the whole table: the reference to check against."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j - 1] + (x != y), previous[j] + 1, current[j - 1] + 1))
        previous = current
    return previous[-1]


def substituted(text: str, count: int, start: int = 0) -> str:
    """`text` with `count` characters from `start` replaced by ones it does not contain."""
    return text[:start] + "#" * count + text[start + count:]


@pytest.mark.parametrize("length", [10, 20, 100, 1000])
def test_exactly_30_percent_is_not_material_and_one_more_is(length: int) -> None:
    candidate = "".join(random.Random(length).choice("abcdefgh") for _ in range(length))
    share = 3 * length // 10
    assert levenshtein(substituted(candidate, share, 1), candidate) == share
    assert summary_source(substituted(candidate, share, 1), candidate) == "discussion_extraction"
    assert summary_source(substituted(candidate, share + 1, 1), candidate) == "owner_override"


def test_the_share_is_of_the_candidates_length_and_rounds_down() -> None:
    candidate = "abcdefghijk"  # 11 characters: 30 % is 3.3, so 3 changes are light, 4 are not
    assert not materially_changed(substituted(candidate, 3), candidate)
    assert materially_changed(substituted(candidate, 4), candidate)
    assert materially_changed(candidate + "xyzw", candidate)  # additions count
    assert not materially_changed(candidate[:-3], candidate)  # and deletions


def test_whitespace_does_not_count() -> None:
    candidate = "PostgreSQL, with the migration planned from day 1."
    respaced = "  PostgreSQL,\n\twith   the migration\nplanned from day 1.  "
    assert summary_source(respaced, candidate) == "discussion_extraction"
    assert not materially_changed(respaced, candidate)
    # ... but a word run together is a change like any other: one character here.
    assert not materially_changed("PostgreSQL,with the migration planned from day 1.", candidate)


@pytest.mark.parametrize("candidate", [None, "", "   ", "\n\t"])
def test_no_candidate_or_an_empty_one_is_manual(candidate: str | None) -> None:
    assert summary_source("SQLite", candidate) == "manual"
    assert summary_source("", candidate) == "manual"


def test_an_accepted_candidate_is_discussion_extraction_and_a_rewrite_is_override() -> None:
    candidate = "PostgreSQL, with the migration path planned from day 1."
    assert summary_source(candidate, candidate) == "discussion_extraction"
    assert summary_source("SQLite for now; revisit next quarter.", candidate) == "owner_override"
    assert summary_source("", candidate) == "owner_override"  # erased: all of it changed


def test_long_texts_are_counted_in_words() -> None:
    words = [f"word{i:03d}" for i in range(300)]  # 2,399 characters: past the limit
    candidate = " ".join(words)
    assert len(candidate) > CHARACTER_LIMIT
    # "word" capitalised in 91 words: 364 characters (15 % of the text) but 91 of 300
    # words (over 30 %): material, because a long text is counted in words.
    touched = " ".join(w.upper() if i < 91 else w for i, w in enumerate(words))
    assert levenshtein(touched, candidate) == 364 < 0.3 * len(candidate)
    assert materially_changed(touched, candidate)
    ninety = " ".join(w.upper() if i < 90 else w for i, w in enumerate(words))
    assert not materially_changed(ninety, candidate)  # exactly 30 % of the words
    reordered = " ".join(words[150:] + words[:150])
    assert materially_changed(reordered, candidate)


def test_a_long_final_answer_against_a_short_candidate_is_an_override() -> None:
    candidate = "PostgreSQL."
    final = "PostgreSQL. " + "Because the team needs replication and point-in-time recovery. " * 20
    assert len(final) > CHARACTER_LIMIT
    assert summary_source(final, candidate) == "owner_override"


def test_bounded_distance_agrees_with_levenshtein_on_random_strings() -> None:
    rng = random.Random(13)
    for _ in range(3000):
        a = "".join(rng.choice("abc") for _ in range(rng.randint(0, 25)))
        b = "".join(rng.choice("abc") for _ in range(rng.randint(0, 25)))
        if rng.random() < 0.5:  # near copies too, where the bound matters most
            b = "".join(ch for ch in a if rng.random() > 0.2) + b[:rng.randint(0, 3)]
        exact = levenshtein(a, b)
        for limit in (0, 1, 2, exact - 1, exact, exact + 1, 40):
            if limit < 0:
                continue
            assert bounded_distance(a, b, limit) == min(exact, limit + 1), (a, b, limit)


def test_bounded_distance_agrees_with_levenshtein_on_word_lists() -> None:
    rng = random.Random(7)
    vocabulary = ["the", "team", "wants", "PostgreSQL", "SQLite", "now", "later"]
    for _ in range(1000):
        a = [rng.choice(vocabulary) for _ in range(rng.randint(0, 15))]
        b = [rng.choice(vocabulary) for _ in range(rng.randint(0, 15))]
        exact = levenshtein(a, b)
        for limit in range(0, 17):
            assert bounded_distance(a, b, limit) == min(exact, limit + 1), (a, b, limit)
