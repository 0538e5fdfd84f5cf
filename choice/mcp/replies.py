"""What a tool call returns: the reply as structured content, plus the one line a model
that reads only text gets (as each compatibility shape's caller expects), and the words of
a refusal. Once answered with files, each follows the text as its own block
(`answer_files.py`). Shared by the asking tools and `submit_candidate`; no waiting, no SDK
server.
"""

from __future__ import annotations

from typing import Any

from mcp.types import CallToolResult, ContentBlock, TextContent

from choice.contract import Shape
from choice.contract.ask_user_question import answered_line
from choice.contract.errors import AlreadyCompleted, NotInReview
from choice.contract.field_errors import InvalidInput
from choice.core.endings import request_of
from choice.core.extension import ReplyHints
from choice.core.service import InteractionService
from choice.mcp.answer_files import file_blocks, files_sentence
from choice.store.records import Interaction


def poll_hint(tool: str, interaction_id: str) -> str:
    return (f"Call {tool} again with {{\"session_id\": \"{interaction_id}\"}} (nothing else) "
            "to keep waiting for the answer.")


def text_content(message: str) -> list[ContentBlock]:
    return [TextContent(type="text", text=message)]


CANDIDATE_HINT = "call submit_candidate with session_id and"


async def result_for(service: InteractionService, row: Interaction, tool: str) -> CallToolResult:
    """The result as structured content plus one line a model can read."""
    reply = await service.reply(row, ReplyHints(poll_hint(tool, row.id), CANDIDATE_HINT))
    body = reply.to_json()
    if body.get("action_status") == "summary_requested":
        line = (f"Summary requested (session_id {row.id}): {body['instructions']}\n"
                + candidate_brief(body))
    elif row.status == "deferred":
        line = f"Deferred (session_id {row.id}). {body['instructions']}"
    elif row.status == "widened":
        carry_on = ("carry on with work that does not depend on it, and poll later"
                    if body["mode"] == "continue" else "poll again to keep waiting")
        line = (f"Widened ({body['mode']}): the human asked teammates to discuss this question "
                f"and decides afterwards (session_id {row.id}); {carry_on}. Do not ask it "
                f"again. {body['instructions']}")
    elif row.status == "pending":
        line = (f"Pending: the human has not answered yet (session_id {row.id}). "
                f"{body['instructions']}")
    else:
        line = completed_line(body, request_of(row).shape)
        if sent := body.get("attachments"):
            line = f"{line}\n{files_sentence(sent)}"
            return CallToolResult(
                content=[*text_content(line), *await file_blocks(service.store, row.id, sent)],
                structured_content=body)
    return CallToolResult(content=text_content(line), structured_content=body)


def completed_line(body: dict[str, Any], shape: Shape) -> str:
    """The text a model reads of a result, as its shape's caller expects: for
    `request_user_choice` exactly what the human chose, the option's title or
    their own words, as a human message would be; for `ask_user_question` what Claude
    Code's own tool says (each question's text and answer); for `hitl_request` the
    explicit outcome first; otherwise the summary sentence."""
    answered = body.get("action_status") in ("selected", "custom_input")
    if shape == "ask_user_question" and body.get("answers_by_question") is not None:
        return answered_line(body["answers_by_question"])
    if shape == "request_user_choice" and answered:
        chosen = ", ".join(body.get("selected_labels") or [])
        return "\n".join(part for part in (chosen, body.get("custom_input") or "") if part)
    if shape == "hitl_request":
        option = body.get("selected_option")
        head = f"outcome: {body.get('outcome')}"
        if option:
            head += f"; selected_option: {option['label']} (id {option['id']})"
        return f"{head}. {body.get('summary', '')}"
    return str(body.get("summary", ""))


def candidate_brief(body: dict[str, Any]) -> str:
    """The summary request for a model that reads only text: the question and the
    discussion, then the JSON to send back."""
    discussion, question = body["discussion"], body["question"]
    options = "".join(f"\n  - {o['label']} (id {o['id']})" for o in question["options"])
    return str(f"QUESTION: {question['title']}\n{question['prompt']}"
            + (f"\nOPTIONS:{options}" if options else "")
            + f"\nPARTICIPANTS: {', '.join(discussion['participants'])}"
            + f"\nMESSAGES ({discussion['message_count']}"
            + (", newest 50 shown" if discussion["truncated"] else "") + "):\n"
            + "\n".join(discussion["messages"])
            + '\nThen call submit_candidate with {"session_id": "' + body["session_id"]
            + '", "candidate_summary": "...", "candidate_answer": "...", '
            + ('"selected_ids": ["<the option id(s) settled on>"], ' if options else "")
            + '"source_hint": "discussion_extraction"}.')


def candidate_refusal(refused: AlreadyCompleted) -> str:
    status = refused.row.status
    if isinstance(refused, NotInReview):
        return ("Not sent: the owner has not asked for a summary of this question (only a "
                "reply with action_status 'summary_requested' asks for one). Poll it instead.")
    return (f"Not sent: the question is {status} now, so no candidate is needed. Poll it "
            "with only session_id for where it stands.")


def invalid(errors: InvalidInput) -> CallToolResult:
    fields = "; ".join(f"{e.field}: {e.message}" for e in errors.errors)
    return CallToolResult(content=text_content(f"Invalid request, nothing was asked: {fields}"),
                          structured_content={"errors": [e.model_dump() for e in errors.errors]},
                          is_error=True)


