"""Where a final answer came from (docs/guides/write-back.md): the candidate accepted or lightly
edited is `discussion_extraction`; changed by more than 30 % of the candidate's length (a
normalised edit distance), `owner_override`; written with no candidate, `manual`.

Pure. The distance is Levenshtein's on whitespace-normalised text, computed only as far as
the 30 % bound needs: the common beginning and end are skipped, a rewrite is told by the
units one side has and the other lacks (a lower bound), and only a band of the table is
filled, stopping once every path is over the bound. Past `CHARACTER_LIMIT` characters it is
counted in words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from choice.contract import SummarySource

MATERIAL_SHARE = 0.3
CHARACTER_LIMIT = 1_000


def normalised(text: str) -> str:
    return " ".join(text.split())


def bounded_distance(a: Sequence[str], b: Sequence[str], limit: int) -> int:
    """The edit distance between `a` and `b`, or `limit + 1` if it is more than `limit`."""
    over = limit + 1
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    a, b = a[start:len(a) - end], b[start:len(b) - end]
    if abs(len(a) - len(b)) > limit:
        return over
    missing, extra = Counter(a), Counter(b)
    if max(sum((missing - extra).values()), sum((extra - missing).values())) > limit:
        return over
    if len(a) > len(b):
        a, b = b, a
    previous = [j if j <= limit else over for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        current = [over] * (len(b) + 1)
        current[0] = i if i <= limit else over
        lowest = current[0]
        item = a[i - 1]
        for j in range(max(1, i - limit), min(len(b), i + limit) + 1):
            value = min(previous[j - 1] + (item != b[j - 1]), previous[j] + 1, current[j - 1] + 1)
            current[j] = value
            lowest = min(lowest, value)
        if lowest > limit:
            return over
        previous = current
    return min(previous[len(b)], over)


def materially_changed(final: str, candidate: str) -> bool:
    """More than 30 % of the candidate's length changed (whitespace does not count)."""
    before, after = normalised(candidate), normalised(final)
    units_before: Sequence[str] = before
    units_after: Sequence[str] = after
    if max(len(before), len(after)) > CHARACTER_LIMIT:
        units_before, units_after = before.split(), after.split()
    limit = int(MATERIAL_SHARE * len(units_before))
    return bounded_distance(units_after, units_before, limit) > limit


def summary_source(final: str, candidate: str | None) -> SummarySource:
    """`manual` with no candidate (never asked, none in time, or an empty one), else
    `owner_override` or `discussion_extraction` by the 30 % rule."""
    if candidate is None or not normalised(candidate):
        return "manual"
    return "owner_override" if materially_changed(final, candidate) else "discussion_extraction"
