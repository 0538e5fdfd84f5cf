"""What "Always allow" saves: Claude Code's `permission_suggestions`, each one read as a
`PermissionUpdate` (its documented shapes: `addRules`, `replaceRules`, `removeRules` with
`rules` of `{toolName, ruleContent?}` and a `behavior` of allow, deny or ask; `setMode`
with a `mode`; `addDirectories`, `removeDirectories` with `directories`; each with a
`destination` of userSettings, projectSettings, localSettings, session or cliArg).

`savable` keeps the entries it can describe whole, rebuilt from the fields it read, and
drops the rest (an unknown type, destination or behaviour, a rule without a tool, a bare
rule outside any update): the question describes exactly these (`described`) and the hook
passes exactly these back as `updatedPermissions`, never anything the person was not shown.
"""

from __future__ import annotations

from typing import Any

from choice.core.i18n import Translator
from choice.hooks.shown_code import code_span

RULE_TYPES = ("addRules", "replaceRules", "removeRules")
DIRECTORY_TYPES = ("addDirectories", "removeDirectories")
BEHAVIORS = ("allow", "deny", "ask")
DESTINATIONS = ("userSettings", "projectSettings", "localSettings", "session", "cliArg")
FOR_THIS_SESSION = ("session", "cliArg")
"""The destinations that last only as long as the agent's session (nothing is written)."""


def savable(suggestions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The suggestions this hook can describe, each rebuilt from the fields read."""
    kept = []
    for suggestion in suggestions:
        entry = _read(suggestion)
        if entry is not None:
            kept.append(entry)
    return kept


def session_only(entries: list[dict[str, Any]]) -> bool:
    return bool(entries) and all(entry["destination"] in FOR_THIS_SESSION for entry in entries)


def _read(suggestion: dict[str, Any]) -> dict[str, Any] | None:
    kind, destination = suggestion.get("type"), suggestion.get("destination")
    if destination not in DESTINATIONS:
        return None
    if kind in RULE_TYPES:
        behavior, rules = suggestion.get("behavior"), suggestion.get("rules")
        if behavior not in BEHAVIORS or not isinstance(rules, list) or not rules:
            return None
        read = [_rule(rule) for rule in rules]
        if any(rule is None for rule in read):
            return None
        return {"type": kind, "rules": read, "behavior": behavior, "destination": destination}
    if kind == "setMode":
        mode = suggestion.get("mode")
        if not isinstance(mode, str) or not mode:
            return None
        return {"type": kind, "mode": mode, "destination": destination}
    if kind in DIRECTORY_TYPES:
        directories = suggestion.get("directories")
        if (not isinstance(directories, list) or not directories
                or not all(isinstance(d, str) and d for d in directories)):
            return None
        return {"type": kind, "directories": list(directories), "destination": destination}
    return None


def _rule(rule: Any) -> dict[str, str] | None:
    if not isinstance(rule, dict) or not isinstance(rule.get("toolName"), str) \
            or not rule["toolName"]:
        return None
    content = rule.get("ruleContent")
    if content is None:
        return {"toolName": rule["toolName"]}
    return {"toolName": rule["toolName"], "ruleContent": content} \
        if isinstance(content, str) else None


def rule_text(rule: dict[str, str]) -> str:
    """A rule as Claude Code writes it in its settings: `Bash(npm test:*)`, or `Bash`."""
    content = rule.get("ruleContent")
    return f"{rule['toolName']}({content})" if content is not None else rule["toolName"]


def described(entry: dict[str, Any], _: Translator) -> str:
    """One sentence for one entry `savable` kept: what it does, and where it is kept."""
    where = {
        "userSettings": _("for you, in every project"),
        "projectSettings": _("for this project, in its shared settings"),
        "localSettings": _("for you, in this project"),
        "session": _("for this session"), "cliArg": _("for this session")}[entry["destination"]]
    kind = entry["type"]
    if kind in RULE_TYPES:
        rules = ", ".join(code_span(rule_text(rule)) for rule in entry["rules"])
        said = {
            ("addRules", "allow"): _("Always allows {rules} {where}."),
            ("addRules", "deny"): _("Always denies {rules} {where}."),
            ("addRules", "ask"): _("Always asks before {rules} {where}."),
            ("replaceRules", "allow"): _("Replaces every allow rule {where} with {rules}."),
            ("replaceRules", "deny"): _("Replaces every deny rule {where} with {rules}."),
            ("replaceRules", "ask"): _("Replaces every ask-first rule {where} with {rules}."),
            ("removeRules", "allow"): _("Removes the allow rules {rules} {where}."),
            ("removeRules", "deny"): _("Removes the deny rules {rules} {where}."),
            ("removeRules", "ask"): _("Removes the ask-first rules {rules} {where}."),
        }[(kind, entry["behavior"])]
        return said.format(rules=rules, where=where)
    if kind == "setMode":
        return _("Switches the agent to its {mode} mode {where}.").format(
            mode=code_span(entry["mode"]), where=where)
    directories = ", ".join(code_span(d) for d in entry["directories"])
    if kind == "addDirectories":
        return _("Lets the agent work in {directories} {where}.").format(
            directories=directories, where=where)
    return _("Stops the agent working in {directories} {where}.").format(
        directories=directories, where=where)
