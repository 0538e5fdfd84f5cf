"""What the team pages render: a widened question's discussion shaped for one reader (a
participant, or the owner), and the settings' team rows (the widen dialog: `widen.py`).

A participant's view is built from `choice.team.payloads.participant_payload` only, so the
page shows exactly what the JSON API gives them and nothing of the owner's. The owner's
view comes from `owner_payload`. Shaping only: the templates own the markup and the team
service owns every decision about state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec import Struct, field

from choice.contract import FieldError, TeamMember
from choice.contract.clock import parse_iso
from choice.core.i18n import SUPPORTED
from choice.core.service import InteractionService
from choice.store.records import Interaction, Participant
from choice.team.discussion import Discussion
from choice.team.payloads import owner_payload, page_reply, participant_payload
from choice.team.thread import ThreadPage
from choice.web.views.browser_language import browser_language


class MessageView(Struct, frozen=True):
    id: int
    author: str
    text: str
    at: float
    by_owner: bool
    yours: bool = False
    """The reader wrote it: the owner reading their own comment ("You")."""


class FileView(Struct, frozen=True):
    """A file the agent showed with the question, as `partials/_attachments.html` lists it."""

    id: str
    name: str
    mime_type: str
    size: int
    source_path: str | None = None
    """Where `choice mcp` read it on the agent's machine (the bridge's word, not the model's)."""


def _files(payload: dict[str, Any]) -> dict[str, FileView]:
    return {f["id"]: FileView(id=f["id"], name=f["name"], mime_type=f["mime_type"],
                              size=f["size"] or 0, source_path=f["source_path"])
            for f in payload["question"]["attachments"]}


class OptionTally(Struct, frozen=True):
    """One option with its votes: what the vote form and the tally show."""

    index: int
    id: str
    label: str
    description: str | None
    recommended: bool
    rationale: str | None
    votes: int
    voters: list[str]
    mine: bool = False
    attachments: tuple[FileView, ...] = ()
    """The files this option points at (`attachment_ids`), e.g. its mock-up."""


class Ending(Struct, frozen=True):
    """How the question ended, as a participant may know it: what was decided (the options'
    labels, the answer in words), by whom (`owner`, `quorum`), from where (the result's
    `summary_json.source`), and why."""

    status: str
    labels: list[str]
    timed_out: bool
    on_timeout: str
    answer: str | None = None
    summary: str | None = None
    decided_by: str | None = None
    source: str | None = None
    rationale: str | None = None

    @property
    def decided(self) -> bool:
        return self.status in ("submitted", "auto_submitted") and not self.timed_out


class PersonView(Struct, frozen=True):
    """A participant as the owner sees them."""

    id: str
    name: str
    handle: str | None
    opened_at: float | None
    revoked: bool
    vote: list[str]


class DiscussionView(Struct, frozen=True):
    """One widened question as its reader sees it (participant page or owner's panel)."""

    title: str
    prompt: str
    note: str | None
    status: str
    open: bool
    expires_at: float
    multi: bool
    options: list[OptionTally]
    messages: list[MessageView]
    """One page of the thread, oldest first (the newest 20 unless asked otherwise)."""
    comments_before: int | None
    """The cursor of the page before `messages` ("Show earlier"), None when none is."""
    comment_count: int
    people: list[str]
    ending: Ending | None
    you: str | None = None
    mode: str | None = None
    invited: list[PersonView] = field(default_factory=list)
    thread_urls: tuple[str, str, str] = ("", "", "")
    """Where "Show earlier" goes: the fragment's and the page's URL up to the cursor, and
    the page's anchor (`thread_urls_of`)."""
    window: bool = False
    """The thread shows an earlier window, not the newest comments (a page without script
    followed "Show earlier"): it offers the way back to the newest."""
    attachments: list[FileView] = field(default_factory=list)
    """The question's files no option shows as its own: they go under the prompt."""

    @property
    def shows_prompt(self) -> bool:
        """The prompt says more than the title (a `hitl_request`'s one-line question is both:
        it is shown once)."""
        return bool(self.prompt.strip()) and " ".join(self.prompt.split()) != " ".join(
            self.title.split())

    @property
    def input_type(self) -> str:
        return "checkbox" if self.multi else "radio"

    @property
    def my_vote(self) -> list[OptionTally]:
        return [option for option in self.options if option.mine]

    @property
    def total_votes(self) -> int:
        return sum(option.votes for option in self.options)

    def labels(self, option_ids: list[str]) -> list[str]:
        by_id = {option.id: option.label for option in self.options}
        return [by_id[i] for i in option_ids if i in by_id]


