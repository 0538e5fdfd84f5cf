"""The widen flow's words and boxes (the audience, block or continue, the wait, the
end-of-run pass; see docs/guides/team-mode.md) as lines of text, written
once for the full-screen UI, the plain lines and `choice list --status widened`.

Everything here takes text already made safe (`team_view`, `widening`, `question`) and a
width in cells; it returns lines that fit it. No curses, no printing, no network. A
question's title is shown without its Markdown marks (`shown_title`): these lines have no
bold or code to draw them with.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from choice.core.i18n import Translator
from choice.terminal.live import LiveEvent
from choice.terminal.markdown import inline_spans
from choice.terminal.team_view import Invitation, TeamView
from choice.terminal.text import clip, labelled, no_gap, safe_text, width, wrap

BOX_WIDTH = 76
"""Boxes are about 70 cells: wide enough for a sentence, calm on a wide screen."""
BOX_MAX = 96
"""A box grows past `BOX_WIDTH` (up to this, and the screen) for a line that needs it."""
TITLE_CELLS = 60
"""`Widen: <question text (truncated to 60 chars)>`: the audience box's title."""
LATEST_MESSAGES = 3


def shown_title(title: str) -> str:
    """A title as these plain lines show it: `Use **uv**?` reads `Use uv?` (inline marks
    only, as the screen's own title: `# 12` or `1.` at its start stays as written)."""
    return "".join(text for text, _style in inline_spans(title)).replace("\n", " ")


def box_inner(cols: int) -> int:
    """The widest text a box drawn in `cols` cells may hold."""
    return max(10, min(cols, BOX_MAX) - 4)


def listed(head: str, entries: Sequence[str], cells: int, sep: str = ", ") -> list[str]:
    """`head` then the entries, `sep`-separated (`、` in Chinese), broken between entries
    (never inside one, unless it is wider than a line alone) to fit `cells`; later lines
    indented by two."""
    lines: list[str] = []
    line = head
    for index, entry in enumerate(entries):
        piece = entry + (sep.rstrip() if index < len(entries) - 1 else "")
        gap = " " if sep.endswith(" ") or (not lines and line == head) else ""
        joined = f"{line}{gap}{piece}" if line.strip() else line + piece
        if width(joined) <= cells or not line.strip():
            line = joined
        else:
            lines.append(line)
            line = "  " + piece
    return [*lines, line]


def box(title: str, body: Sequence[str], cols: int, *, grow: bool = False) -> list[str]:
    """`╭─ title ─╮`, each body line wrapped between `│ ` and ` │`, `╰──╯`; at most
    `cols` cells wide: `BOX_WIDTH`, or with `grow` wider (up to `BOX_MAX`) for a line that
    needs it (a list of names is easier to read on one line). A body line starting with
    spaces keeps its indent on the lines it wraps to. Widths are display cells (a `？` takes
    two), measured on the text as it will be drawn: the full-width gap rule (`no_gap`) is
    applied first, or a line would lose a cell after its padding was counted."""
    title, body = no_gap(title), [no_gap(line) for line in body]
    needed = max((width(line) for line in body), default=0) if grow else 0
    inner = min(box_inner(cols), max(BOX_WIDTH - 4, needed))
    rows: list[str] = []
    for line in body:
        indent = line[:len(line) - len(line.lstrip(" "))]
        pieces = wrap(line.lstrip(" "), inner - len(indent)) or [""]
        rows += [indent + piece for piece in pieces]
    head = f"╭─ {clip(title, inner - 2)} "
    top = head + "─" * max(0, inner + 3 - width(head)) + "╮"
    middle = [f"│ {row}{' ' * max(0, inner - width(row))} │" for row in rows]
    return [top, *middle, "╰" + "─" * (inner + 2) + "╯"]


def joined(names: Sequence[str], _: Translator) -> str:
    """Names in a list as the reader's language writes one: `Alice, Bob` or `王芳、李雷`."""
    return ("、" if _.language == "zh" else ", ").join(names)


def names_and(names: Sequence[str], _: Translator) -> str:
    """`Alice`, `Alice and Bob`, `Alice, Bob and Carol` (in the reader's language)."""
    if len(names) < 2:
        return "".join(names)
    return _("{names} and {last}").format(names=joined(names[:-1], _), last=names[-1])


