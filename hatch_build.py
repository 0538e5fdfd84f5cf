"""Wheel build hook: the top-level resources ship inside the package as `choice/_resources/`.

`templates/`, `static/`, `locales/` and `manifest.toml` stay at the repository's top level
(the design card's layout); an installed portal finds them in the package instead
(`choice/core/resources.py` knows both places). Only the regular wheel gets the copies: an
editable install reads the checkout's own files, so nothing stale is left in site-packages.
"""

from __future__ import annotations

from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

RESOURCES = ("templates", "static", "locales", "manifest.toml")


class PackageResources(BuildHookInterface):  # type: ignore[misc]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name == "wheel" and version == "standard":
            for name in RESOURCES:
                build_data["force_include"][name] = f"choice/_resources/{name}"
