"""The person's own files, through the portal (`.../draft/files`): the list the draft holds
(read when the question opens and after each change made here), a file read from disk and
attached, one taken off.

A refusal (the disk's or the portal's 422) becomes the status line and keeps the UI open;
what was typed stays. A 409 (the question ended meanwhile) is raised for the session, which
ends the run as for any other call (`actions.py`).
"""

from __future__ import annotations

from choice.client.portal_client import PortalClient, PortalError, PortalUnreachable
from choice.contract.attachments import file_size
from choice.terminal.answer_files import AttachedFile, FileRefused, read_file
from choice.terminal.state import AnswerState


class FileCalls:
    def __init__(self, client: PortalClient, interaction_id: str) -> None:
        self.client, self.interaction_id = client, interaction_id

    def listed(self) -> list[AttachedFile] | None:
        """The files the draft holds, oldest first; None when the portal could not say."""
        try:
            return [AttachedFile.from_portal(sent)
                    for sent in self.client.draft_files(self.interaction_id)]
        except (PortalError, PortalUnreachable, KeyError, TypeError, ValueError):
            return None

    def attach(self, state: AnswerState, typed: str) -> None:
        """Read the file at `typed` and attach it; the status line says what happened."""
        _ = state.translate
        try:
            sending = read_file(typed, _, held=len(state.files))
        except FileRefused as refused:
            state.message = str(refused)
            return
        try:
            sent = self.client.attach_file(self.interaction_id, sending.name, sending.mime_type,
                                           sending.data, interface="terminal")
        except PortalError as error:
            if error.status == 409:
                raise
            said = "; ".join(str(e.get("message")) for e in error.errors) or str(error)
            self.refresh(state)  # a page may have attached files since: show what is held
            state.message = _("Not attached: {reason}").format(reason=said)
            return
        added = AttachedFile.from_portal(sent)
        state.typed_path = ""
        self.refresh(state, fallback=[*state.files, added])
        state.message = _("Attached {name} ({size}).").format(name=added.name,
                                                              size=file_size(added.size))

    def detach(self, state: AnswerState, file_id: str) -> None:
        """Take a file off; the status line names it."""
        _ = state.translate
        gone = next((file for file in state.files if file.id == file_id), None)
        try:
            self.client.detach_file(self.interaction_id, file_id, interface="terminal")
        except PortalError as error:
            if error.status == 409:
                raise
            if error.status != 404:  # 404: already gone (removed on the page): say so below
                said = "; ".join(str(e.get("message")) for e in error.errors) or str(error)
                state.message = _("Not removed: {reason}").format(reason=said)
                return
        self.refresh(state, fallback=[file for file in state.files if file.id != file_id])
        name = gone.name if gone is not None else file_id
        state.message = _("Removed {name}.").format(name=name)

    def refresh(self, state: AnswerState, fallback: list[AttachedFile] | None = None) -> None:
        """The list as the portal holds it now (another window may have changed it)."""
        files = self.listed()
        state.files = files if files is not None else \
            fallback if fallback is not None else state.files
        state.file_cursor = max(0, min(state.file_cursor, len(state.files) - 1))
