"""What the person sees in `choice hook`'s question, end to end with the real hook process
and a real portal: hostile values stay inside their code, a long command is there whole or
cannot be allowed, "Always allow" saves what it says, an edit is a diff against the file
on disk, and an AskUserQuestion label comes back exactly as the model wrote it."""

from __future__ import annotations

import pytest

from choice.client.portal_client import PortalClient
from tests.hook_process import Hook, claude, output_of, project, question_of, run_hook
from tests.portal_process import PortalProcess

pytestmark = pytest.mark.slow


def asked(client: PortalClient, name: str, hook: Hook) -> tuple[str, dict]:
    iid = str(question_of(client, name, hook)["interaction_id"])
    return iid, client.detail(iid)["request"]


def test_an_ask_user_question_label_comes_back_exactly_as_the_model_wrote_it(
        portal: PortalProcess, client: PortalClient) -> None:
    name = project()
    tool_input = {"questions": [{
        "question": "Which database?", "header": "Database", "multiSelect": False,
        "options": [{"label": "PostgreSQL (Recommended)", "description": "A server."},
                    {"label": "SQLite", "description": "One file."}]}]}
    hook = run_hook(portal, claude("AskUserQuestion", tool_input, cwd=f"/home/dev/{name}"))
    iid, request = asked(client, name, hook)
    shown = request["questions"][0]["options"][0]
    assert (shown["label"], shown["recommended"]) == ("PostgreSQL", True)  # the page's mark
    client.respond(iid, {"answers": {"q1": {"selected_ids": ["1"]}}})
    assert hook.decision() == output_of({"behavior": "allow", "updatedInput": {
        **tool_input, "answers": {"Which database?": "PostgreSQL (Recommended)"}}})
