"""The person's answer as the hook's decision, in the shape the agent reads:

    {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
      "decision": {"behavior": "allow" | "deny", "message": ..., "updatedInput": ...,
                   "updatedPermissions": ...}}}

Allow once is a bare allow. Approve gives Claude Code the plan's input back as received
(`updatedInput`): without it, Claude Code ignores the approval and its own dialog stays
open. "Always allow this" also sends back, as `updatedPermissions`, exactly the suggestions
the question described (`permission_updates.savable`), nothing else; Deny (and the plan's
"Keep planning") carries the person's note as `message`; AskUserQuestion is allowed with
`updatedInput` = its questions and the answers by question text. Codex fails closed on
`updatedInput` and `updatedPermissions`, so it never
gets them. Anything that is not a person's answer (cancelled, timed out) is None: the hook
then prints nothing and the agent asks in its own dialog.
"""

from __future__ import annotations

from typing import Any

from choice.hooks.payload import PERMISSION_REQUEST, HookPayload
from choice.hooks.permission_updates import savable
from choice.hooks.questions import ALLOW, ALWAYS, APPROVE, DENY, KEEP

ANSWERED = ("selected", "custom_input")
DENIED = "The person denied this in the choice portal."
KEEP_PLANNING = "The person wants you to keep planning before you start."


def decision_for(payload: HookPayload, result: dict[str, Any]) -> dict[str, Any] | None:
    """The output to print for `result` (a final poll reply), or None to fall through."""
    if result.get("action_status") not in ANSWERED:
        return None
    if payload.kind == "questions":
        if payload.agent != "claude":
            return None  # only Claude Code reads answers from updatedInput
        answers = result.get("answers_by_question")
        if not isinstance(answers, dict):
            return None
        return _output({"behavior": "allow", "updatedInput": {
            **payload.tool_input, "answers": answers}})
    picked = (result.get("selected_ids") or [None])[0]
    notes = [str((result.get("option_annotations") or {}).get(picked) or "").strip(),
             str(result.get("global_annotation") or "").strip()]
    note = "\n\n".join(note for note in notes if note)  # on the option, for the agent, or both
    if picked == APPROVE and payload.agent == "claude":
        # Claude Code takes a plan's approval only with its input given back as received
        return _output({"behavior": "allow", "updatedInput": payload.tool_input})
    if picked in (ALLOW, APPROVE):
        return allowed()
    if picked == ALWAYS and payload.agent == "claude":
        described = savable(payload.suggestions)
        if not described:
            return None  # the question offered no such option: never guess
        return _output({"behavior": "allow", "updatedPermissions": described})
    if picked in (DENY, KEEP):
        return _output({"behavior": "deny",
                        "message": note or (KEEP_PLANNING if picked == KEEP else DENIED)})
    return None  # no option this hook offered: never guess


def allowed() -> dict[str, Any]:
    """A bare allow: what Allow once prints, and the portal's own MCP tools get at once."""
    return _output({"behavior": "allow"})


def _output(decision: dict[str, Any]) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": PERMISSION_REQUEST, "decision": decision}}
