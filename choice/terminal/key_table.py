"""Every key each screen of the terminal UI takes, as one table: the short hint the bottom
bar shows (`space pick`), how soon the bar drops it when it is narrow (`rank`: the highest
first), and the sentence the help screen (`?`, or F1 where letters type) says about it.

The hint bar (`fit`) and the help screen (`help_lines`) both read this table, so the help
can never list keys the bar does not know, nor the other way round. A key with a name
(Enter, Esc, Space, Tab) is written `{enter}` in a hint and named by `keyed` from the
catalog's one word for it, so a bar never mixes `enter` and `回车`. What a key does is
`stages/`; this module only says it. No curses, no network.
"""

from __future__ import annotations

from dataclasses import dataclass

from choice.core.i18n import N_, Translator
from choice.terminal.state import AnswerState
from choice.terminal.text import clip, width, wrap

KEY_NAMES = {"enter": N_("Enter"), "esc": N_("Esc"), "space": N_("Space"), "tab": N_("Tab")}
"""The keys with a name, as a hint writes them: `{enter} submit`."""


def keyed(_: Translator, hint: str) -> str:
    """A translated hint with its named keys in the reader's words (`{enter} save` is
    `Enter save`, `回车 保存`)."""
    return hint.format(**{key: _(name) for key, name in KEY_NAMES.items()})


@dataclass(frozen=True)
class Key:
    hint: str
    """As the bar shows it: the key and a word (`space pick`)."""
    rank: int
    """When the bar is too narrow the highest ranks go first; 0 stays."""
    help: str
    """The help screen's sentence about it."""
    bar: bool = True
    """False: only the help screen lists it (the number keys, hiding an option)."""


def typing(state: AnswerState) -> bool:
    """Letters type here (the text row, a line being written): `?` is a question mark, so
    the help opens with F1."""
    if state.editor is not None:
        return state.editor.typing
    return state.stage == "choose" and state.on_text_row


def help_key(state: AnswerState) -> Key:
    _ = state.translate
    if typing(state):
        return Key(_("F1 help"), 0, _("Show this list of keys (? types a question mark here)."))
    return Key(_("? help"), 0, _("Show this list of keys."))


def question_keys(state: AnswerState) -> list[Key]:
    """The question's own keys (`stages/choose.py`)."""
    _ = state.translate
    leave = [Key(_("^C leave"), 3, _("Leave it to the team: the question stays widened; "
                                    "come back with choice answer."))] \
        if state.team is not None else []
    submit = Key(keyed(_, _("{enter} submit")), 0, _("Send the answer (on a single choice with nothing "
                                         "picked: the option under the cursor)."))
    if state.on_text_row:  # letters type here: only keys that do not type
        move = [Key(_("↑↓ move"), 4, _("Move between the options and this line."))] \
            if state.rows > 1 else []
        notes = [Key(_("^G note to agent"), 3, _("Write a note for the agent with the "
                                                 "answer."))] if state.annotations else []
        widen = [Key(_("^W widen"), 2, _("Ask your team to discuss it (widen)."))] \
            if state.can_widen else []
        return [*move, submit, *widen, *decide_keys(state, typing=True), *notes,
                *file_keys(state, typing=True),
                Key(_("^O settings"), 2, _("Open the settings.")),
                Key(keyed(_, _("{esc} cancel")), 1, _("Cancel the question (you may say why).")), *leave]
    options = state.question.options
    ticks = state.question.multi  # several may be picked: a key ticks or unticks
    pick = [Key(keyed(_, _("{space} pick")), 1,
                _("Tick or untick the option under the cursor.") if ticks
                else _("Pick the option under the cursor."))] if options else []
    numbers = [Key(_("1-9 pick by number"), 9,
                   _("Tick or untick the option with that number.") if ticks
                   else _("Pick the option with that number."), bar=False)] if options else []
    notes = [Key(keyed(_, _("{tab} note")), 4, _("Write a note on the option under the cursor.")),
             Key(_("g note to agent"), 5, _("Write a note for the agent with the answer."))] \
        if state.annotations else []
    widen = [Key(_("w widen"), 3, _("Ask your team to discuss it (widen)."))] \
        if state.can_widen else []
    hide = [Key(_("h hide"), 9, _("Hide the option under the cursor (remembered for the "
                                  "next questions)."), bar=False)] if options else []
    show = [Key(_("H show hidden"), 2, _("Show the hidden options again."))] \
        if state.hidden else []
    moving = _("Move between the options; up on the first one scrolls to the text above it.")
    return [Key(_("↑↓/jk move"), 6, moving), *pick, *numbers, submit,
            *widen, *decide_keys(state), *notes, *hide, *show, *file_keys(state),
            Key(_("s settings"), 4, _("Open the settings.")),  # after widen and defer
            Key(_("q cancel"), 2, _("Cancel the question (you may say why).")), *leave]


