"""choice/core/resources.py: the portal's files are found in a checkout, and a missing one is an
error that names its path (never a silent fallback)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from choice.core.resources import RESOURCES, MissingResource, Resources


def test_a_checkout_finds_its_top_level_folders() -> None:
    assert RESOURCES.manifest.is_file()
    assert (RESOURCES.templates / "base.html").is_file()
    assert RESOURCES.catalog("zh").is_file()
    RESOURCES.check(("en", "zh"))


@pytest.fixture
def copy(tmp_path: Path) -> Resources:
    for name in ("templates", "static", "locales"):
        shutil.copytree(RESOURCES.root / name, tmp_path / name)
    shutil.copy(RESOURCES.manifest, tmp_path / "manifest.toml")
    return Resources(tmp_path)


@pytest.mark.parametrize("missing", ["templates", "static", "manifest.toml",
                                     "locales/zh/LC_MESSAGES/messages.po",
                                     "locales/en/LC_MESSAGES/messages.po"])
def test_each_missing_resource_is_named(copy: Resources, missing: str) -> None:
    copy.check(("en", "zh"))
    target = copy.root / missing
    shutil.rmtree(target) if target.is_dir() else target.unlink()
    with pytest.raises(MissingResource, match=str(target)):
        copy.check(("en", "zh"))
