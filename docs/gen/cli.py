"""The CLI reference: every `choice` subcommand with its arguments and options, read from the
real parser (`choice.cli.commands.build_parser`)."""

from __future__ import annotations

import argparse

from docs.gen._markdown import code, table


def build_parser() -> argparse.ArgumentParser:
    from choice.cli.commands import build_parser

    return build_parser()


def subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of each subcommand, in the parser's order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            return [(name, helps.get(name, ""), sub) for name, sub in action.choices.items()]
    return []


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=72)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, "")
    return formatter.format_help().strip()


def _argument(action: argparse.Action) -> tuple[str, str, str]:
    if action.option_strings:
        name = ", ".join(action.option_strings)
        if action.nargs != 0:
            name += " " + str(action.metavar or action.dest.upper())
    else:
        name = str(action.metavar or action.dest) + (" (optional)" if action.nargs == "?" else "")
    notes = []
    if action.choices is not None:
        notes.append("one of " + ", ".join(code(choice) for choice in action.choices))
    if isinstance(action, argparse._AppendAction):
        notes.append("repeatable")
    if action.default not in (None, False, [], argparse.SUPPRESS) and action.nargs != 0:
        notes.append("default " + code(action.default))
    if action.type is int:
        notes.append("a whole number")
    return code(name), action.help or "", "; ".join(notes)


def _arguments(parser: argparse.ArgumentParser) -> str:
    rows = [_argument(action) for action in parser._actions
            if not isinstance(action, argparse._HelpAction | argparse._SubParsersAction)]
    if not rows:
        return "No arguments or options."
    return table(("Argument", "Meaning", "Values"), rows)


def render(arg: str = "") -> str:
    parser = build_parser()
    commands = subcommands(parser)
    out = [parser.description or "", "", "```text", _usage(parser), "```", "",
           table(("Command", "What it does"),
                 ((f"[{code('choice ' + name)}](#choice-{name})", about)
                  for name, about, _ in commands)), "",
           "Every command takes `-h` / `--help`, which prints the same as below."]
    for name, about, sub in commands:
        out += ["", f"## `choice {name}` {{#choice-{name}}}", "", about[:1].upper() + about[1:]
                + ("." if about and not about.endswith(".") else ""), "",
                "```text", _usage(sub), "```", "", _arguments(sub)]
        if sub.epilog:
            out += ["", sub.epilog[:1].upper() + sub.epilog[1:] + "."]
    return "\n".join(out) + "\n"
