"""`choice ask`: human-in-the-loop for shell scripts.

Builds a request from flags (or a JSON file), makes sure a portal answers (starting one in
this process if none does; never for a team server, `CHOICE_URL`), creates the interaction,
tells the human where to answer (or, run in a terminal with `interface: auto`, asks right
there in the terminal UI), waits through as many poll windows as it takes, and prints the
result JSON on stdout. The portal is found, asked and polled through `choice.client` (the
same discovery, HTTP client and poll loop as the Python API, without its typed layer: this
command must start fast). It cannot summarise a team's discussion, so it polls with
`candidates=0` (the owner's review falls back to writing the answer by hand). A deferral
ends it: the reply (with the owner's rationale) on stdout, a line on stderr.
Exit codes: 0 answered, 2 invalid request, 3 cancelled, 4 timeout, 7 deferred by the owner,
1 anything else.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from choice.client.connection import discover
from choice.client.errors import (
    REMOTE_HINT,
    ClientError,
    PortalNotRunning,
    PortalRefused,
)
from choice.client.portal_client import PortalClient
from choice.client.watch import follow
from choice.core.config import Settings
from choice.core.i18n import Translator, resolve_language, translator
from choice.terminal.text import json_for_terminal, safe_text

EXIT_ANSWERED, EXIT_FAILED, EXIT_INVALID, EXIT_CANCELLED, EXIT_TIMEOUT = 0, 1, 2, 3, 4
EXIT_DEFERRED = 7
"""After `choice answer`'s 5 (continued in the browser) and 6 (left while widened)."""
EXIT_CODES = ("exit codes: 0 answered, 1 failed (no portal, lost it), 2 invalid request, "
              "3 cancelled, 4 timed out, 7 deferred by the owner (the JSON says why)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("title", nargs="?", help="a short heading (1-200 characters)")
    parser.add_argument("-p", "--prompt", help="the task context and why you are asking")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="ID=LABEL",
                        help="an option (repeat for each); ids: letters, digits, _ . -")
    parser.add_argument("--mode", dest="selection_mode",
                        choices=["single", "multi", "text_input", "hybrid"],
                        help="pick one option, several, write text, or options and text")
    parser.add_argument("--default", action="append", default=[], metavar="ID",
                        help="preselect an option (repeatable)")
    parser.add_argument("--recommend", action="append", default=[], metavar="ID",
                        help="mark an option as recommended (repeatable)")
    parser.add_argument("--min", type=int, dest="min_selections",
                        help="multi: the fewest options to pick")
    parser.add_argument("--max", type=int, dest="max_selections",
                        help="multi: the most options to pick")
    parser.add_argument("--timeout", type=int, dest="timeout_seconds", metavar="SECONDS",
                        help="how long the person has (10-86400; default: the saved setting)")
    parser.add_argument("--on-timeout", choices=["timeout", "submit_defaults", "cancel"],
                        help="what the deadline does: end as timed out, submit the "
                             "preselected options, or cancel")
    parser.add_argument("--placeholder", help="the hint shown in an empty text box")
    parser.add_argument("--confirm", action="store_true", help="require an explicit confirm")
    parser.add_argument("--single-submit", action="store_true",
                        help="submit on the first pick (single/hybrid)")
    parser.add_argument("--interface", choices=["auto", "web", "terminal"],
                        help="auto (the default): this terminal when stdin and stdout are "
                             "one, else the saved preference")
    parser.add_argument("--language", choices=["en", "zh"],
                        help="the question's language (default: the saved setting, else "
                             "CHOICE_LANG, else English)")
    parser.add_argument("--agent", help="who is asking (shown in the list)")
    parser.add_argument("--project", help="which project it is about")
    parser.add_argument("--json", dest="json_file", metavar="FILE",
                        help="read the whole request from a JSON file ('-' for stdin)")
    parser.add_argument("--attach", action="append", default=[], metavar="FILE",
                        help="show this file with the question (repeatable): PNG, JPEG, GIF "
                             "or WebP inline; text, JSON, PDF, archives as downloads")
    parser.add_argument("--no-start", action="store_true",
                        help="fail instead of starting a portal when none answers")


class UsageError(Exception):
    pass


