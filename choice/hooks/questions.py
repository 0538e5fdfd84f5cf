"""A hook payload as a question a person can read: a command in a code block with where it
runs, an edit as a diff against the file on disk, the plan as Markdown, AskUserQuestion as
its own questions, any other tool's input as JSON. Who asks (the agent, the project, the
session) goes in the context, not the prompt. Every text the agent wrote (the command,
the plan, the labels, the directory) stays untrusted: values sit in code spans and commands
in code blocks they cannot leave (`shown_code.py`), or pass as the question's own text,
which the portal escapes like any other.

A command or a diff is shown whole, with its line count when it is long (the page then
shows it in a box of its own height that scrolls). When the portal's prompt limit (`PROMPT_MAX`) would
cut it, the title says so and the only option is Deny: nothing cut short can be allowed.

The options' ids are what `decisions.py` reads back: allow, always (only when the agent
offers changes this hook can describe, `permission_updates.py`), deny; approve and keep for
the plan. No option is picked by default and the question takes a note, which goes to the
agent with a Deny.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from choice.core.i18n import N_, Translator
from choice.hooks import file_changes
from choice.hooks.payload import HookPayload
from choice.hooks.permission_updates import described, savable, session_only
from choice.hooks.shown_code import (
    BLANK_LINES_MAX,
    BLANK_RUN_MAX,
    code_span,
    fenced,
    line_count,
    one_line,
    with_blank_runs_marked,
)

ALLOW, ALWAYS, DENY, APPROVE, KEEP = "allow", "always", "deny", "approve", "keep"
LONG_LINES, LONG_CHARS = 12, 1_000
"""A block longer than this says how many lines it has: the page may show it collapsed."""
TITLE_MAX, PROMPT_MAX, DESCRIPTION_MAX = 200, 20_000, 2_000
"""The portal's limits (`choice/contract/vocabulary.py`), written again here: importing the
contract loads pydantic on every hook call, which the hook must not wait for (a unit test
keeps them equal)."""


def question_for(payload: HookPayload, _: Translator, timeout_seconds: int) -> dict[str, Any]:
    """The request to POST for `payload`, in `_`'s language."""
    if payload.kind == "questions":
        return _asked_questions(payload, _, timeout_seconds)
    title, prompt, options = {"shell": _shell, "edit": _edit, "plan": _plan}.get(
        payload.kind, _other)(payload, _)
    return {
        "title": _clip(title, TITLE_MAX), "prompt": prompt,
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
    always = _always_option(payload, _)
    if always:
        options.append(always)
    options.append({"id": DENY, "label": _("Deny")})
    return options


def _always_option(payload: HookPayload, _: Translator) -> dict[str, Any] | None:
    """"Always allow this" (or "Allow for this session" when nothing outlives the session),
    describing every change it saves, one line each: exactly what `decisions.py` passes on.
    Nothing it can describe, or more than an option's description holds: no such option."""
    entries = savable(payload.suggestions)
    if not entries:
        return None
    said = [described(entry, _) for entry in entries]
    description = said[0] if len(said) == 1 else "\n".join(f"- {line}" for line in said)
    if len(description) > DESCRIPTION_MAX:
        return None
    label = _("Allow for this session") if session_only(entries) else _("Always allow this")
    return {"id": ALWAYS, "label": label, "description": description}


def _where(payload: HookPayload, _: Translator) -> str:
    """Where it runs, under the code: the directory. The agent, the project and the session
    are in the question's context, which the page shows around the prompt (the session id
    folded away: a person approves a command, not a UUID)."""
    return _("Directory: {cwd}").format(cwd=code_span(payload.cwd)) if payload.cwd else ""


def _shell(payload: HookPayload, _: Translator) -> tuple[str, str, list[dict[str, Any]]]:
    command = str(payload.tool_input.get("command") or "").strip("\n")
    description = str(payload.tool_input.get("description") or "").strip()
    summary = description or _first_line(command) or payload.tool
    title = _("Allow {tool}: {summary}").format(tool=payload.tool, summary=summary)
    if not command:
        return title, _where(payload, _), _permission_options(payload, _)
    return _with_code(payload, _, title, "", command, "sh")


def _edit(payload: HookPayload, _: Translator) -> tuple[str, str, list[dict[str, Any]]]:
    given = payload.tool_input
    path = str(given.get("file_path") or given.get("notebook_path") or "")
    shown = _relative(path, payload.cwd)
    title = _("Allow {tool}: {path}").format(tool=payload.tool,
                                             path=one_line(shown) or payload.tool)
    if payload.tool not in ("Write", "Edit", "MultiEdit") or not path:
        return _with_code(payload, _, title, "",
                          json.dumps(given, indent=2, ensure_ascii=False), "json")
    change = file_changes.change_of(payload.tool, given, path, payload.cwd, shown)
    said = [_(_FALLBACKS[change.fallback])] if change.fallback else []
    if change.new_file:
        said.append(_("The new content of {path}:").format(path=code_span(shown)))
    return _with_code(payload, _, title, "\n\n".join(said),
                      change.text or _("(no change)"), "" if change.new_file else "diff",
                      after=_("Widening this question shares the diff with the team."))


_FALLBACKS = {
    file_changes.TOO_LARGE: N_(
        "The file is larger than the hook reads, so this diff is of the agent's text alone, "
        "without the file's own line numbers."),
    file_changes.UNREADABLE: N_(
        "The file could not be read, so this diff is of the agent's text alone, without the "
        "file's own line numbers."),
    file_changes.NOT_TEXT: N_(
        "The file is not text, so this diff is of the agent's text alone, without the "
        "file's own line numbers."),
    file_changes.SECRET: N_(
        "The file may hold secrets, so it was not read: this is the agent's text alone, "
        "without the file's own line numbers."),
    file_changes.NOT_IN_FILE: N_(
        "The text to replace is not in the file on disk, so this diff is of the agent's "
        "text alone: the edit may fail."),
    file_changes.MISSING: N_(
        "There is no such file on disk, so this diff is of the agent's text alone: the "
        "edit may fail."),
}


def _with_code(payload: HookPayload, _: Translator, title: str, before: str, code: str,
               language: str, after: str = "") -> tuple[str, str, list[dict[str, Any]]]:
    """The prompt around a command or a diff shown whole: its line count, a note if long
    blank runs are marked, the block, then `after` and where it runs. If the prompt limit
    would cut the block, the title says it is shortened and Deny is the only option."""
    code = code.removesuffix("\n")  # a file's last line break: no empty line in the block
    shown, marked = with_blank_runs_marked(code)
    lines = line_count(code)
    notes = [before] if before else []
    if lines > 1 and (lines > LONG_LINES or len(code) > LONG_CHARS):
        notes.append(_.ngettext("All {n} line is below.", "All {n} lines are below.",
                                lines).format(n=lines))
    if marked:
        notes.append(_("Runs of more than {spaces} blank characters are shown as [␣×n], "
                       "and of more than {lines} blank lines as [↵×n].").format(
                           spaces=BLANK_RUN_MAX, lines=BLANK_LINES_MAX))
    tail = [part for part in (after, _where(payload, _)) if part]
    prompt = _joined(*notes, fenced(shown, language), *tail)
    if len(prompt) <= PROMPT_MAX:
        return title, prompt, _permission_options(payload, _)
    why = _("It is {n} characters long, more than a question can show: it is cut short "
            "below, so it cannot be allowed here. Deny it, or answer in the agent's own "
            "dialog.").format(n=f"{len(code):,}")
    room = PROMPT_MAX - len(_joined(why, *notes, fenced("…", language), *tail)) - 16
    cut = shown[:max(0, room)] + "\n…"
    return (_("Shortened, deny only: {title}").format(title=title),
            _joined(why, *notes, fenced(cut, language), *tail),
            [{"id": DENY, "label": _("Deny"), "description": why}])


def _joined(*parts: str) -> str:
    return "\n\n".join(part for part in parts if part)


def _plan(payload: HookPayload, _: Translator) -> tuple[str, str, list[dict[str, Any]]]:
    plan = str(payload.tool_input.get("plan") or "").strip() or _("(The agent sent no plan.)")
    return (_("Approve the plan?"), _clip(plan + "\n\n" + _where(payload, _), PROMPT_MAX), [
        {"id": APPROVE, "label": _("Approve"), "description": _("The agent starts on it.")},
        {"id": KEEP, "label": _("Keep planning"),
         "description": _("Your note goes to the agent as feedback.")}])


def _other(payload: HookPayload, _: Translator) -> tuple[str, str, list[dict[str, Any]]]:
    shown = json.dumps(payload.tool_input, indent=2, ensure_ascii=False)
    return _with_code(payload, _, _("Allow {tool}?").format(tool=payload.tool), "", shown, "json")


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


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def _relative(path: str, cwd: str) -> str:
    if path and cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1:]
    return path


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