class ThreadView(Struct, frozen=True):
    """A page of the thread on its own ("Show earlier"): its comments, oldest first, and
    the cursor of the page before it."""

    messages: list[MessageView]
    comments_before: int | None
    thread_urls: tuple[str, str, str]


def _messages(comments: list[dict[str, Any]], *, owner_reads: bool) -> list[MessageView]:
    messages = []
    for m in comments:
        by_owner = m["by_owner"] if "by_owner" in m else m["participant_id"] is None
        messages.append(MessageView(id=m["id"], author=m["author"], text=m["text"],
                                    at=parse_iso(m["at"]), by_owner=by_owner,
                                    yours=by_owner and owner_reads))
    return messages


def thread_view(page: ThreadPage, urls: tuple[str, str, str], *,
                participant: bool) -> ThreadView:
    """A page of the thread as a participant (from what their JSON API gives them) or the
    owner sees it; `urls` as `thread_urls_of` makes them."""
    reply = page_reply(page, participant=participant)
    return ThreadView(_messages(reply["comments"], owner_reads=not participant),
                      reply["comments_before"], urls)


def _options(payload: dict[str, Any], mine: list[str]) -> list[OptionTally]:
    tally = {t["option_id"]: t for t in payload["tally"]}
    files = _files(payload)
    return [OptionTally(index=index, id=o["id"], label=o["label"], description=o["description"],
                        recommended=o["recommended"], rationale=o["rationale"],
                        votes=tally[o["id"]]["votes"], voters=tally[o["id"]]["voters"],
                        mine=o["id"] in mine,
                        attachments=tuple(files[i] for i in o["attachment_ids"] if i in files))
            for index, o in enumerate(payload["question"]["options"], start=1)]


def _loose_files(payload: dict[str, Any]) -> list[FileView]:
    """The files no option shows as its own (the owner's page puts them under the prompt)."""
    owned = {i for o in payload["question"]["options"] for i in o["attachment_ids"]}
    return [file for file in _files(payload).values() if file.id not in owned]


def _ending(discussion: Discussion, payload: dict[str, Any]) -> Ending | None:
    outcome = payload["outcome"]
    if outcome is None:
        return None
    return Ending(status=outcome["status"], labels=outcome["selected_labels"],
                  timed_out=outcome["timed_out"], on_timeout=discussion.request.on_timeout,
                  answer=outcome["answer"], summary=outcome["summary"],
                  decided_by=outcome["decided_by"], source=outcome["source"],
                  rationale=outcome["rationale"])


def _common(discussion: Discussion, payload: dict[str, Any], mine: list[str], *,
            owner_reads: bool = False) -> dict[str, Any]:
    question = payload["question"]
    return {
        "title": question["title"], "prompt": question["prompt"], "note": payload["note"],
        "status": payload["status"], "open": payload["open"],
        "expires_at": discussion.row.expires_at,
        "multi": question["selection_mode"] != "single" and (question["max_selections"] or 0) > 1,
        "options": _options(payload, mine),
        "messages": _messages(payload["comments"], owner_reads=owner_reads),
        "comments_before": payload["comments_before"],
        "comment_count": discussion.comment_count,
        "ending": _ending(discussion, payload),
        "attachments": _loose_files(payload),
    }


