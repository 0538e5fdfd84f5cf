"""A hook payload as a question a person can read: a command in a code block with where it
runs, an edit as a diff, the plan as Markdown, AskUserQuestion as its own questions, any
other tool's input as JSON. Every text the agent wrote (the command, the plan, the labels)
stays untrusted: it is shown in code blocks or passed as the question's own text, where the
portal escapes it like any other.

The options' ids are what `decisions.py` reads back: allow, always (only when the agent
offers a rule to save), deny; approve and keep for the plan. No option is picked by default
and the question takes a note, which goes to the agent with a Deny.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

from choice.core.i18n import Translator
from choice.hooks.payload import HookPayload

ALLOW, ALWAYS, DENY, APPROVE, KEEP = "allow", "always", "deny", "approve", "keep"
TITLE_MAX = 200
PROMPT_MAX = 20_000
SHOWN_LINES = 300
"""A diff or a new file is cut after this many lines (the rest is counted)."""


def question_for(payload: HookPayload, _: Translator, timeout_seconds: int) -> dict[str, Any]:
    """The request to POST for `payload`, in `_`'s language."""
    if payload.kind == "questions":
        return _asked_questions(payload, _, timeout_seconds)
    title, prompt, options = {"shell": _shell, "edit": _edit, "plan": _plan}.get(
        payload.kind, _other)(payload, _)
    return {
        "title": _clip(title, TITLE_MAX), "prompt": _clip(prompt, PROMPT_MAX),
        "options": options, "selection_mode": "single", "default_selection_ids": [],
        "allow_annotations": True, "single_submit_mode": False,
        "timeout_seconds": timeout_seconds, "language": _.language,
        "context": context_of(payload)}


def context_of(payload: HookPayload) -> dict[str, Any]:
    """Who asks and about what, for the list and the audit trail: the agent, the project
    (the working directory's name), the session, the tool and a hash of its input."""
    context = {"agent": payload.agent_name, "project": Path(payload.cwd).name or None,
               "conversation_id": payload.session_id[:200] or None,
               "tool_call_id": payload.tool_use_id or None,
               "tool": payload.tool[:200], "tool_input_sha256": payload.input_sha256}
    return {key: value for key, value in context.items() if value}


def _permission_options(payload: HookPayload, _: Translator) -> list[dict[str, Any]]:
    options = [{"id": ALLOW, "label": _("Allow once")}]
    said = _what_always_does(payload.suggestions, _)
    if said:
        options.append({"id": ALWAYS, "label": _("Always allow this"), "description": " ".join(said)})
    options.append({"id": DENY, "label": _("Deny")})
    return options


def _what_always_does(suggestions: list[dict[str, Any]], _: Translator) -> list[str]:
    """What "Always allow this" changes, from Claude Code's own suggestions: the rules it
    saves (as Claude Code writes them: `Bash(npm test:*)`), the mode it switches to, the
    directories it adds. Nothing readable in them: no such option."""
    rules, said = [], []
    for suggestion in suggestions:
        for rule in suggestion.get("rules") or []:
            if isinstance(rule, dict) and rule.get("toolName"):
                content = rule.get("ruleContent")
                rules.append(f"{rule['toolName']}({content})" if content else str(rule["toolName"]))
        if suggestion.get("type") == "setMode" and suggestion.get("mode"):
            said.append(_("Switches the agent to its {mode} mode.").format(
                mode=_code_span(str(suggestion["mode"]))))
        directories = [str(d) for d in suggestion.get("directories") or []]
        if suggestion.get("type") == "addDirectories" and directories:
            said.append(_("Lets the agent work in {directories}.").format(
                directories=", ".join(_code_span(d) for d in directories)))
    if rules:
        said.insert(0, _("Adds the rule {rules} to the agent's settings.").format(
            rules=", ".join(_code_span(rule) for rule in rules)))
    return said


def _where(payload: HookPayload, _: Translator) -> str:
    facts = []
    if payload.cwd:
        facts.append(_("Directory: {cwd}").format(cwd=_code_span(payload.cwd)))
    if payload.session_id:
        facts.append(_("Session: {session}").format(session=_code_span(payload.session_id)))
    return " · ".join(facts)


