"""`choice serve` is parsed without building the other commands, with the same arguments
and errors as the whole parser's."""

from __future__ import annotations

import pytest

from choice.cli import commands


def test_serve_reads_the_same_arguments_alone_and_in_the_whole_parser() -> None:
    given = ["serve", "--host", "0.0.0.0", "--port", "9999", "--idle-exit", "60"]
    alone = commands._serve_parser().parse_args(given)
    whole = commands.build_parser().parse_args(given)
    assert vars(alone) == vars(whole)
    assert (alone.host, alone.port, alone.idle_exit, alone.run) == ("0.0.0.0", 9999, 60,
                                                                      commands._serve)


def test_a_wrong_serve_argument_shows_serves_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        commands.main(["serve", "--bogus"])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert "usage: choice serve [-h] [--host HOST]" in error
    assert "unrecognized arguments: --bogus" in error
