"""The bundles are assembled when first asked for, yet a module the manifest names and the
package lacks still stops the start, with the file named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from choice.core.resources import RESOURCES, MissingResource
from choice.web.views.assets import Assets, read_manifest


def test_a_missing_module_stops_the_build_and_names_the_file(tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(RESOURCES.static, static)
    gone = read_manifest()["css"][-1]
    (static / gone).unlink()
    with pytest.raises(MissingResource, match=gone.replace(".", r"\.")):
        Assets.build(static)


def test_bundles_are_made_on_first_use_and_once(tmp_path: Path) -> None:
    assets = Assets.build()
    assert "js" not in vars(assets) and "css" not in vars(assets)
    first = assets.js
    assert assets.js is first and first.url.endswith(".js") and first.gzipped
    assert "js" in vars(assets) and "css" not in vars(assets)
