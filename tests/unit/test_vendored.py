"""The vendored htmx is the release `manifest.toml` names: the committed file matches its
sha256 (what `scripts/vendor-htmx` checks), its licence sits beside it, and the JS bundle
carries it as it is, before the modules that use it."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tomllib
from pathlib import Path

from choice.web.views.assets import assemble, read_manifest

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = tomllib.loads((ROOT / "manifest.toml").read_text("utf-8"))


def test_the_committed_htmx_matches_the_manifest_and_carries_its_licence() -> None:
    entry = MANIFEST["vendor"]["htmx"]
    path = ROOT / "static" / entry["file"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"]
    assert f'version:"{entry["version"]}"' in path.read_text("utf-8")
    assert "Zero-Clause BSD" in (ROOT / "static" / entry["licence"]).read_text("utf-8")


def test_the_check_script_fails_on_a_changed_file(tmp_path: Path) -> None:
    script = (ROOT / "scripts" / "vendor-htmx").read_text("utf-8")
    fine = subprocess.run([sys.executable, str(ROOT / "scripts" / "vendor-htmx")],
                          capture_output=True, text=True)
    assert fine.returncode == 0, fine.stderr
    copy = tmp_path / "repo"
    (copy / "static" / "vendor").mkdir(parents=True)
    (copy / "scripts").mkdir()
    (copy / "scripts" / "vendor-htmx").write_text(script, "utf-8")
    (copy / "manifest.toml").write_text((ROOT / "manifest.toml").read_text("utf-8"), "utf-8")
    entry = MANIFEST["vendor"]["htmx"]
    original = (ROOT / "static" / entry["file"]).read_text("utf-8")
    (copy / "static" / entry["file"]).write_text(original.replace("htmx", "htmX", 1), "utf-8")
    changed = subprocess.run([sys.executable, str(copy / "scripts" / "vendor-htmx")],
                             capture_output=True, text=True)
    assert changed.returncode == 1
    assert "restore the file" in changed.stderr


def test_the_bundle_carries_htmx_as_it_is_before_the_modules_that_use_it() -> None:
    modules = read_manifest()["js"]
    entry = MANIFEST["vendor"]["htmx"]
    assert modules.index(entry["file"]) < modules.index("js/swaps.js")
    bundle = assemble("js", modules).content.decode()
    assert (ROOT / "static" / entry["file"]).read_text("utf-8").strip() in bundle
