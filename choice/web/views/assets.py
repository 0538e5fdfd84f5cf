"""Web assets: `manifest.toml` lists the CSS and JS modules in order, grouped by concern;
they are assembled once, when first asked for, into one hashed JS and one hashed CSS
bundle (and the lazy `files.js`), each module minified by rjsmin or rcssmin (which keep
strings, regex literals and `/*! ... */` notices), served with immutable cache headers
(`pages/bundles.py`). The inline fallback script (allowed in the CSP by its hash) keeps
the countdown alive when the bundle cannot load; forms work without any script at all.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import tomllib
from functools import cached_property
from pathlib import Path

from msgspec import Struct
from msgspec.structs import replace

from choice.core.resources import RESOURCES, MissingResource


class Bundle(Struct, frozen=True):
    kind: str
    modules: tuple[str, ...]
    content: bytes
    digest: str
    gzipped: bytes
    """Compressed once at start: bundles never change while the portal runs."""

    @property
    def url(self) -> str:
        return f"/static/bundle.{self.digest}.{self.kind}"


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError as error:
        raise MissingResource(f"cannot read the web asset {path} ({error.strerror}): "
                              "reinstall the package, or fix manifest.toml.") from error


def read_manifest(path: Path = RESOURCES.manifest) -> dict[str, list[str]]:
    """`{"js": [paths in order], "css": [...], "lazy": [...]}`, groups flattened in manifest
    order."""
    data = tomllib.loads(_read(path))
    return {kind: [module for group in data.get(kind, {}).values() for module in group]
            for kind in ("js", "css", "lazy")}


def minified(kind: str, source: str) -> str:
    """One JS or CSS module without its comments and needless white space (the minifiers
    are imported with the first bundle, not at start)."""
    if kind == "js":
        from rjsmin import jsmin

        return str(jsmin(source, keep_bang_comments=True))
    from rcssmin import cssmin

    return str(cssmin(source, keep_bang_comments=True))


def assemble(kind: str, modules: list[str], static: Path = RESOURCES.static) -> Bundle:
    """The modules minified, in order, each under a comment naming it, and compressed once."""
    parts = []
    for module in modules:
        source = minified(kind, _read(static / module))
        separator = ";" if kind == "js" else ""
        parts.append(f"/* {module} */\n{source}{separator}\n")
    content = "".join(parts).encode()
    return Bundle(kind, tuple(modules), content, hashlib.sha256(content).hexdigest()[:16],
                  gzip.compress(content, compresslevel=9, mtime=0))


class Assets:
    """The bundles, assembled on first use (the first page or bundle asked for: work
    that no longer delays the start), and the fallback script with its CSP hash. A module
    the manifest names but the package lacks still stops the start."""

    def __init__(self, manifest: dict[str, list[str]], fallback_script: str,
                 static: Path = RESOURCES.static) -> None:
        self.manifest, self.static = manifest, static
        self.fallback_script = fallback_script
        digest = base64.b64encode(hashlib.sha256(fallback_script.encode()).digest()).decode()
        self.fallback_hash = f"'sha256-{digest}'"
        """`'sha256-…'` for the CSP."""

    @classmethod
    def build(cls, static: Path = RESOURCES.static) -> Assets:
        manifest = read_manifest()
        for module in (module for modules in manifest.values() for module in modules):
            if not (static / module).is_file():
                raise MissingResource(f"the web asset {static / module} is missing: reinstall "
                                      "the package, or fix manifest.toml.")
        return cls(manifest, _read(static / "fallback.js"), static)

    @cached_property
    def js(self) -> Bundle:
        return assemble("js", self.manifest["js"], self.static)

    @cached_property
    def css(self) -> Bundle:
        return assemble("css", self.manifest["css"], self.static)

    @cached_property
    def files(self) -> Bundle:
        """The script a page loads only when a person attaches files (`[lazy]`)."""
        return replace(assemble("js", self.manifest["lazy"], self.static), kind="files.js")

    def content_security_policy(self) -> str:
        return ("default-src 'none'; "
                f"script-src 'self' {self.fallback_hash}; style-src 'self'; "
                "img-src 'self' data:; connect-src 'self'; form-action 'self'; "
                "base-uri 'none'; frame-ancestors 'none'")
