"""Who a widened question goes to: the team list, trimmed by the names the owner types.

Pure: no input means the whole list; comma-separated names pick members,
matched case-insensitively; a name not on the list is still invited, with a warning (the
owner may know teammates the list does not); `cancel` aborts. The web dialog, the terminal
and the API all come through here, so they agree on what a line of names means.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from choice.contract import NAME_MAX, TEAM_MAX, FieldError, TeamMember
from choice.contract.field_errors import InvalidInput


@dataclass(frozen=True)
class Audience:
    members: list[TeamMember]
    warnings: list[str]


def is_cancel(line: str) -> bool:
    """The owner typed `cancel` (any case) at the audience prompt: widen nothing."""
    return line.strip().lower() == "cancel"


def split_names(line: str) -> list[str]:
    """`Alice, bob ,, Carol` -> ['Alice', 'bob', 'Carol'] (what the prompt and dialog take)."""
    return [name.strip() for name in line.split(",") if name.strip()]


def _name_error(index: int, name: str) -> FieldError | None:
    field = f"audience[{index}]"
    if len(name) > NAME_MAX:
        return FieldError(field=field, code="too_long",
                          message=f"a name is at most {NAME_MAX} characters: shorten it.")
    if any(unicodedata.category(char).startswith("C") for char in name):
        return FieldError(field=field, code="invalid_characters",
                          message="a name may not hold control or invisible format characters: "
                                  "type it plainly.")
    if "," in name:
        return FieldError(field=field, code="invalid_characters",
                          message="a name may not hold a comma: commas separate names.")
    return None


def choose_audience(team: Sequence[TeamMember], names: Sequence[str] | None) -> Audience:
    """The members to invite. `names` None or empty: the whole team. `InvalidInput` (naming
    the field and the fix) for a malformed name or when nobody is left to invite."""
    if not names:
        if not team:
            raise InvalidInput([FieldError(
                field="audience", code="empty",
                message="nobody to invite: your team list is empty. Name the teammates here, "
                        "or add them to the team list in settings (PUT /api/settings "
                        '{"team": [{"name": "Alice"}]}).')])
        return Audience(list(team), [])
    cleaned = [" ".join(name.split()) for name in names]
    errors = [e for i, name in enumerate(cleaned) if (e := _name_error(i, name))]
    if not any(cleaned):
        errors.append(FieldError(field="audience", code="empty",
                                 message="the names are all blank: give at least one name, or "
                                         "leave audience out to invite the whole team."))
    if len(cleaned) > TEAM_MAX:
        errors.append(FieldError(field="audience", code="too_many",
                                 message=f"at most {TEAM_MAX} people: trim the list."))
    if errors:
        raise InvalidInput(errors)
    by_name = {member.name.casefold(): member for member in team}
    members: list[TeamMember] = []
    unknown: list[str] = []
    seen: set[str] = set()
    for name in cleaned:
        key = name.casefold()
        if not key or key in seen:
            continue
        seen.add(key)
        member = by_name.get(key)
        if member is None:
            unknown.append(name)
            member = TeamMember(name=name)
        members.append(member)
    warnings = ([f"not on the team list, invited anyway: {', '.join(unknown)}"]
                if unknown else [])
    return Audience(members, warnings)
