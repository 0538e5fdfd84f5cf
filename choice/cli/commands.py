"""The `choice` command: serve | ask | answer | list | open | token | mcp | mcp-config | hook |
hook-config | db.

Each subcommand imports only what it needs, so `choice ask` and `choice token` start fast
(no Litestar, no pydantic unless a portal has to be started here).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from choice.cli.language import cli_translator


def _serve(args: argparse.Namespace) -> int:
    import os

    if args.host:
        os.environ["CHOICE_HOST"] = args.host
    if args.port:
        os.environ["CHOICE_PORT"] = str(args.port)
    if args.idle_exit:
        os.environ["CHOICE_IDLE_EXIT"] = str(args.idle_exit)
    import gc

    from choice.core.config import Settings

    settings = Settings.from_env()
    settings.prepare_data_dir()
    # Start-up makes many objects that live as long as the process, and little garbage:
    # collecting meanwhile only slowed every start. `serve` turns the collector back on.
    gc.disable()
    from choice.cli.serve import serve

    serve(settings=settings)
    return 0


def _token(args: argparse.Namespace) -> int:
    from choice.cli.token import run

    return run(args)


def _list(args: argparse.Namespace) -> int:
    from choice.cli.list_command import run

    return run(args)


def _open(args: argparse.Namespace) -> int:
    """A fresh one-time sign-in link (60 s), opened in the browser or printed."""
    import webbrowser

    from choice.client.connection import discover
    from choice.client.errors import ClientError
    from choice.core.config import Settings

    settings = Settings.from_env()
    connection = discover(settings=settings)
    client = connection.client()
    target = f"/choice/{args.interaction_id}" if args.interaction_id else "/"
    try:
        url = client.login_link(target)
    except ClientError as exc:
        _ = cli_translator(settings)
        if connection.remote:  # the error says what to check in CHOICE_URL / CHOICE_TOKEN
            print(f"choice open: {exc}", file=sys.stderr)
        else:
            print("choice open: " + _("{error}: is `choice serve` running on {url}?").format(
                error=exc, url=settings.base_url), file=sys.stderr)
        return 1
    if args.print or not settings.open_browser or not webbrowser.open(url):
        print(url)
    else:
        print(cli_translator(settings)("opened {url} in your browser").format(
            url=f"{connection.base_url}{target}"), file=sys.stderr)
    return 0


def _answer(args: argparse.Namespace) -> int:
    from choice.client.connection import discover
    from choice.core.config import Settings
    from choice.terminal.answer_command import answer

    settings = Settings.from_env()
    client = discover(settings=settings).client()
    return answer(client, args.interaction_id, plain=args.plain)


def _asks_a_team_server() -> bool:
    """`CHOICE_URL` is set: read here, before `http.client` is imported, since whether `ssl`
    may load must be decided first (`choice.client.connection` decides everything else)."""
    import os

    return bool(os.environ.get("CHOICE_URL", "").strip())


def _mcp(_: argparse.Namespace) -> int:
    # The bridge speaks plain HTTP to the portal on this machine: keep `http.client` from
    # loading `ssl` (OpenSSL: a large share of the process, which must stay small). A team
    # server (`CHOICE_URL`) may be https: then it is needed.
    if not _asks_a_team_server():
        sys.modules.setdefault("ssl", None)  # type: ignore[arg-type]
    from choice.mcp.bridge import main as bridge

    return bridge()


def _mcp_config(args: argparse.Namespace) -> int:
    from choice.core.config import Settings
    from choice.mcp.client_config import note, render

    settings = Settings.from_env()
    printed, said = render(args.client, settings), note(args.client, settings)
    if said:
        print(said, file=sys.stderr)  # stdout is the configuration alone
    print(printed)
    return 0


def _hook(agent: str | None) -> int:
    # Every permission prompt of the agent runs it: plain HTTP to this machine, so keep
    # `http.client` from loading `ssl` (as `choice mcp` does), unless it asks a team server.
    if not _asks_a_team_server():
        sys.modules.setdefault("ssl", None)  # type: ignore[arg-type]
    from choice.hooks.command import main as hook

    return hook(agent)


def _hook_config(args: argparse.Namespace) -> int:
    from choice.hooks.config import advice, render

    print(render(args.agent))  # JSON alone on stdout: `choice hook-config claude > x.json`
    print(advice(args.agent), file=sys.stderr)
    return 0


def _db(args: argparse.Namespace) -> int:
    """Operators: where the database's schema stands, and bring it to head now (the portal
    also does this at start, so this is for checking, or before a planned restart)."""
    from sqlalchemy.exc import SQLAlchemyError

    from choice.core.config import Settings
    from choice.store.schema import SchemaError, current, upgrade_url

    settings = Settings.from_env()
    try:
        if args.action == "upgrade":
            settings.prepare_data_dir()
            print(upgrade_url(settings.db_url).describe())
            return 0
        version = current(settings.db_url)
        print(version.describe())
        return 0 if version.known else 1
    except SchemaError as error:
        print(f"choice db {args.action}: {error}", file=sys.stderr)
    except SQLAlchemyError as error:
        print(f"choice db {args.action}: cannot use the database: {error.__cause__ or error}",
              file=sys.stderr)
    return 1


def _ask(args: argparse.Namespace) -> int:
    from choice.cli.ask import run

    return run(args)


def _top_parser() -> tuple[argparse.ArgumentParser, Any]:
    parser = argparse.ArgumentParser(prog="choice", description="The choice portal: agents ask, "
                                     "humans answer, agents get a typed result.")
    return parser, parser.add_subparsers(dest="command", required=True)


def _add_serve(commands: Any) -> argparse.ArgumentParser:
    serve: argparse.ArgumentParser = commands.add_parser(
        "serve", help="run the portal (default 127.0.0.1:8765)")
    serve.add_argument("--host", help="the address to bind (sets CHOICE_HOST)")
    serve.add_argument("--port", type=int, help="the port to bind (sets CHOICE_PORT)")
    serve.add_argument("--idle-exit", type=int, metavar="SECONDS",
                       help="stop after this long with nothing pending and no requests")
    serve.set_defaults(run=_serve)
    return serve


def _serve_parser() -> argparse.ArgumentParser:
    """`choice serve` alone: the portal's start skips building every other command (their
    imports and arguments)."""
    parser, commands = _top_parser()
    serve = _add_serve(commands)
    parser.usage = serve.format_usage().removeprefix("usage: ").strip()  # not "{serve}" alone
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser, commands = _top_parser()
    _add_serve(commands)
    from choice.cli.ask import EXIT_CODES, add_arguments

    ask = commands.add_parser("ask", help="ask a human and print the result JSON",
                              epilog=EXIT_CODES)

    add_arguments(ask)
    ask.set_defaults(run=_ask)
    answering = commands.add_parser("answer", help="answer a question in this terminal")
    answering.add_argument("interaction_id")
    answering.add_argument("--plain", action="store_true",
                           help="numbered lines instead of the full-screen UI (scriptable)")
    answering.set_defaults(run=_answer)
    listing = commands.add_parser("list", help="list recent interactions")
    listing.add_argument("--status", choices=["active", "widened", "deferred", "completed",
                                              "all"],
                         default="all", help="widened: the questions waiting on the team, "
                         "with who was asked and how to answer each; deferred: the ones "
                         "set aside, with why")
    listing.add_argument("--limit", type=int, default=20, help="show at most this many, newest first")
    listing.set_defaults(run=_list)
    opener = commands.add_parser("open", help="open the portal signed in (a one-time link)")
    opener.add_argument("interaction_id", nargs="?", help="go straight to this interaction")
    opener.add_argument("--print", action="store_true", help="print the link, do not open it")
    opener.set_defaults(run=_open)
    mcp = commands.add_parser("mcp", help="MCP over stdio, for clients that launch a command")
    mcp.set_defaults(run=_mcp)
    config = commands.add_parser("mcp-config", help="print an MCP client configuration snippet")
    config.add_argument("client", nargs="?", default="json",
                        choices=["claude", "claude-desktop", "codex", "cursor", "vscode",
                                 "json"])
    config.set_defaults(run=_mcp_config)
    hook = commands.add_parser("hook", help="answer a coding agent's own prompt (its "
                               "PermissionRequest hook) in the portal")
    hook.add_argument("agent", nargs="?", choices=["claude", "codex"],
                      help="who sends the payload (detected when left out)")
    hook.set_defaults(run=lambda args: _hook(args.agent))
    hook_config = commands.add_parser("hook-config", help="print the agent's hook settings")
    hook_config.add_argument("agent", choices=["claude", "codex"])
    hook_config.set_defaults(run=_hook_config)
    token = commands.add_parser("token", help="print the API bearer token")
    token.add_argument("--rotate", action="store_true",
                       help="replace it with a new one: the old token, its sign-in links and "
                       "every browser signed in stop working")
    token.set_defaults(run=_token)
    database = commands.add_parser("db", help="the database's schema version (it upgrades "
                                   "itself when the portal starts)")
    database.add_argument("action", choices=["current", "upgrade"],
                          help="current: print the schema revision; upgrade: bring it to head")
    database.set_defaults(run=_db)
    return parser


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    if given == ["mcp"]:
        # Every agent session starts one: skip the other commands' imports (memory).
        return _mcp(argparse.Namespace())
    if given[:1] == ["hook"] and len(given) <= 2 and not given[-1].startswith("-"):
        # Before every prompt: as fast as `mcp`. An agent it does not know is a payload it
        # cannot read (a fall-through), never argparse's exit 2, which an agent reads as "deny".
        return _hook(given[1] if len(given) > 1 else None)
    from choice.core.resources import MissingResource

    args = (_serve_parser() if given[:1] == ["serve"] else build_parser()).parse_args(given)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except MissingResource as error:
        print(f"choice: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `choice list | head`: the reader left; say nothing more
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