def build_request(args: argparse.Namespace) -> dict[str, Any]:
    request: dict[str, Any] = {}
    if args.json_file:
        source = sys.stdin if args.json_file == "-" else open(args.json_file)  # noqa: SIM115
        with source:
            try:
                request = json.load(source)
            except ValueError as exc:
                raise UsageError(f"--json {args.json_file}: not valid JSON ({exc})") from None
    options = []
    for spec in args.option:
        option_id, sep, label = spec.partition("=")
        if not sep:
            raise UsageError(f"--option {spec!r}: write it as ID=LABEL, e.g. pg=PostgreSQL")
        options.append({"id": option_id.strip(), "label": label.strip()})
    for option in options:
        if option["id"] in args.recommend:
            option["recommended"] = True
    if options:
        request["options"] = options
    flags = {name: getattr(args, name) for name in (
        "title", "prompt", "selection_mode", "min_selections", "max_selections",
        "timeout_seconds", "on_timeout", "placeholder", "interface", "language")}
    request.update({k: v for k, v in flags.items() if v is not None})
    if args.default:
        request["default_selection_ids"] = args.default
    if args.confirm:
        request["require_confirmation"] = True
    if args.single_submit:
        request["single_submit_mode"] = True
    context = {k: v for k, v in (("agent", args.agent), ("project", args.project)) if v}
    if context:
        request["context"] = {**request.get("context", {}), **context}
    request.setdefault("context", {}).setdefault("agent", "choice ask")
    if args.attach:
        request["attachments"] = [*request.get("attachments", []), *map(attachment, args.attach)]
    return request


def attachment(path: str) -> dict[str, str]:
    """`--attach FILE`: its name, its type (from its extension; the portal refuses the
    types it does not show) and its bytes, base64."""
    import base64
    import mimetypes
    import os

    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise UsageError(f"--attach {path}: cannot read it ({error.strerror})") from None
    guessed = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return {"name": os.path.basename(path), "mime_type": guessed,
            "data": base64.b64encode(data).decode()}


_: Translator = translator("en")


def use_language(language: str) -> None:
    """Speak the human's language from here on (field errors for the agent stay English)."""
    global _
    _ = translator(language)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _print_errors(errors: list[dict[str, Any]]) -> None:
    _say("choice ask: " + _("the request is invalid:"))
    for error in errors:
        _say(f"  - {error.get('field')}: {error.get('message')}")


def connect(settings: Settings, may_start: bool) -> tuple[PortalClient, Any]:
    """A client for a running portal, starting one on a thread here if none answers (a
    team server's is never started here)."""
    connection = discover(settings=settings)
    client = connection.client()
    if client.is_portal():
        return client, None
    if connection.remote:
        raise PortalNotRunning(connection.base_url, hint=REMOTE_HINT)
    if not may_start:
        raise PortalNotRunning(settings.base_url, hint="run `choice serve`")
    from choice.cli.serve import BackgroundPortal, port_is_free

    if not port_is_free(settings.host, settings.port):
        raise PortalNotRunning(settings.base_url, f"port {settings.port} is taken by another "
                               "program", "set CHOICE_PORT to a free port (the same for every "
                               "choice command)")
    portal = BackgroundPortal(settings)
    portal.start()
    _say("choice ask: " + _("started a portal in this process on {url} (it stops when this "
                            "command ends; `choice serve` keeps one running)").format(
        url=settings.base_url))
    return discover(settings=settings).client(), portal  # the token exists now


def saved_language(client: PortalClient) -> str | None:
    try:
        language = client.settings().get("language")
    except ClientError:
        return None
    return str(language) if language else None


def wait_for_result(client: PortalClient, interaction_id: str,
                    on_widened: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Poll until the interaction is over or deferred (`choice.client.watch`: a portal
    restart in between is waited out for a while, since pending interactions come back; a
    widened question is not over either, and `on_widened` hears its first widened reply).
    Polled with `candidates=0`: this command cannot write the summary the owner may ask the
    agent for."""
    return follow(lambda: client.poll(interaction_id, wait=60, candidates=False),
                  on_widened=on_widened)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    use_language(resolve_language(args.language, None, settings.language))
    try:
        request = build_request(args)
        client, portal = connect(settings, may_start=not args.no_start)
    except (UsageError, PortalNotRunning, RuntimeError) as exc:
        _say(f"choice ask: {exc}")
        return EXIT_INVALID if isinstance(exc, UsageError) else EXIT_FAILED
    try:
        use_language(resolve_language(args.language, saved_language(client), settings.language))
        return _ask(client, request, remote=settings.remote_url is not None)
    finally:
        if portal is not None:
            portal.stop()


def in_a_terminal() -> bool:
    """Both ends are a person's terminal: the terminal UI asks when stdin is one (stdout
    too, since the UI draws there before the JSON)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def choose_interface(request: dict[str, Any], terminal: bool) -> dict[str, Any]:
    """`interface: auto` (or none) asks in this terminal when there is one; anything else,
    or no terminal, is left to the portal (auto then means the saved preference)."""
    if terminal and isinstance(request, dict) and request.get("interface", "auto") == "auto":
        return {**request, "interface": "terminal"}
    return request


