"""The real agent CLIs (Claude Code and Codex, as tests/agents installs them) against a fake
model and a real portal: how long a question takes to reach the person, and an answer the
model.

    python bench/agents_bench.py            # 7 runs of each path
    python bench/agents_bench.py --runs 3

Each run starts the CLI once with a fresh HOME, and the fake model's first turn is one tool
call. Figures, each as median and p95 over the runs:

- **tool_use → visible**: the fake model finished sending the tool call → the question is
  in the portal's list (polled every 5 ms), for Claude Code's hook (`claude -p`), Claude
  Code's MCP (`provide_choice` through `choice mcp`) and Codex's hook (TUI in tmux).
- The hook's figure split in two: **client** (tool_use → the hook command started, logged
  by a one-line shell prefix the bench adds to the command `choice hook-config` printed) and
  **ours** (hook started → visible: the `choice` process starting, reading its payload,
  asking the portal). Goal for ours: p95 <= 0.1 s.
- **answer → model**: the owner's answer POST starts → the fake model receives the tool
  result, for each path.

Nothing is asserted: it prints. Wall-clock stamps (the shell's `date +%s.%N`) are compared
with the bench's own; both read the same clock on one machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from choice.client.portal_client import PortalClient  # noqa: E402
from tests.agents.claude_code import ClaudeCode  # noqa: E402
from tests.agents.clis import AgentClis, installed  # noqa: E402
from tests.agents.codex import Codex  # noqa: E402
from tests.agents.fake_model import (  # noqa: E402
    AnthropicModel,
    ModelServer,
    ResponsesModel,
    Say,
    ToolUse,
)
from tests.portal_process import PortalProcess  # noqa: E402

POLL_SECONDS = 0.005
WAIT_SECONDS = 60.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def wall(monotonic: float) -> float:
    """A monotonic stamp on the wall clock the shell's `date` reads."""
    return monotonic + (time.time() - time.monotonic())


def log_hook_starts(settings: Path, log: Path) -> None:
    """Prefix every PermissionRequest hook command with a stamp of its start."""
    document = json.loads(settings.read_text())
    for entry in document["hooks"]["PermissionRequest"]:
        for hook in entry["hooks"]:
            hook["command"] = f"date +%s.%N >> {log}; {hook['command']}"
    settings.write_text(json.dumps(document))


def visible(client: PortalClient, match: Callable[[dict[str, Any]], bool]) -> tuple[str, float]:
    """Poll the list until a question matches: its id and when it was first seen."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        for item in client.list("active", 100)["interactions"]:
            if match(item):
                return str(item["interaction_id"]), time.monotonic()
        time.sleep(POLL_SECONDS)
    raise SystemExit("no question within 60 s")


def answer(client: PortalClient, model: ModelServer, iid: str, submission: dict[str, Any],
           turn: int = 0) -> float:
    posted = time.monotonic()
    client.respond(iid, submission)
    return model.result_of(turn).at - posted


def hook_start(log: Path) -> float:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if log.exists() and log.read_text().strip():
            return float(log.read_text().split()[0])
        time.sleep(POLL_SECONDS)
    raise SystemExit("the hook never started")


def sent(model: ModelServer) -> float:
    return float(model.wait_for(lambda: model.sent_at.get(0), "tool call sent"))


def claude_hook(clis: AgentClis, portal: PortalProcess, root: Path) -> dict[str, float]:
    client = portal.client()
    touch = ToolUse("Bash", {"command": "touch marker-file", "description": "bench"})
    with AnthropicModel([touch, Say("Done.")]) as model:
        agent = ClaudeCode(clis, root, model.base_url, portal=portal)
        log = root / "hook-starts.log"
        log_hook_starts(agent.home / ".claude" / "settings.json", log)
        agent.headless()
        try:
            iid, seen = visible(client, lambda item: item.get("project") == agent.project)
            started, tool_use = hook_start(log), sent(model)
            back = answer(client, model, iid, {"selected_ids": ["allow"]})
            agent.finish()
        finally:
            agent.stop()
    return {"visible": seen - tool_use, "client": started - wall(tool_use),
            "ours": wall(seen) - started, "answer": back}


def claude_mcp(clis: AgentClis, portal: PortalProcess, root: Path) -> dict[str, float]:
    client = portal.client()
    title = f"bench {uuid.uuid4().hex[:8]}"
    ask = {"title": title, "prompt": "Which one?",
           "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}
    with AnthropicModel([ToolUse("mcp__choice__provide_choice", ask), Say("Done.")]) as model:
        agent = ClaudeCode(clis, root, model.base_url, portal=portal, hooks=False, mcp=True)
        agent.headless(extra=("--allowedTools", "mcp__choice__provide_choice"))
        try:
            iid, seen = visible(client, lambda item: item.get("title") == title)
            tool_use = sent(model)
            back = answer(client, model, iid, {"selected_ids": ["a"]})
            agent.finish()
        finally:
            agent.stop()
    return {"visible": seen - tool_use, "answer": back}


def codex_hook(clis: AgentClis, portal: PortalProcess, root: Path) -> dict[str, float]:
    client = portal.client()
    touch = ToolUse("exec_command", {"cmd": "touch marker-file",
                                     "sandbox_permissions": "require_escalated",
                                     "justification": "bench"})
    with ResponsesModel([touch, Say("Done.")]) as model:
        agent = Codex(clis, root, model.base_url, portal=portal)
        log = root / "hook-starts.log"
        log_hook_starts(agent.codex_home / "hooks.json", log)
        try:
            agent.tui()
            iid, seen = visible(client, lambda item: item.get("project") == agent.project)
            started, tool_use = hook_start(log), sent(model)
            back = answer(client, model, iid, {"selected_ids": ["allow"]})
        finally:
            agent.stop()
    return {"visible": seen - tool_use, "client": started - wall(tool_use),
            "ours": wall(seen) - started, "answer": back}


def report(name: str, runs: list[dict[str, float]]) -> None:
    for key in runs[0]:
        values = [run[key] * 1000 for run in runs]
        print(f"  {name:<18} {key:<8} median {statistics.median(values):7.0f} ms   "
              f"p95 {percentile(values, 0.95):7.0f} ms   "
              f"({', '.join(f'{v:.0f}' for v in values)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    clis = installed()
    with tempfile.TemporaryDirectory() as scratch:
        portal = PortalProcess(Path(scratch) / "data").start()
        try:
            print(f"agents bench: {args.runs} runs each (ms; figures per run in brackets)")
            for name, path in (("Claude Code hook", claude_hook),
                               ("Claude Code MCP", claude_mcp), ("Codex hook", codex_hook)):
                runs = [path(clis, portal, Path(scratch) / f"{path.__name__}-{n}")
                        for n in range(args.runs)]
                report(name, runs)
        finally:
            portal.stop()


if __name__ == "__main__":
    main()