# -- the audience -----------------------------------------------------------------------------
def audience_box(title: str, team: Sequence[str], _: Translator, cols: int,
                 team_mode: bool = False) -> list[str]:
    """`team_mode`: a team server, where a member's email invites that member signed in."""
    listed = ", ".join(team) if team else _("(nobody yet: your team list is empty; type names)")
    members = [_("On this team server, a member's email invites them signed in (they find "
                 "it in their list); a name gets a guest link.")] if team_mode else []
    return box(_("Widen: {question}").format(question=clip(shown_title(title), TITLE_CELLS)), [
        _("Default audience for this decision:"), "  " + listed, "",
        _("[Enter] to confirm, or type comma-separated names to trim."), *members,
        _('Type "cancel" or press Ctrl+C to abort.')], cols)


def audience_confirmed(names: Sequence[str], _: Translator) -> str:
    members = _.ngettext("({n} member)", "({n} members)", len(names)).format(n=len(names))
    return _("Audience confirmed: {names} {members}").format(names=", ".join(names),
                                                            members=members)


# -- block or continue ------------------------------------------------------------------------
def mode_question(_: Translator) -> list[str]:
    return [_("Block here or continue with other questions? [b/c] (default: b)"),
            "  " + _("b  block: the agent keeps waiting until you decide"),
            "  " + _("c  continue: the agent is told now and collects the decision later")]


def warning_lines(warnings: Sequence[str], _: Translator) -> list[str]:
    return [_("Note:") + " " + warning for warning in warnings]


def agent_line(mode: str, _: Translator) -> str:
    return (_("The agent keeps waiting until you decide.") if mode == "block" else
            _("The agent was told to carry on; it collects the decision later."))


def invited_box(invitation: Invitation, title: str, mode: str, _: Translator,
                cols: int) -> list[str]:
    """The just-widened box, once the portal has widened it."""
    count = len(invitation.names)
    said = _.ngettext('{names} has been invited to discuss: "{question}"',
                      '{names} have been invited to discuss: "{question}"', count)
    question = clip(shown_title(title), TITLE_CELLS)
    body = [said.format(names=names_and(invitation.names, _), question=question),
            agent_line(mode, _), *warning_lines(invitation.warnings, _)]
    return box(_("Widened ✓"), body, cols)


def link_lines(invitation: Invitation, _: Translator) -> list[str]:
    """Each person's link on its own line, unboxed: a terminal selects a URL whole only
    when no border character touches it."""
    if not invitation.links:
        return []
    column = max(width(name) for name, _link in invitation.links)
    return [_("Send each person their own link (only this window shows them):")] + [
        f"  {name}{' ' * (column - width(name))}  {link}" for name, link in invitation.links]


# -- waiting for the discussion --------------------------------------------------------------
def participants_lines(view: TeamView, _: Translator, cells: int) -> list[str]:
    """`Participants (✓ opened their link): Alice Johnson, Carol Lee ✓`, broken between
    names so a mark never strays from its name."""
    if not view.members:
        return [_("Participants: none (every link was withdrawn)")]
    entries = [m.name + (" ✓" if m.opened else "") for m in view.members]
    head = _("Participants (✓ opened their link):") if any(m.opened for m in view.members) \
        else _("Participants:")
    return listed(head, entries, cells, "、" if _.language == "zh" else ", ")


def waiting_box(title: str, view: TeamView, _: Translator, cols: int,
                url: str = "") -> list[str]:
    """The waiting box and, under it, the discussion's page (unboxed: a terminal selects a
    URL whole only when no border touches it; the owner's page, never a participant's)."""
    boxed = box(_("Waiting for widened discussion"), [
        _("Question:") + " " + shown_title(title), *participants_lines(view, _, box_inner(cols)),
        agent_line(view.mode, _)], cols, grow=True)
    return [*boxed, *([_("Discussion:") + " " + url] if url else [])]


