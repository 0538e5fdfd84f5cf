"""The deployable entry: `app` for any ASGI server; `python server.py` serves it."""

from __future__ import annotations

from choice.portal import create_app

app = create_app()

if __name__ == "__main__":
    from choice.cli.serve import serve

    serve(app)
