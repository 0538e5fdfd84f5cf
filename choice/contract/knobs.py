"""What the portal decides for the caller of a request: cancel stays available, and every
optional knob is filled.

Owns the fields that try to hide cancel (dropped, with a warning: an over-eager agent still
gets its answer) and the knobs a valid request leaves as None: the selection bounds from the
mode, then timeout, interface, notes and first-pick submission from the saved preferences.
Judges nothing: `validation.py` has already refused what is wrong.
"""

from __future__ import annotations

from typing import Any

from choice.contract import CANCEL_DISABLING_FIELDS, ChoiceRequest, Preferences, Question


def pop_cancel_disabling(payload: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Drop fields that try to hide cancel; warn when they asked for it to go away."""
    kept = {k: v for k, v in payload.items() if k not in CANCEL_DISABLING_FIELDS}
    warnings = []
    for name in CANCEL_DISABLING_FIELDS:
        if name not in payload:
            continue
        disables = payload[name] is True if name == "hide_cancel" else payload[name] is False
        if disables:
            warnings.append(
                f"{name} was ignored: cancel is always available to the human; "
                "handle action_status 'cancelled' instead."
            )
    return kept, warnings


def max_for(req: Question | ChoiceRequest) -> int:
    """max_selections as it will be stored: explicit, or the mode's default."""
    if req.max_selections is not None:
        return req.max_selections
    return {"single": 1, "hybrid": 1, "text_input": 0}.get(req.selection_mode, len(req.options))


def min_for(req: Question | ChoiceRequest) -> int:
    if req.min_selections is not None:
        return req.min_selections
    return {"single": 1, "multi": 1}.get(req.selection_mode, 0)


def resolve_defaults(req: ChoiceRequest, prefs: Preferences) -> ChoiceRequest:
    """Fill every None knob: mode defaults first, then the user's saved preferences. Each
    of several questions gets its own bounds, and the request's notes setting if it has none."""
    notes = prefs.allow_annotations if req.allow_annotations is None else req.allow_annotations
    update: dict[str, object] = {
        "allow_annotations": notes,
        "timeout_seconds": req.timeout_seconds or prefs.timeout_seconds,
        "interface": prefs.interface if req.interface == "auto" else req.interface,
    }
    if req.questions is not None:
        update["single_submit_mode"] = False  # first-pick submission needs one question
        update["questions"] = [question.model_copy(update={
            **_bounds(question),
            "allow_annotations": notes if question.allow_annotations is None
            else question.allow_annotations,
        }) for question in req.questions]
    else:
        high = max_for(req)
        single_submit = req.single_submit_mode
        if single_submit is None:
            single_submit = (prefs.single_submit and req.selection_mode in ("single", "hybrid")
                             and high == 1)
        update.update(_bounds(req), single_submit_mode=single_submit)
    return req.model_copy(update=update)


def _bounds(question: Question | ChoiceRequest) -> dict[str, int]:
    high = max_for(question)
    return {"max_selections": high, "min_selections": min(min_for(question), high)}
