"""The portal's tools as the SDK lists them (`tools/list`): each tool's name, title,
description and JSON schemas, made from the contract's models (slow to make).

Made at the first `tools/list` (`PortalMCP.list_tools`), which the stdio bridge answers
itself (`listing.py`), so a portal it started never makes them.
"""

from __future__ import annotations

from mcp.types import Tool

from choice.mcp.output import candidate_output_schema, output_schema, pending_output_schema
from choice.mcp.tools import (
    LIST_PENDING,
    LIST_PENDING_DESCRIPTION,
    LIST_PENDING_INPUT,
    LIST_PENDING_TITLE,
    SUBMIT_CANDIDATE,
    SUBMIT_CANDIDATE_DESCRIPTION,
    SUBMIT_CANDIDATE_INPUT,
    SUBMIT_CANDIDATE_TITLE,
    TOOLS,
    WITHDRAW,
    WITHDRAW_DESCRIPTION,
    WITHDRAW_INPUT,
    WITHDRAW_TITLE,
)


def described_tools() -> list[Tool]:
    """Every tool with its schemas: the asking tools, then `list_pending`,
    `submit_candidate` and `withdraw_question`."""
    outcome = output_schema()
    tools = [Tool(name=t.name, title=t.title, description=t.description,
                  input_schema=t.input_schema(), output_schema=outcome) for t in TOOLS]
    tools.append(Tool(name=LIST_PENDING, title=LIST_PENDING_TITLE,
                      description=LIST_PENDING_DESCRIPTION, input_schema=LIST_PENDING_INPUT,
                      output_schema=pending_output_schema()))
    tools.append(Tool(name=SUBMIT_CANDIDATE, title=SUBMIT_CANDIDATE_TITLE,
                      description=SUBMIT_CANDIDATE_DESCRIPTION,
                      input_schema=SUBMIT_CANDIDATE_INPUT,
                      output_schema=candidate_output_schema()))
    tools.append(Tool(name=WITHDRAW, title=WITHDRAW_TITLE, description=WITHDRAW_DESCRIPTION,
                      input_schema=WITHDRAW_INPUT, output_schema=outcome))
    return tools
