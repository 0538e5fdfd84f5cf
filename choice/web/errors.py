"""Every error leaves the portal as `{"errors": [{field, code, message}]}` with a status a
client can branch on: 422 bad input, 404 unknown id, 409 already completed (or a discussion
that takes no more comments), 413 too big, 429 too many in a minute.
Unexpected failures are logged with their traceback and answered without it.
The messages are written for agents and scripts. A person's browser on one of the pages gets
a page instead, made around these answers (`pages/error_pages.py`).
"""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.types import ExceptionHandler, ExceptionHandlersMap

from choice.contract import OPEN_STATUSES
from choice.contract.errors import (
    AlreadyCompleted,
    AlreadyWidened,
    FileNotFound,
    NotDeferred,
    NotFound,
    NotInReview,
    NotWidened,
    NotWidenedNow,
    TooManyComments,
)
from choice.contract.field_errors import InvalidInput
from choice.core.replies import listing
from choice.store.records import Interaction
from choice.team.rate_limit import RateLimited
from choice.team.service import UnknownFile, UnknownLink
from choice.web.api.query import HINTS

log = logging.getLogger("choice.web")

_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
          405: "method_not_allowed", 413: "too_large", 415: "unsupported_media_type",
          429: "rate_limited"}


def error_response(status: int, errors: list[dict[str, Any]], **extra: Any) -> Response[Any]:
    return Response({"errors": errors, **extra}, status_code=status,
                    media_type="application/json")


def _invalid(_: Request[Any, Any, Any], exc: InvalidInput) -> Response[Any]:
    return error_response(422, [e.model_dump() for e in exc.errors])


def _not_found(_: Request[Any, Any, Any], exc: NotFound) -> Response[Any]:
    if isinstance(exc, FileNotFound):
        return _file_not_found(exc)
    return error_response(404, [{
        "field": "interaction_id", "code": "not_found",
        "message": f"no interaction with id {exc.interaction_id[:64]!r}: check the id, or list "
                   "them with GET /api/interactions (old ones are removed by retention).",
    }])


def _file_not_found(exc: FileNotFound) -> Response[Any]:
    where = f"/api/interactions/{exc.interaction_id[:64]}"
    if exc.draft:
        return error_response(404, [{
            "field": "file_id", "code": "not_found",
            "message": f"no file {exc.file_id[:64]!r} on this question's draft: list its files "
                       f"with GET {where}/draft/files (a file sent with the answer stays "
                       "with it).",
        }])
    return error_response(404, [{
        "field": "attachment_id", "code": "not_found",
        "message": f"no file {exc.file_id[:64]!r} with this question: its files are listed in "
                   f"GET {where}/detail (the agent's) and in its result (the person's).",
    }])


def _conflict(row: Interaction, code: str, message: str, **extra: Any) -> Response[Any]:
    """A 409 about the interaction: what stands is sent back with the reason."""
    return error_response(409, [{"field": "interaction_id", "code": code, "message": message}],
                          interaction=listing(row), **extra)


def _already_completed(_: Request[Any, Any, Any], exc: AlreadyCompleted) -> Response[Any]:
    row = exc.row
    if row.status == "deferred":
        return _conflict(row, "deferred",
                         "this question is deferred: nothing was changed. Take it up again "
                         "(POST /api/interactions/{id}/resume), or decide it (POST "
                         "/api/interactions/{id}/response or /resolve).")
    return _conflict(row, "already_completed",
                     f"this interaction is already {row.status}: nothing was changed. "
                     "The result below is what stands.",
                     result=row.result_json)


def _already_widened(_: Request[Any, Any, Any], exc: AlreadyWidened) -> Response[Any]:
    return _conflict(exc.row, "already_widened",
                     "this question is already widened: nothing was changed. See who was "
                     "invited with GET /api/interactions/{id}/team; withdraw a link with "
                     "DELETE /api/interactions/{id}/participants/{participant_id}.")


def _discussion_closed(_: Request[Any, Any, Any], exc: NotWidened) -> Response[Any]:
    over = exc.row.status not in OPEN_STATUSES
    return error_response(409, [{
        "field": "interaction_id", "code": "discussion_closed",
        "message": (f"the discussion has ended (the question is {exc.row.status}): nothing "
                    "was added." if over else
                    "this question is not widened: there is no discussion to add to."),
    }], interaction_status=exc.row.status)


def _not_widened_now(_: Request[Any, Any, Any], exc: NotWidenedNow) -> Response[Any]:
    status = exc.row.status
    if status == "deferred":
        message = ("this question is deferred: take it up again first (POST "
                   "/api/interactions/{id}/resume), or resolve it.")
    elif status == "pending":
        message = ("this question is not widened: a summary and a quorum are of a team's "
                   "discussion. Widen it first, or answer it.")
    else:
        message = f"this question is already {status}: nothing was changed."
    return _conflict(exc.row, "not_widened", message)


def _not_in_review(_: Request[Any, Any, Any], exc: NotInReview) -> Response[Any]:
    return _conflict(exc.row, "not_in_review",
                     "the owner has not asked for a summary of this question: send a "
                     "candidate only after a reply with action_status 'summary_requested'. "
                     "Nothing was changed.")


