"""choice/terminal/answer_files.py and choice/terminal/stages/files.py: a typed path read
from disk (its type from its name, `~` and relative paths, every refusal a sentence that
says what to do), Tab's completion, and the keys: `a` and `A` where letters do not type,
Ctrl-A and Ctrl-X where they do, and the write-back review's `a` still accepting."""

from __future__ import annotations

from pathlib import Path

import pytest

from choice.contract.attachments import ALLOWED_TYPES
from choice.core.i18n import translator
from choice.terminal.answer_files import (
    AttachedFile,
    FileRefused,
    completed,
    files_line,
    guess_type,
    read_file,
)
from choice.terminal.key_table import question_keys
from choice.terminal.write_back import Candidate, WriteBack
from tests.unit.test_terminal_state import press, state

_ = translator("en")


@pytest.mark.parametrize(("name", "wanted"), [
    ("shot.PNG", "image/png"), ("a.jpg", "image/jpeg"), ("a.webp", "image/webp"),
    ("notes.md", "text/markdown"), ("build.log", "text/plain"), ("fix.diff", "text/x-diff"),
    ("fix.patch", "text/x-diff"), ("ci.yml", "application/yaml"), ("ci.yaml", "application/yaml"),
    ("data.csv", "text/csv"), ("trace.json", "application/json"), ("a.pdf", "application/pdf"),
    ("logs.tar.gz", "application/gzip"), ("run.log.gz", "application/gzip"),
    ("src.zip", "application/zip"), ("Makefile", None)])
def test_a_files_type_comes_from_its_name(name: str, wanted: str | None) -> None:
    assert guess_type(name) == wanted
    assert wanted is None or wanted in ALLOWED_TYPES


def test_a_file_is_read_from_home_or_relative_to_the_current_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "run.log").write_bytes(b"boom\n")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert read_file("~/logs/run.log", _).data == b"boom\n"
    sent = read_file(" logs/run.log ", _, cwd=str(tmp_path))
    assert (sent.name, sent.mime_type, sent.data) == ("run.log", "text/plain", b"boom\n")


def refusal(typed: str, **given: object) -> str:
    with pytest.raises(FileRefused) as refused:
        read_file(typed, _, **given)  # type: ignore[arg-type]
    return str(refused.value)


def test_what_cannot_be_sent_says_why_and_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "drawing.svg").write_text("<svg/>")
    (tmp_path / "tool.sh").write_text("echo hi")
    big = tmp_path / "huge.png"
    with big.open("wb") as handle:  # sparse: 10 MiB and a byte, nothing written
        handle.truncate(10 * 1024 * 1024 + 1)
    cwd = str(tmp_path)
    assert refusal("", cwd=cwd) == "Type the path of a file to attach."
    assert refusal("gone.png", cwd=cwd) == (
        f"No file at gone.png: check the path (a relative one starts from {cwd}).")
    assert refusal(".", cwd=cwd) == (
        ". is a folder: attach a file (a .zip or .tar of the folder, say).")
    svg = refusal("drawing.svg", cwd=cwd)
    assert svg.startswith("drawing.svg is not a kind of file that can be sent: send PNG, "
                          "JPEG, GIF or WebP images, text")
    assert refusal("tool.sh", cwd=cwd).startswith("tool.sh is not a kind of file")
    assert refusal("huge.png", cwd=cwd) == "huge.png is 10.5 MB: a file may have at most 10 MiB."
    assert refusal("drawing.svg", cwd=cwd, held=5) == (
        "5 files are attached already: remove one first.")


def test_tab_completes_as_far_as_every_match_agrees(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "shot-1.png").write_bytes(b"")
    (tmp_path / "shot-2.png").write_bytes(b"")
    cwd = str(tmp_path)
    assert completed("lo", cwd) == "lo" + "gs/"  # one match, a folder: its slash too
    assert completed("sh", cwd) == "shot-"  # two matches agree this far
    assert completed("nothing", cwd) == "nothing"
    assert completed(f"{tmp_path}/shot-1", cwd) == f"{tmp_path}/shot-1.png"


def test_the_files_line_names_each_file_with_its_size() -> None:
    files = [AttachedFile("answer-1", "shot.png", 12_040), AttachedFile("answer-2", "log.txt", 980)]
    assert files_line(files, _) == "Your files: shot.png 12 KB · log.txt 980 B"
    assert files_line([], _) == ""
    hostile = AttachedFile.from_portal({"id": "answer-3", "name": "a\x1b[2Jb.png", "size": 5})
    assert "\x1b" not in hostile.name


def test_a_opens_the_path_line_and_enter_queues_the_attach() -> None:
    answer = press(state(), "a")
    assert answer.stage == "attach" and answer.editor is not None
    press(answer, "x", ".", "p", "n", "g", "enter")
    assert answer.stage == "choose"
    assert [(e.kind, e.payload) for e in answer.effects] == [("attach", "x.png")]
    assert answer.typed_path == "x.png"  # offered again if the session refuses it


def test_esc_keeps_the_typed_path_for_next_time() -> None:
    answer = press(state(), "a", "o", "k", "esc")
    assert (answer.stage, answer.effects) == ("choose", [])
    press(answer, "a")
    assert answer.editor is not None and answer.editor.text == "ok"


def test_on_the_text_row_a_types_and_ctrl_a_attaches() -> None:
    answer = state(selection_mode="hybrid")
    answer.cursor = 3
    press(answer, "a", "A")
    assert answer.text == "aA" and answer.stage == "choose"
    press(answer, "^A")
    assert answer.stage == "attach"
    hints = [key.hint for key in question_keys(state(selection_mode="hybrid"))]
    assert "a attach" in hints and "A remove file" not in hints  # nothing to remove yet


def test_capital_a_picks_a_file_to_remove() -> None:
    answer = state()
    press(answer, "A")
    assert answer.stage == "choose" and answer.message == (
        "No files are attached: press a to attach one.")
    answer.files = [AttachedFile("answer-1", "shot.png", 12_040),
                    AttachedFile("answer-2", "log.txt", 980)]
    assert "A remove file" in [key.hint for key in question_keys(answer)]
    press(answer, "A", "j", "j", "k", "esc")
    assert (answer.stage, answer.effects) == ("choose", [])
    press(answer, "A", "down", "enter")
    assert [(e.kind, e.payload) for e in answer.effects] == [("detach", "answer-2")]


def test_the_write_back_reviews_a_still_accepts_the_candidate() -> None:
    answer = state()
    answer.stage = "review"
    answer.write_back = WriteBack(Candidate.from_review({
        "state": "candidate_ready", "candidate_answer": "SQLite",
        "candidate_selected_ids": ["lite"]}))
    press(answer, "a")
    assert [effect.kind for effect in answer.effects] == ["resolve"]
    assert answer.editor is None
