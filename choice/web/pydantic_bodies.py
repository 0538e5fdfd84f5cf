"""Pydantic models as request bodies and replies, without Litestar's pydantic plugins.

Litestar adds its own (`litestar.plugins.pydantic`) and its attrs plugin to every app when
those packages are installed. Importing them cost ~25 ms of each start and ~6 MB that
stayed (they load `pydantic.v1` as well). The portal needs three things from them, and
`PortalLitestar` takes these instead:

- `PydanticBodies`: a `data: SomeModel` parameter is validated with `model_validate` (after
  `web/api/body.py` has applied our own rules), and a model returned by a handler is sent
  as `model_dump(mode="json")`, as Litestar's plugin does.
- `PydanticSchemas`: the OpenAPI schema of those models. It is only asked for when the
  document is built (`/schema`), so Litestar's schema plugin is imported then.
- no dependency injection of pydantic types: the portal's dependencies are constants
  (`web/app.py`).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from litestar import Litestar
from litestar._signature.types import ExtendedMsgSpecValidationError
from litestar.plugins import InitPlugin, OpenAPISchemaPlugin
from litestar.plugins.core import MsgspecDIPlugin
from pydantic import BaseModel, ValidationError

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator
    from litestar.config.app import AppConfig
    from litestar.openapi.spec import Schema
    from litestar.plugins import PluginProtocol
    from litestar.typing import FieldDefinition


def is_model_class(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def decode_model(model: type[BaseModel], value: Any) -> BaseModel:
    try:
        return model.model_validate(value)
    except ValidationError as error:  # Litestar words it as a 400 with the errors listed
        errors: list[dict[str, Any]] = [dict(detail) for detail in error.errors(include_input=False)]
        raise ExtendedMsgSpecValidationError(errors=errors) from error


def encode_model(model: BaseModel) -> Any:
    return model.model_dump(mode="json")


class PydanticBodies(InitPlugin):
    def on_app_init(self, app_config: AppConfig) -> AppConfig:
        app_config.type_encoders = {BaseModel: encode_model, **(app_config.type_encoders or {})}
        app_config.type_decoders = [(is_model_class, decode_model), *(app_config.type_decoders or [])]
        return app_config


@cache
def _litestar_schemas() -> OpenAPISchemaPlugin:
    from litestar.plugins.pydantic import PydanticSchemaPlugin

    return PydanticSchemaPlugin()


class PydanticSchemas(OpenAPISchemaPlugin):
    """Litestar's pydantic schema plugin, imported when the OpenAPI document is first built."""

    @staticmethod
    def is_plugin_supported_type(value: Any) -> bool:
        return _litestar_schemas().is_plugin_supported_type(value)

    @staticmethod
    def is_undefined_sentinel(value: Any) -> bool:
        return _litestar_schemas().is_undefined_sentinel(value)

    @staticmethod
    def is_constrained_field(field_definition: FieldDefinition) -> bool:
        return _litestar_schemas().is_constrained_field(field_definition)

    def to_openapi_schema(self, field_definition: FieldDefinition,
                          schema_creator: SchemaCreator) -> Schema:
        return _litestar_schemas().to_openapi_schema(field_definition, schema_creator)


class PortalLitestar(Litestar):
    """Litestar without the default plugins it finds installed (pydantic, attrs): the
    portal passes `PydanticBodies` and `PydanticSchemas` itself; Litestar's msgspec
    dependency injection stays."""

    @staticmethod
    def _get_default_plugins(plugins: list[PluginProtocol]) -> list[PluginProtocol]:
        return [*plugins, MsgspecDIPlugin()]
