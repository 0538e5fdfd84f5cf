"""`choice token [--rotate]`: print the API token, or replace it with a new one.

A new token ends, at once and without a restart, everything the old one could do: the
token itself, the one-time sign-in links signed with it, and every browser session (each
running portal reads the token file again when it changes, and sessions are keyed by the
token). Sessions are also deleted from the database here, so instances of one database that
still have the old file sign nobody in with them either. Imports the store only to rotate:
printing the token stays as fast as reading a file.
"""

from __future__ import annotations

import argparse
import sys

from choice.cli.language import cli_translator


def run(args: argparse.Namespace) -> int:
    from choice.core.config import Settings
    from choice.core.token import ensure_token, rotate_token

    settings = Settings.from_env()
    settings.prepare_data_dir()
    if not args.rotate:
        print(ensure_token(settings.token_path))
        return 0
    print(rotate_token(settings.token_path))
    _ = cli_translator(settings)
    try:
        end_sessions(settings.db_url)
    except Exception as error:  # the token is new all the same: say what is left to do
        print(_("The token is new, but signed-in browsers could not be signed out in the "
                "database ({error}): each portal signs them out when it reads the new "
                "token.").format(error=error), file=sys.stderr)
        return 1
    print(_("A new token is in {path}. The old one and its sign-in links stop working, and "
            "every browser is signed out. Copy the file to every other portal instance of "
            "this database.").format(path=settings.token_path), file=sys.stderr)
    return 0


def end_sessions(db_url: str) -> None:
    """Delete every browser session (a database not made yet has none)."""
    from choice.store.engine import make_engine
    from choice.store.schema import current
    from choice.store.sessions import end_all_sessions

    if not current(db_url).exists:
        return
    engine = make_engine(db_url)
    try:
        end_all_sessions(engine)
    finally:
        engine.dispose()
