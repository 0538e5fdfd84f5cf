"""How a run of `choice answer <id>` ends: the one summary line a person reads and the exit
code a script reads.

Exit codes: 0 answered, 3 cancelled (or withdrawn by the agent), 4 timed out, 5 continued
in the browser, 6 left while widened (the question stays open for the team), 7 deferred
(here or elsewhere), 1 anything else. Only words here: the calls that end a run are
`actions.py`'s, and model text is made safe where the line is printed (`answer_command.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from choice.terminal.text import safe_text

EXIT = {"submitted": 0, "auto_submitted": 0, "cancelled": 3, "timeout": 4, "withdrawn": 3}
SWITCHED = 5
LEFT_WIDENED = 6
DEFERRED = 7
Translate = Callable[[str], str]


@dataclass
class Ending:
    line: str
    code: int


def outcome(result: dict[str, Any], _: Translate) -> str:
    """The result in one line for the human: the summary says what was chosen, but a
    cancel's or a timeout's summary is advice to the agent, so those get their own."""
    action = result.get("action_status")
    if result.get("withdrawn_reason"):
        return _("The agent no longer needs this: {reason}").format(
            reason=safe_text(str(result["withdrawn_reason"]), keep_newlines=False))
    if action == "timeout":
        return _("Timed out")
    if action == "cancelled":
        note = result.get("global_annotation")
        return _("Cancelled") + (f'. {_("Note for the agent:")} "{note}"' if note else "")
    return str(result.get("summary", ""))


def _closing(line: str, _: Translate) -> str:
    """`line`, then that the discussion is closed (`Cancelled` has no full stop of its own)."""
    ended = line.endswith((".", "。"))
    return line + ("" if ended else ".") + " " + _("The discussion is closed.")


def finished(result: dict[str, Any], _: Translate, *, elsewhere: bool = False,
             closes_discussion: bool = False) -> Ending:
    """Answered, cancelled or timed out; `closes_discussion`: decided here while widened."""
    status = str(result.get("status") or result.get("action_status") or "")
    prefix = _("Already finished elsewhere:") + " " if elsewhere else ""
    line = outcome(result, _)
    if closes_discussion:  # decided here closes the team's discussion too
        if result.get("action_status") in ("selected", "custom_input"):
            line = _("Resolved locally:") + " " + line
        line = _closing(line, _)
    return Ending(prefix + line, EXIT.get(status, 0 if status == "selected" else 1))


def resolved(result: dict[str, Any], _: Translate, *, widened: bool) -> Ending:
    """The review ended in a decision."""
    line = _("Decision resolved:") + " " + outcome(result, _)
    status = str(result.get("status") or "")
    return Ending(_closing(line, _) if widened else line, EXIT.get(status, 1))


def deferred(rationale: str, interaction_id: str, _: Translate, *,
             elsewhere: bool = False) -> Ending:
    """Deferred: set aside, with the reason the agent now reads."""
    said = _('Deferred elsewhere: "{rationale}".') if elsewhere else \
        _('Decision deferred: "{rationale}".')
    again = _("Take it up again with `choice answer {id}`.").format(id=interaction_id)
    return Ending(said.format(rationale=safe_text(rationale, keep_newlines=False)) + " "
                  + again, DEFERRED)


def left_widened(interaction_id: str, _: Translate) -> Ending:
    """Ctrl+C while widened: the question stays open for the team; say how to return."""
    return Ending(_("Left it widened: come back with `choice answer {id}`; "
                    "`choice list --status widened` lists what waits on the team.")
                  .format(id=interaction_id), LEFT_WIDENED)


def switched(url: str, opened: bool, _: Translate) -> Ending:
    """Continued in the browser: opened there, or the link to open."""
    message = _("Continued in the browser.") if opened else \
        _("Continued in the browser: open {url}").format(url=url)
    return Ending(message, SWITCHED)
