"""Realistic questions for the benchmarks: a long Markdown prompt, six options with
descriptions, twenty titles, and several questions mixing the modes an agent uses.
`web_bench.py` loads them (run from the repository root, `bench/` is on the path) for its
page weights (`--weights`, against their budgets) and render times.
"""

from __future__ import annotations

from typing import Any

PROMPT = """\
The test suite takes **11 minutes** on CI, and most of that is `tests/test_server.py`: every
test there starts its own uvicorn process, waits for `/healthz`, and kills it afterwards. On
the 2-core runners a start costs about 1.4 s, and there are 212 such tests.

I see three ways to make it faster, and they are not exclusive:

1. One portal per test *session* (a `session`-scoped fixture), with a fresh data directory
   per test through a new `CHOICE_DATA_DIR` reload endpoint that only exists in test builds.
2. Run the module with `pytest-xdist -n auto`, which keeps the isolation but only helps on
   runners with more cores; the free ones have 2.
3. Move most of these tests to `TestClient` (in-process, no socket) and keep ~20 real-server
   tests for what only a real process shows: signals, the lifespan, ports in use.

Trade-offs I can see:

- (1) is the fastest, but a test that leaks a pending interaction can break the next one,
  and a test-only endpoint is one more thing that must never ship enabled.
- (3) is the most work (about 150 tests to port) but the result is the simplest to keep.

See the [pytest fixture scopes](https://docs.pytest.org/en/stable/how-to/fixtures.html) for
(1). Whatever you pick, I will not touch `tests/test_cli.py`, and I will run the full suite
twice to check for flakiness before I push.
"""

OPTIONS = [
    {"id": "session-fixture", "label": "One portal per session",
     "description": "A `session`-scoped fixture and a test-only reset endpoint. Fastest: "
                    "about **2 minutes** in total, at the cost of isolation between tests."},
    {"id": "xdist", "label": "pytest-xdist",
     "description": "`-n auto` on the existing tests. No code changes, but on 2 cores it "
                    "saves at most half: about 6 minutes."},
    {"id": "testclient", "label": "Port most tests to TestClient",
     "description": "In-process tests for routing, validation and pages; ~20 real-server tests "
                    "stay. About **3 minutes**, and the simplest suite to maintain.",
     "recommended": True,
     "rationale": "Keeps every test isolated and removes the slowest part for good."},
    {"id": "both", "label": "TestClient, then xdist",
     "description": "Option 3 first, then `-n auto` for what is left. Most work, ~2 minutes."},
    {"id": "nightly", "label": "Move real-server tests to a nightly job",
     "description": "Pull requests would run in ~1 minute, but a broken start-up would only "
                    "be caught the next morning."},
    {"id": "nothing", "label": "Leave it as it is",
     "description": "11 minutes is slow but it works; spend the time on the web side instead."},
]

TITLES = [
    "How should I speed up the test suite?", "Which database for the staging copy?",
    "Rename the `Interaction.opened` event?", "Drop Python 3.10 support?",
    "Where should the SQLite file live on macOS?", "Retry failed webhooks how often?",
    "Keep the old /api/v0 routes?", "Which licence for the vendored htmx?",
    "Split the service module?", "Default timeout for new questions",
    "Log format for production", "Which branch should I rebase onto?",
    "Publish the Docker image?", "Bump litestar to 2.26?", "Delete the unused fixtures?",
    "Translate the settings page now?", "Which icon set?", "Cache the rendered Markdown?",
    "Open the browser on every question?", "Keep the terminal UI's colours?",
]
TEAM = [{"name": "Alice Johnson", "handle": "@alice"}, {"name": "Bob Smith"},
        {"name": "Carol Lee", "email": "carol@example.com"}]
AGENTS = ["claude-code", "codex", "cursor-agent", "aider"]
PROJECTS = ["choice-portal", "billing", "infra", "docs-site"]


def realistic_ask(i: int, timeout_s: int = 3600) -> dict[str, Any]:
    return {"title": TITLES[i % len(TITLES)], "prompt": PROMPT, "options": OPTIONS,
            "timeout_seconds": timeout_s, "interface": "web",
            "context": {"agent": AGENTS[i % len(AGENTS)], "project": PROJECTS[i % len(PROJECTS)]}}


def realistic_questions(n: int) -> dict[str, Any]:
    """An interaction with `n` questions (`--questions`), cycling through the modes a real
    agent mixes: a one-pick with descriptions, a multi-pick, a typed answer, a hybrid."""
    modes: list[dict[str, Any]] = [
        {"header": "Approach", "prompt": "Which way should I speed up the suite?",
         "options": OPTIONS},
        {"header": "Runners", "prompt": "Where should the faster suite run?",
         "selection_mode": "multi", "options": [
             {"id": "ci", "label": "Every pull request"}, {"id": "main", "label": "Pushes to main"},
             {"id": "nightly", "label": "A nightly job", "description": "With the slow tests."}]},
        {"header": "Budget", "prompt": "How long may the suite take on CI, at most?",
         "selection_mode": "text_input", "placeholder": "e.g. 4 minutes"},
        {"header": "Owner", "prompt": "Who should review the change?", "selection_mode": "hybrid",
         "options": [{"id": "me", "label": "Me"}, {"id": "ops", "label": "The ops team"}]},
    ]
    questions = [{"id": f"q{i}", **modes[i % len(modes)]} for i in range(n)]
    return {"title": "Speed up the test suite", "prompt": PROMPT.split("\n\n")[0],
            "questions": questions, "timeout_seconds": 3600, "interface": "web",
            "context": {"agent": "claude-code", "project": "choice-portal"}}