def file_keys(state: AnswerState, typing: bool = False) -> list[Key]:
    """Attach a file to the answer, and take one off once there is one (`stages/files.py`)."""
    _ = state.translate
    # on a narrow bar they give way before the notes do: the help lists them
    attach = Key(_("^A attach") if typing else _("a attach"), 6,
                 _("Attach a file to your answer: type its path (Tab completes it)."))
    remove = Key(_("^X remove file") if typing else _("A remove file"), 7,
                 _("Take one of your files off the answer."))
    return [attach, *([remove] if state.files else [])]


def detach_keys(state: AnswerState) -> list[Key]:
    """The list of files `A` opens."""
    _ = state.translate
    return [Key(keyed(_, _("↑↓ move · {enter} remove · {esc} back")), 0,
                _("Move between your files; Enter takes the one under the cursor off the "
                  "answer; Esc goes back and keeps them all."))]


def decide_keys(state: AnswerState, typing: bool = False) -> list[Key]:
    """The write-back keys the question offers now (Ctrl and the letter on the text line)."""
    _ = state.translate
    review = _("Ask the agent to summarise the discussion, then accept, edit or defer it.")
    resume = _("Take the deferred question up again.")
    defer = _("Set the question aside for later, with a reason.")
    if typing:
        return [*([Key(_("^F fetch & review"), 1, review)] if state.can_review else []),
                *([Key(_("^R take up again"), 1, resume)] if state.deferral is not None else []),
                *([Key(_("^D defer"), 2 if state.team is not None else 3, defer)]
                  if state.can_defer else [])]
    rank = 2 if state.team is not None else 3  # widened, it is one of the ways on
    return [*([Key(_("f fetch & review"), 1, review)] if state.can_review else []),
            *([Key(_("r take up again"), 1, resume)] if state.deferral is not None else []),
            *([Key(_("d defer"), rank, defer)] if state.can_defer else [])]


def editor_keys(state: AnswerState) -> list[Key]:
    """A line being written (a note, a reason, a setting, the final answer)."""
    _, editor = state.translate, state.editor
    assert editor is not None
    if not editor.typing:
        return [Key(keyed(_, _("{enter} yes · {esc} back")), 0,
                    _("Enter says yes; Esc goes back."))]
    if state.stage == "attach":
        return [Key(keyed(_, _("{enter} attach · {esc} back")), 0,
                    _("Enter attaches the file at that path (~ and relative paths work); Esc "
                      "goes back.")),
                Key(keyed(_, _("{tab} complete")), 3,
                    _("Complete the path as far as it is clear.")),
                Key(_("^U clear"), 9, _("Clear the line."), bar=False)]
    if editor.text and state.stage == "review":
        return [Key(keyed(_, _("{enter} save · ^U clear · {esc} back")), 0,
                    _("Enter keeps the line; Ctrl-U clears it; Esc goes back."))]
    keep = Key(keyed(_, _("{enter} save · {esc} back")), 0,
               _("Enter keeps the line (empty: no note); Esc goes back."))
    return [keep, Key(_("^U clear"), 9, _("Clear the line."), bar=False)]


def fit(keys: list[Key], cells: int, help_hint: Key | None = None) -> str:
    """The bar: the keys joined with ` · `, the highest-ranked left out until it fits, and
    the help key last. It never drops keys silently: when some are left out the help key
    says how many (`? help (+3)`)."""
    shown = [key for key in keys if key.bar]
    kept = list(shown)
    help_text = help_hint.hint if help_hint is not None else ""

    def line(parts: list[Key]) -> str:
        dropped = len(shown) - len(parts)
        last = f"{help_text} (+{dropped})" if dropped and help_text else help_text
        return " · ".join([*(part.hint for part in parts), *([last] if last else [])])

    while len(kept) > 1 and width(line(kept)) > cells:
        kept.remove(max(kept, key=lambda part: part.rank))
    text = line(kept)
    return text if width(text) <= cells else clip(text, cells)


def help_lines(keys: list[Key], help_hint: Key, _: Translator, cells: int) -> list[str]:
    """The help screen: every key of the screen below, its hint and its sentence."""
    rows = [*keys, help_hint]
    column = min(max(width(key.hint) for key in rows), max(8, cells // 3))
    lines = [*wrap(_("Keys on this screen (↑↓ scroll, any other key closes this help):"),
                   cells), ""]
    for key in rows:
        pad = " " * max(1, column - width(key.hint) + 2)
        room = max(10, cells - column - 4)
        first, *rest = wrap(key.help, room) or [""]
        if width(key.hint) > column:
            lines.append("  " + key.hint)
            lines += ["  " + " " * (column + 2) + piece for piece in [first, *rest]]
            continue
        lines.append(f"  {key.hint}{pad}{first}")
        lines += ["  " + " " * (column + 2) + piece for piece in rest]
    return lines