def _ask(client: PortalClient, request: dict[str, Any], *, remote: bool = False) -> int:
    """`remote`: the client asks a team server (`CHOICE_URL`), whose token is `CHOICE_TOKEN`."""
    request = choose_interface(request, in_a_terminal())
    try:
        created = client.create(request)
    except PortalRefused as exc:
        if exc.status == 422:
            _print_errors(exc.errors)
            return EXIT_INVALID
        why = "; ".join(str(e.get("message")) for e in exc.errors)
        if exc.status == 401:  # where the token comes from: the token file, or CHOICE_TOKEN
            why += client.token_hint
        _say("choice ask: " + _("the portal refused the request (HTTP {status}): {why}").format(
            status=exc.status, why=why))
        return EXIT_FAILED
    except PortalNotRunning as exc:  # it went away since `connect` found it
        _say(f"choice ask: {exc}")
        return EXIT_FAILED
    for warning in created.get("warnings", []):
        _say("choice ask: " + _("warning: {warning}").format(warning=warning))
    interaction_id = created["interaction_id"]
    if created.get("interface") == "terminal" and sys.stdin.isatty():
        from choice.terminal.answer_command import answer

        answer(client, interaction_id, out=sys.stderr)  # right here, in this terminal
    else:
        _say(_("Waiting for an answer to: {title}").format(
            title=safe_text(str(request.get("title")), keep_newlines=False)))
        _say("  " + _("in the browser:") + f"  {created['url']}")
        _say("  " + _("in a terminal:") + f"   {created['terminal_command']}")
        questions = request.get("questions") if isinstance(request, dict) else None
        if isinstance(questions, list):  # several: say how many, and answer by question id
            _say("  " + _.ngettext("{n} question waits.", "{n} questions wait.",
                                   len(questions)).format(n=len(questions)))
        example = '{"answers": {"<question id>": {"selected_ids": [...]}}}' \
            if isinstance(questions, list) else '{"selected_ids": [...]}'
        token_from = _("(with your CHOICE_TOKEN)") if remote else \
            _("(with the bearer token from `choice token`)")
        _say("  " + _("over HTTP:") + f"       POST {client_path(client, interaction_id)} "
             f"{example}  " + token_from)
    try:
        result = wait_for_result(client, interaction_id, say_widened)
    except KeyboardInterrupt:
        client.cancel(interaction_id, "the asking command was interrupted")
        _say("choice ask: " + _("interrupted; the interaction was cancelled"))
        return 130
    except PortalNotRunning as exc:
        _say("choice ask: " + _("lost the portal ({error}); the interaction stays pending: poll "
                                "it with GET /api/interactions/{id}").format(
            error=exc, id=interaction_id))
        return EXIT_FAILED
    print(json_for_terminal(result), flush=True)
    if result.get("status") == "deferred":
        rationale = safe_text(str(result.get("rationale") or "-"), keep_newlines=False)
        _say("choice ask: " + _("deferred by the owner: {rationale}").format(rationale=rationale))
        return EXIT_DEFERRED
    return {"cancelled": EXIT_CANCELLED, "timeout": EXIT_TIMEOUT}.get(
        str(result.get("action_status")), EXIT_ANSWERED)


def say_widened(reply: dict[str, Any]) -> None:
    """Once: the question went to teammates, and this command keeps waiting for the owner."""
    names = ", ".join(safe_text(str(name), keep_newlines=False)
                      for name in reply.get("participants") or [])
    _say("choice ask: " + _("the question was widened to {names}: still waiting for the "
                            "decision after their discussion").format(names=names or "-"))


def client_path(client: PortalClient, interaction_id: str) -> str:
    return f"{client.base_url}/api/interactions/{interaction_id}/response"
