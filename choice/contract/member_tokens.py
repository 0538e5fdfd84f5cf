"""Team mode's personal agent tokens as the API shows them: what making one takes (a name)
and the rule that name keeps, for `POST /api/tokens` and the settings page alike.

Shapes and rules only: the secret, its hash and who may use a token are
`web/security/member_tokens.py`'s; the rows are `store/member_tokens.py`'s.
"""

from __future__ import annotations

import unicodedata

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from choice.contract.vocabulary import Strict

TOKEN_NAME_MAX = 100
TOKENS_PER_MEMBER = 50
"""Live tokens one member may hold: one per agent or machine is the use, not hundreds."""


class NewMemberToken(Strict):
    """`POST /api/tokens`: a token for an agent, named so its owner can tell it apart."""

    name: str = Field(min_length=1, max_length=TOKEN_NAME_MAX,
                      description="What the token is for, e.g. `laptop claude code`: shown "
                                  "in the member's list, never to anyone else.")

    @field_validator("name")
    @classmethod
    def _plain_name(cls, name: str) -> str:
        name = name.strip()
        if not name:
            raise PydanticCustomError("blank", "the name is only whitespace: say what the "
                                               "token is for, e.g. 'laptop claude code'.")
        if any(unicodedata.category(char).startswith("C") for char in name):
            raise PydanticCustomError(
                "invalid_characters", "the name holds a control or invisible formatting "
                "character (a line break, a bidi override): type it plainly.")
        return name
