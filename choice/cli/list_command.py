"""`choice list`: the questions, newest first, a line each; with `--status widened`, the
end-of-run pass of what still waits on the team; with `--status deferred`, what the owner
set aside and how to take it up again. On a team server, the questions other members
widened to you come after your own, apart and marked, with where you take part (the
API list's `widened_to_me`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from choice.cli.language import cli_translator


def run(args: argparse.Namespace) -> int:
    from choice.client.connection import discover
    from choice.client.errors import ClientError
    from choice.core.config import Settings
    from choice.terminal.text import safe_text

    settings = Settings.from_env()
    connection = discover(settings=settings)
    client = connection.client()
    try:
        listed = client.list(args.status, args.limit)
        rows = listed["interactions"]
        if args.status == "widened":
            return _pending_pass(client, rows, cli_translator(settings))
        if args.status == "deferred":
            return _deferred(client, rows, cli_translator(settings))
    except ClientError as exc:
        _ = cli_translator(settings)
        if connection.remote:  # the error says what to check in CHOICE_URL / CHOICE_TOKEN
            print(f"choice list: {exc}", file=sys.stderr)
        else:
            print("choice list: " + _("{error}: is `choice serve` running?").format(error=exc),
                  file=sys.stderr)
        return 1
    _ = cli_translator(settings)
    for row in rows:
        print(f"{row['interaction_id']}  {row['status']:<14} {row['interface']:<8} "
              f"{row['created_at'][:19]}  {safe_text(row['title'], keep_newlines=False)}"
              + _questions(row, _))
    if not rows:
        print(_("no interactions"), file=sys.stderr)
    if args.status in ("all", "active"):  # still under discussion: not for the other filters
        _widened_to_me(listed.get("widened_to_me") or [], connection.base_url, _)
    return 0


def _widened_to_me(rows: list[dict[str, Any]], base_url: str, _: Any) -> None:
    """Team mode: other members' questions widened to you, under a heading of their own,
    each marked and with the page where you take part signed in."""
    from choice.terminal.text import safe_text

    if not rows:
        return
    print()
    print(_("Widened to you by other members (take part on the page shown):"))
    mark = _("widened to you")
    for row in rows:
        interaction_id = safe_text(str(row["interaction_id"]), keep_newlines=False)
        print(f"{interaction_id}  {mark:<14} {str(row['created_at'])[:19]}  "
              f"{safe_text(str(row['title']), keep_newlines=False)}  "
              f"{base_url.rstrip('/')}/widened/{interaction_id}")


def _questions(row: dict[str, Any], _: Any) -> str:
    """`  (3 questions)` after the title of an interaction that asks several; else ''."""
    count = row.get("question_count")
    if row.get("selection_mode") != "questions" or not isinstance(count, int):
        return ""
    return "  " + str(_.ngettext("({n} question)", "({n} questions)", count).format(n=count))


def _pending_pass(client: Any, rows: list[dict[str, Any]], _: Any) -> int:
    """The end-of-run pass: what still waits on the team, who was asked and how to answer."""
    import shutil

    from choice.client.errors import PortalRefused
    from choice.terminal.screens.panels import pending_pass
    from choice.terminal.team_view import TeamView
    from choice.terminal.text import safe_text

    entries = []
    for row in rows:
        try:
            team = client.team(row["interaction_id"])
        except PortalRefused:
            continue  # gone since the list was read (retention): nothing to answer
        if team.get("status") == "widened":  # not decided since the list was read
            entries.append((safe_text(row["interaction_id"], keep_newlines=False),
                            safe_text(row["title"], keep_newlines=False),
                            TeamView.from_team(team)))
    if not entries:
        print(_("No widened questions are pending."), file=sys.stderr)
        return 0
    for line in pending_pass(entries, _, shutil.get_terminal_size((80, 24)).columns - 1):
        print(line)
    return 0


def _deferred(client: Any, rows: list[dict[str, Any]], _: Any) -> int:
    """What the owner set aside: each with why, and how to take it up again or resolve it."""
    from choice.client.errors import PortalRefused
    from choice.terminal.text import safe_text

    if not rows:
        print(_("No questions are deferred."), file=sys.stderr)
        return 0
    for row in rows:
        try:
            why = client.review(row["interaction_id"]).get("defer_rationale") or "-"
        except PortalRefused:
            continue  # gone since the list was read
        interaction_id = safe_text(row["interaction_id"], keep_newlines=False)
        print(f"{interaction_id}  {row['status']:<14} {row['created_at'][:19]}  "
              f"{safe_text(row['title'], keep_newlines=False)}")
        print("  " + _("Deferred: {rationale}").format(
            rationale=safe_text(str(why), keep_newlines=False)))
        print("  " + _("Take it up again or resolve it:") + f" choice answer {interaction_id}")
    return 0
