"""The keys of the person's own files (docs/guides/attachments.md): `a` (Ctrl-A where letters type)
opens a line for a file's path (Tab completes it, Enter attaches, Esc goes back), `A`
(Ctrl-X there) a list of the attached files to take one off (↑↓ or j/k, Enter removes,
Esc goes back).

Reading and sending the file is the session's (`calls/files.py`): Enter queues an
`attach` or `detach` effect. A path the portal or the disk refused is offered again the
next time the line opens, so nothing typed is lost. No curses, no network.
"""

from __future__ import annotations

from choice.terminal.answer_files import completed
from choice.terminal.keys import MOVES, Effect
from choice.terminal.state import AnswerState


def open_attach(state: AnswerState) -> None:
    _ = state.translate
    state.open_editor("attach", _("File to attach"), state.typed_path)


def open_detach(state: AnswerState) -> None:
    _ = state.translate
    if not state.files:
        state.message = _("No files are attached: press a to attach one.")
        return
    state.stage, state.file_cursor = "detach", min(state.file_cursor, len(state.files) - 1)


def attach_key(state: AnswerState, key: str) -> None:
    editor = state.editor
    assert editor is not None
    if key == "tab":
        editor.text = completed(editor.text)
        return
    verdict = editor.key(key)
    if verdict is None:
        return
    state.stage, state.editor = "choose", None
    state.typed_path = editor.text  # kept until it is attached: Esc loses nothing either
    if verdict == "done":
        state.effects.append(Effect("attach", editor.text))


def detach_key(state: AnswerState, key: str) -> None:
    step = MOVES.get(key) or {"j": 1, "k": -1}.get(key)
    if step:
        state.file_cursor = max(0, min(len(state.files) - 1, state.file_cursor + step))
    elif key == "enter" and state.files:
        state.stage = "choose"
        state.effects.append(Effect("detach", state.files[state.file_cursor].id))
    elif key in ("esc", "q", "A", "^X"):
        state.stage = "choose"