def _shell(payload: HookPayload, _: Translator) -> tuple[str, str, list[dict[str, Any]]]:
    command = str(payload.tool_input.get("command") or "").strip("\n")
    description = str(payload.tool_input.get("description") or "").strip()
    summary = description or _first_line(command) or payload.tool
    prompt = "\n\n".join(part for part in (
        description and description != summary and description,
        _fenced(command, "sh") if command else "",
        _where(payload, _)) if part)
    return (_("Allow {tool}: {summary}").format(tool=payload.tool, summary=summary), prompt.strip(),
            _permission_options(payload, _))


def _edit(payload: HookPayload, _: Translator) -> tuple[str, str, list[dict[str, Any]]]:
    given = payload.tool_input
    path = str(given.get("file_path") or given.get("notebook_path") or "")
    shown = _relative(path, payload.cwd)
    if payload.tool == "Write":
        change = _written(str(given.get("content") or ""), shown, _)
    elif payload.tool == "MultiEdit":
        change = "\n".join(_diff(str(edit.get("old_string") or ""), str(edit.get("new_string") or ""),
                                 shown) for edit in given.get("edits") or [] if isinstance(edit, dict))
        change = _fenced(change, "diff")
    elif payload.tool == "Edit":
        change = _fenced(_diff(str(given.get("old_string") or ""),
                               str(given.get("new_string") or ""), shown), "diff")
    else:
        change = _fenced(json.dumps(given, indent=2, ensure_ascii=False), "json")
    return (_("Allow {tool}: {path}").format(tool=payload.tool, path=shown or payload.tool),
            change + "\n\n" + _where(payload, _), _permission_options(payload, _))


def _written(content: str, shown: str, _: Translator) -> str:
    """A Write: what the file will hold (its head). Only what the agent sent is shown: the
    file on disk is never read into the portal (it may hold secrets a widened question
    would share)."""
    lines = content.splitlines()
    more = len(lines) - SHOWN_LINES
    said = _("The new content of {path}:").format(path=_code_span(shown)) + "\n\n" + \
        _fenced("\n".join(lines[:SHOWN_LINES]), "")
    if more > 0:
        said += "\n\n" + _.ngettext("… and {n} more line.", "… and {n} more lines.", more).format(n=more)
    return said


def _plan(payload: HookPayload, _: Translator) -> tuple[str, str, list[dict[str, Any]]]:
    plan = str(payload.tool_input.get("plan") or "").strip() or _("(The agent sent no plan.)")
    return (_("Approve the plan?"), plan + "\n\n" + _where(payload, _), [
        {"id": APPROVE, "label": _("Approve"), "description": _("The agent starts on it.")},
        {"id": KEEP, "label": _("Keep planning"),
         "description": _("Your note goes to the agent as feedback.")}])


def _other(payload: HookPayload, _: Translator) -> tuple[str, str, list[dict[str, Any]]]:
    shown = json.dumps(payload.tool_input, indent=2, ensure_ascii=False)
    return (_("Allow {tool}?").format(tool=payload.tool),
            _fenced(shown, "json") + "\n\n" + _where(payload, _), _permission_options(payload, _))


def _asked_questions(payload: HookPayload, _: Translator, timeout_seconds: int) -> dict[str, Any]:
    """AskUserQuestion's own input (only the fields it documents), which the portal reads as
    several questions; its answers come back by question text."""
    questions = []
    for asked in payload.tool_input.get("questions") or []:
        if not isinstance(asked, dict):
            continue
        questions.append({
            "question": asked.get("question"), "header": asked.get("header"),
            "multiSelect": bool(asked.get("multiSelect")),
            "options": [{key: option[key] for key in ("label", "description") if key in option}
                        for option in asked.get("options") or [] if isinstance(option, dict)]})
    return {"questions": questions, "timeout_seconds": timeout_seconds,
            "language": _.language, "context": context_of(payload)}


# -- Markdown that cannot be broken out of -----------------------------------------------------
def _fenced(text: str, language: str) -> str:
    """`text` in a code block whose fence is longer than any backtick run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{_cut(text)}\n{fence}"


def _code_span(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _diff(before: str, after: str, path: str) -> str:
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(),
                                 f"a/{path}", f"b/{path}", lineterm="", n=3)
    return "\n".join(lines) or f"(no change to {path})"


def _cut(text: str) -> str:
    lines = text.splitlines()
    if len(lines) <= SHOWN_LINES:
        return _clip(text, PROMPT_MAX - 2000)
    return _clip("\n".join(lines[:SHOWN_LINES]), PROMPT_MAX - 2000) + \
        f"\n… (+{len(lines) - SHOWN_LINES})"


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def _relative(path: str, cwd: str) -> str:
    if path and cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1:]
    return path


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
