"""`Templates`: the pages' Jinja environment, made at the first render, and Litestar's
template engine.

Importing Jinja and making the environment slowed every start, for pages that
may be asked for minutes later (or never, by a portal that only answers agents). So the
app, the list cache and the discussion feeds hold this object; the environment
(`templating.make_environment`, Jinja with it) is made when a template is first asked
for. It implements Litestar's `TemplateEngineProtocol`: a handler's `Template` response
renders through it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from litestar.exceptions import TemplateNotFoundException

if TYPE_CHECKING:
    from jinja2 import Environment, Template


class Templates:
    def __init__(self, compiled: Path | None = None) -> None:
        self.compiled = compiled
        """Where compiled templates are kept between starts (`template_cache.py`)."""

    @cached_property
    def env(self) -> Environment:
        from choice.web.views.templating import make_environment

        return make_environment(self.compiled)

    def get_template(self, template_name: str) -> Template:
        from jinja2 import TemplateNotFound

        try:
            return self.env.get_template(template_name)
        except TemplateNotFound as missing:
            raise TemplateNotFoundException(template_name=template_name) from missing

    def render_string(self, template_string: str, context: Mapping[str, Any]) -> str:
        return self.env.from_string(template_string).render(context)

    def register_template_callable(self, key: str,
                                   template_callable: Callable[..., Any]) -> None:
        """A global the templates can call with their context first (Litestar's way)."""
        from jinja2 import pass_context

        self.env.globals[key] = pass_context(template_callable)