def _not_deferred(_: Request[Any, Any, Any], exc: NotDeferred) -> Response[Any]:
    return _conflict(exc.row, "not_deferred",
                     f"this question is {exc.row.status}, not deferred: there is nothing to "
                     "take up again. Nothing was changed.")


def _unknown_link(_: Request[Any, Any, Any], _exc: UnknownLink) -> Response[Any]:
    return error_response(404, [{
        "field": "link", "code": "unknown_link",
        "message": "this link does not open anything (mistyped, or withdrawn by the person "
                   "who invited you): ask them for a new one.",
    }])


def _unknown_file(_: Request[Any, Any, Any], exc: UnknownFile) -> Response[Any]:
    return error_response(404, [{
        "field": "attachment_id", "code": "not_found",
        "message": f"no file {exc.attachment_id[:64]!r} is shown with this question: its "
                   "files are listed in GET /api/d/<secret> (question.attachments).",
    }])


def _rate_limited(_: Request[Any, Any, Any], exc: RateLimited) -> Response[Any]:
    if exc.what == "votes":
        field, message = "option_ids", (f"too many vote changes in a minute: wait "
                                        f"{exc.retry_after} s, then send the vote you settled on.")
    else:
        field, message = "text", (f"too many comments in a minute: wait {exc.retry_after} s "
                                  "and send it again.")
    response = error_response(429, [{"field": field, "code": "rate_limited", "message": message}])
    response.headers["retry-after"] = str(exc.retry_after)
    return response


def _too_many_comments(_: Request[Any, Any, Any], exc: TooManyComments) -> Response[Any]:
    if exc.per == "link":
        code, message = "too_many_comments", (
            f"this link has written {exc.limit} comments, the most one person may add to a "
            "discussion: nothing was added. Your vote still counts (PUT /api/d/<secret>/vote).")
    else:
        code, message = "discussion_full", (
            f"this discussion holds {exc.limit} comments, the most a question keeps: nothing "
            "was added. Votes are still taken; the person asking decides from here.")
    return error_response(409, [{"field": "text", "code": code, "message": message}])


def _validation(_: Request[Any, Any, Any], exc: ValidationException) -> Response[Any]:
    """Litestar's own parameter errors (query strings), reworded with the fix."""
    extra = exc.extra if isinstance(exc.extra, list) else []
    errors = []
    for item in extra:
        if not isinstance(item, dict):
            continue
        key = str(item.get("key") or "request")
        hint = HINTS.get(key)
        message = (f"{key} must be {hint}." if hint
                   else f"{key}: {item.get('message') or exc.detail}")
        errors.append({"field": key, "code": "invalid", "message": message})
    return error_response(422, errors or [{"field": "request", "code": "invalid",
                                           "message": str(exc.detail)}])


def body_limit(request: Request[Any, Any, Any], max_body_bytes: int) -> int:
    """The most bytes a body may have on `request`'s route: the app's `max_body_bytes`, or
    the larger limit of a route that takes files."""
    route_limit = getattr(request.scope.get("route_handler"), "request_max_body_size", None)
    return route_limit if isinstance(route_limit, int) and route_limit > max_body_bytes \
        else max_body_bytes


def _http(max_body_bytes: int) -> ExceptionHandler[HTTPException]:
    def handle(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
        code = _CODES.get(exc.status_code, "error")
        message = str(exc.detail)
        limit = body_limit(request, max_body_bytes)
        if exc.status_code == 413 and limit > max_body_bytes:
            why = (getattr(request.scope.get("route_handler"), "opt", None) or {}).get(
                "body_limit", "")
            message = (f"the request body is too large: keep it under "
                       f"{max(1, round(limit / 2**20))} MiB{f' ({why})' if why else ''}.")
        elif exc.status_code == 413:
            message = (f"the request body is too large: keep it under {max_body_bytes // 1024} "
                       "KiB (shorten the prompt or option descriptions).")
        elif exc.status_code == 404:
            message = "no such endpoint: see /schema for the API."
        response = error_response(exc.status_code, [{"field": "request", "code": code,
                                                     "message": message}])
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        return response

    return handle


def _unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    log.exception("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, [{"field": "server", "code": "internal",
                                 "message": "the portal hit an unexpected error: the details "
                                            "are in the portal's log."}])


def exception_handlers(max_body_bytes: int) -> ExceptionHandlersMap:
    """Every handler; `max_body_bytes` is the app's body limit, named in a 413."""
    return {
        InvalidInput: _invalid,
        NotFound: _not_found,
        AlreadyCompleted: _already_completed,
        AlreadyWidened: _already_widened,
        NotWidened: _discussion_closed,
        NotWidenedNow: _not_widened_now,
        NotInReview: _not_in_review,
        NotDeferred: _not_deferred,
        UnknownLink: _unknown_link,
        UnknownFile: _unknown_file,
        RateLimited: _rate_limited,
        TooManyComments: _too_many_comments,
        ValidationException: _validation,
        HTTPException: _http(max_body_bytes),
        Exception: _unexpected,
    }
