"""`Model`: the base of the portal's pydantic models, validators built on first use.

A model's validator and serializer are built when it is first used rather than when its
class is made: otherwise every start paid for models a run may never use (the OpenAPI
replies, the team's and the decision's, the compatible request shapes). A model used
as another's field is built inside that one, as before.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    model_config = ConfigDict(defer_build=True)
