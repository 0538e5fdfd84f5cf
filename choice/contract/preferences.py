"""What a user saves once and every interaction starts from: the preferences, and the team
list the owner widens questions to.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Protocol

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from choice.contract.vocabulary import (
    DEFAULT_TIMEOUT,
    LABEL_MAX,
    NAME_MAX,
    SOUND_VOLUME_MAX,
    TEAM_MAX,
    TIMEOUT_MAX,
    TIMEOUT_MIN,
    ElicitationSetting,
    Language,
    NoteFocus,
    NotifyWhen,
    PortalInterface,
    Strict,
)

HIDDEN_OPTIONS_MAX = 100
"""How many hidden option labels are remembered (the terminal keeps the newest)."""
HiddenLabel = Annotated[str, Field(min_length=1, max_length=LABEL_MAX)]


def _notify_when(value: object) -> object:
    """Before the trigger setting, `notifications` was on/off: on means the default trigger."""
    if isinstance(value, bool):
        return "unfocused" if value else "never"
    return value


class TeamMember(Strict):
    """One teammate the owner may widen a question to (settings' team list)."""

    name: str = Field(min_length=1, max_length=NAME_MAX,
                      description="Shown to everyone in the discussion; unique in the list.")
    handle: str | None = Field(default=None, max_length=NAME_MAX,
                               description="Chat handle, e.g. @alice, put in webhook messages.")
    email: str | None = Field(default=None, max_length=254)

    @field_validator("name")
    @classmethod
    def _plain_name(cls, name: str) -> str:
        name = " ".join(name.split())
        if not name:
            raise PydanticCustomError("blank", "the name is only whitespace: write the "
                                               "person's name.")
        if "," in name:
            raise PydanticCustomError(
                "invalid_characters", "{name} has a comma, and commas separate names when the "
                "owner trims the audience: write it without one (e.g. 'Jane Smith').",
                {"name": repr(name)})
        if not name.isprintable():
            raise PydanticCustomError("invalid_characters", "{name} holds a control "
                                      "character: type the name plainly.", {"name": repr(name)})
        return name


def _unique_names(team: list[TeamMember] | None) -> list[TeamMember] | None:
    seen: dict[str, int] = {}
    for index, member in enumerate(team or []):
        first = seen.setdefault(member.name.casefold(), index)
        if first != index:
            raise PydanticCustomError(
                "duplicate", "{name} is in the team list twice (team[{first}] and "
                "team[{index}]): names are matched case-insensitively, so give each person a "
                "distinct name.", {"name": repr(member.name), "first": first, "index": index})
    return team


class Preferences(Strict):
    """What a user saves once and every interaction starts from."""

    interface: PortalInterface = "web"
    elicitation: ElicitationSetting = Field(
        default="off", description="Whether `interface: auto` asks inside an MCP client that "
                                   "supports elicitation: off, form (the client's own form) "
                                   "or url (the client opens the portal's page).")
    timeout_seconds: int = Field(default=DEFAULT_TIMEOUT, ge=TIMEOUT_MIN, le=TIMEOUT_MAX)
    language: Language | None = None
    allow_annotations: bool = True
    show_placeholder: bool = True
    single_submit: bool = False
    notifications: NotifyWhen = Field(
        default="unfocused", description="When the page notifies (and chimes): always, "
                                         "unfocused (the window is not focused), hidden (the "
                                         "tab is hidden) or never. true/false mean unfocused/never.")
    sound: bool = True
    sound_volume: int = Field(default=50, ge=0, le=SOUND_VOLUME_MAX)
    terminal_hints: bool = True
    note_focus: NoteFocus = Field(
        default="tab", description="The terminal's annotation focus: tab (a note "
                                   "opens with Tab only) or pick (picking an option opens its "
                                   "note; Enter or Esc gives the focus back to the options).")
    hidden_options: list[HiddenLabel] = Field(
        default_factory=list, max_length=HIDDEN_OPTIONS_MAX,
        description="Option visibility: labels of options the person hid; an "
                    "option with one of these labels starts hidden (never one that is picked).")
    team: list[TeamMember] = Field(default_factory=list, max_length=TEAM_MAX)
    _team_names = field_validator("team")(_unique_names)
    _notify_when = field_validator("notifications", mode="before")(_notify_when)


class PreferencesPatch(Strict):
    """`PUT /api/settings`: any subset of the preferences."""

    interface: PortalInterface | None = None
    elicitation: ElicitationSetting | None = None
    timeout_seconds: int | None = Field(default=None, ge=TIMEOUT_MIN, le=TIMEOUT_MAX)
    language: Language | None = None
    allow_annotations: bool | None = None
    show_placeholder: bool | None = None
    single_submit: bool | None = None
    notifications: NotifyWhen | None = None
    sound: bool | None = None
    sound_volume: int | None = Field(default=None, ge=0, le=SOUND_VOLUME_MAX)
    terminal_hints: bool | None = None
    note_focus: NoteFocus | None = None
    hidden_options: list[HiddenLabel] | None = Field(default=None, max_length=HIDDEN_OPTIONS_MAX)
    team: list[TeamMember] | None = Field(default=None, max_length=TEAM_MAX)
    _team_names = field_validator("team")(_unique_names)
    _notify_when = field_validator("notifications", mode="before")(_notify_when)


class Labelled(Protocol):
    """An option as both transports hold it: its id and the label a person sees."""

    @property
    def id(self) -> str: ...
    @property
    def label(self) -> str: ...


def hidden_option_ids(saved: Iterable[str], options: Sequence[Labelled]) -> set[str]:
    """The ids of the options whose labels the person hid before (the last-used
    option visibility pre-populates the next prompt), compared without case; never every
    option (then all are shown)."""
    labels = {str(label).casefold() for label in saved}
    hidden = {o.id for o in options if o.label.casefold() in labels}
    return set() if len(hidden) >= len(options) else hidden


def remember_hidden(saved: Iterable[str], options: Sequence[Labelled],
                    hidden: set[str]) -> list[str]:
    """`hidden_options` after a change on one question: its hidden labels, and the earlier
    ones that name none of its options (newest last, at most `HIDDEN_OPTIONS_MAX`)."""
    own = {o.label.casefold() for o in options}
    kept = [str(label) for label in saved if str(label).casefold() not in own]
    kept += [o.label for o in options if o.id in hidden]
    return kept[-HIDDEN_OPTIONS_MAX:]
