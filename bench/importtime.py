"""`python -X importtime` output as a tree, for the benches that report where start-up goes
(`hook_bench.py`, `startup_bench.py`): each module with its own and cumulative time, its
depth, who imported it and what it imported."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)")


@dataclass
class Imported:
    self_us: int
    cumulative_us: int
    depth: int
    name: str
    parent: str = ""
    children: list[Imported] = field(default_factory=list)


def import_tree(stderr: str) -> list[Imported]:
    """The top-level imports of a `-X importtime` stderr, each with its subtree."""
    stack: list[Imported] = []
    for line in stderr.splitlines():
        match = LINE.match(line)
        if not match:
            continue
        entry = Imported(int(match[1]), int(match[2]), len(match[3]) // 2, match[4])
        while stack and stack[-1].depth > entry.depth:
            child = stack.pop()
            child.parent = entry.name
            entry.children.insert(0, child)
        stack.append(entry)
    return stack


def walk(entries: list[Imported]) -> list[Imported]:
    """Every module of the trees, depth first."""
    every = []
    for entry in entries:
        every.append(entry)
        every += walk(entry.children)
    return every