_NOBODY = Participant(id="", interaction_id="", name="", secret_hash="", invited_at=0.0)
"""The reader of `everyone_view`: no name, no vote of their own."""


def everyone_view(discussion: Discussion) -> DiscussionView:
    """What every participant sees alike (no "you", no vote of their own): the live
    updates render this once for all their pages."""
    return participant_view(discussion, _NOBODY)


def chosen_language(service: InteractionService, interaction: Interaction | None,
                    lang: str | None, headers: Mapping[str, str]) -> str:
    """A participant's page and socket: `?lang=` when it names a language we have, else the
    interaction's, else the portal's, else what the browser asks for (`headers`)."""
    return (lang if lang in SUPPORTED
            else service.language_for(interaction, browser_language(headers)))


def thread_urls_of(*, base: str = "", lang: str = "",
                   interaction_id: str = "") -> tuple[str, str, str]:
    """"Show earlier"'s URLs on a participant's page (`base`: `/d/<secret>`) or the owner's
    (`interaction_id`): the fragment's, the page's (up to the cursor), the anchor."""
    if interaction_id:
        return (f"/choice/{interaction_id}/comments?before=", f"/choice/{interaction_id}?before=",
                "team-panel")
    query = f"lang={lang}&" if lang else ""
    return f"{base}/comments?{query}before=", f"{base}?{query}before=", "thread-title"


def participant_view(discussion: Discussion, me: Participant, *, base: str = "",
                     lang: str = "", window: bool = False) -> DiscussionView:
    payload = participant_payload(discussion, me)
    return DiscussionView(**_common(discussion, payload, payload["you"]["vote"]),
                          people=payload["participants"], you=payload["you"]["name"],
                          thread_urls=thread_urls_of(base=base, lang=lang), window=window)


def owner_view(discussion: Discussion, *, window: bool = False) -> DiscussionView:
    payload = owner_payload(discussion)
    invited = [PersonView(id=p["participant_id"], name=p["name"], handle=p["handle"],
                          opened_at=parse_iso(p["opened_at"]) if p["opened_at"] else None,
                          revoked=p["revoked"], vote=p["vote"])
               for p in payload["participants"]]
    return DiscussionView(**_common(discussion, payload, [], owner_reads=True),
                          mode=payload["mode"],
                          people=[p.name for p in invited if not p.revoked], invited=invited,
                          thread_urls=thread_urls_of(interaction_id=discussion.row.id),
                          window=window)


class TeamRow(Struct, frozen=True):
    """One row of the settings' team list, as typed, with its field errors."""

    name: str
    handle: str
    email: str
    errors: list[str]


def team_context(rows: Sequence[TeamMember | dict[str, str]],
                 errors: Sequence[FieldError] = ()) -> dict[str, Any]:
    """The settings' team form: `team_rows` with their errors (`team[i].name` goes to row i)
    and `team_errors`, those about the list as a whole (a duplicate name)."""
    by_row: dict[int, list[str]] = {}
    general: list[str] = []
    for error in errors:
        message = _plain(error)
        index = error.field.removeprefix("team[").split("]", 1)[0]
        if error.field.startswith("team[") and index.isdigit():
            by_row.setdefault(int(index), []).append(message)
        else:
            general.append(message)
    plain = [row.model_dump() if isinstance(row, TeamMember) else row for row in rows]
    shaped = [TeamRow(name=row.get("name") or "", handle=row.get("handle") or "",
                      email=row.get("email") or "", errors=by_row.get(index, []))
              for index, row in enumerate(plain)]
    return {"team_rows": shaped, "team_errors": general}


def _plain(error: FieldError) -> str:
    """`team: 'al' is in the team list twice: ...` -> `'al' is in the team list twice: ...`:
    beside the row it is about, the field's path only gets in the way."""
    rest = error.message.removeprefix(f"{error.field}: ")
    return rest[:1].upper() + rest[1:]
