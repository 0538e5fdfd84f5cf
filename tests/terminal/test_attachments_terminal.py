"""The files an agent shows, in `choice answer`: listed by name and size with the command
that opens them in a browser (a terminal cannot show an image), full-screen and plain."""

from __future__ import annotations

import base64

from tests.terminal.conftest import Answer, Ask, Run


def encoded(data: bytes) -> str:
    return base64.b64encode(data).decode()


FILES = [{"name": "chart.png", "mime_type": "image/png", "data": encoded(b"\x89PNG" + b"\0" * 1996)},
         {"name": "data.csv", "mime_type": "text/csv", "data": encoded(b"a,b\n" * 190)}]


def test_the_files_are_listed_with_the_command_that_shows_them(ask: Ask, answer: Answer) -> None:
    iid = ask("Which chart reads better?", attachments=FILES)
    pane = answer(iid)
    pane.wait_for(f"Files: chart.png (2 KB), data.csv (760 B). To see them: choice open {iid}")


def test_the_plain_lines_list_them_too(ask: Ask, run: Run) -> None:
    iid = ask("Which chart reads better, plainly?", attachments=FILES)
    pane = run("answer", iid, "--plain", width=140)
    pane.wait_for(f"Files: chart.png (2 KB), data.csv (760 B). To see them: choice open {iid}")