def discussion_lines(view: TeamView, _: Translator, cols: int,
                     latest: int = LATEST_MESSAGES, *, whole: bool = False) -> list[str]:
    """A heading and the newest `latest` messages (`[Name] text`): one line each, clipped
    to `cols`, or with `whole` wrapped to as many lines as they take."""
    count = max(view.message_count, len(view.messages))
    if not count:
        return [_("No messages yet.")]
    if count > min(latest, len(view.messages)):
        heading = _("Discussion ({n} messages, the latest {latest}):").format(
            n=count, latest=min(latest, len(view.messages)))
    else:
        heading = _.ngettext("Discussion ({n} message):", "Discussion ({n} messages):",
                             count).format(n=count)
    said = [f"[{m.author}] {m.text}" for m in view.messages[-latest:]]
    if whole:
        return [heading] + [("  " if i == 0 else "    ") + piece for line in said
                            for i, piece in enumerate(wrap(line, max(10, cols - 4)))]
    return [heading] + [clip("  " + line, cols) for line in said]


def votes_text(voters: Sequence[str], _: Translator) -> str:
    """`2 votes: Alice, Carol`, or nothing when nobody backs the option."""
    if not voters:
        return ""
    return labelled(_.ngettext("{n} vote", "{n} votes", len(voters)).format(n=len(voters))
                    + ("：" if _.language == "zh" else ":"), joined(voters, _))


def reminder_lines(view: TeamView, interaction_id: str, _: Translator, *,
                   plain: bool = False) -> list[str]:
    """The reminder, for `interaction.reminder`: nothing has happened for a while. Only what
    the owner can do: the links cannot be shown again (the portal keeps their hashes), so
    it says who has not opened theirs, and where the discussion is."""
    unopened = [m.name for m in view.members if not m.opened]
    lines = [_("Still waiting on widened discussion.")]
    if unopened:
        lines.append(_.ngettext("Not opened their link yet: {names}.",
                                "Not opened their links yet: {names}.",
                                len(unopened)).format(names=joined(unopened, _)))
    ways = _("Check the discussion (choice open {id}), type an answer, or type d to defer.") \
        if plain else _("Check the discussion (choice open {id}), answer here, or press d to "
                        "defer.")
    return [*lines, ways.format(id=interaction_id)]


def waiting_reminder(event: LiveEvent, _: Translator) -> str:
    """The line for a reminder of a waiting question: this one's last minute, or another
    question nobody has opened (or in its last minute), with the command that opens it."""
    seconds = event.seconds_left or 0
    if event.other is None:
        return _.ngettext("{n} second left to answer.", "{n} seconds left to answer.",
                          seconds).format(n=seconds)
    interaction_id, title = event.other
    if event.change == "deadline":
        line = _.ngettext("{n} second left on another question: {title}",
                          "{n} seconds left on another question: {title}", seconds)
    else:
        line = _("Another question still waits: {title}")
    return line.format(n=seconds, title=shown_title(safe_text(title, keep_newlines=False))) + " " + \
        _("(choice answer {id})").format(id=interaction_id)


# -- the end-of-run pending pass (`choice list --status widened`) ------------------------------
def _utc(epoch: float | None) -> str:
    if epoch is None:
        return "?"
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d %H:%M UTC")


def pending_pass(entries: Sequence[tuple[str, str, TeamView]], _: Translator,
                 cols: int) -> list[str]:
    """Each widened question still open (id, safe title, its team view), numbered, under
    a box that says how to answer them; every line fits `cols`."""
    count = len(entries)
    said = _.ngettext("{n} widened question is still pending. Answer it with `choice answer "
                      "<id>` (or in the browser) before you finish.",
                      "{n} widened questions are still pending. Answer them with `choice "
                      "answer <id>` (or in the browser) before you finish.", count)
    lines = box(_("Pending widened questions"), [said.format(n=count)], cols)
    for number, (interaction_id, title, view) in enumerate(entries, start=1):
        head = f"({number}/{count}) "
        indent = " " * len(head)
        shown = max(view.message_count, len(view.messages))
        messages = _.ngettext("{n} message", "{n} messages", shown).format(n=shown)
        rows = [_("Question:") + " " + shown_title(title),
                _("Widened at:") + " " + _utc(view.widened_at),
                *participants_lines(view, _, max(20, cols - len(head))),
                _("Discussion:") + f" {messages}", agent_line(view.mode, _),
                _("Deadline:") + " " + _utc(view.expires_at),
                _("Answer:") + f" choice answer {interaction_id}"]
        lines.append("")
        for index, row in enumerate(rows):
            for piece_index, piece in enumerate(wrap(row, max(20, cols - len(head)))):
                first = index == 0 and piece_index == 0
                lines.append((head if first else indent) + piece)
    return lines
