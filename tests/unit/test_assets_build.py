"""The bundles are assembled when first asked for, yet a module the manifest names and the
package lacks still stops the start, with the file named."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from choice.core.resources import RESOURCES, MissingResource
from choice.web.views.assets import Assets, assemble, read_manifest


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


def test_a_module_is_minified_with_its_strings_kept_whole(tmp_path: Path) -> None:
    script = ('// a note on its own line\n(function () {\n  var url = "http://x/*y*/";\n'
              '  var css = "a  {  color : red }";  // dropped\n  var re = /\\/\\/ x/g;\n'
              '  run(url, css, re);\n})();')
    sheet = "/* why */\n.a  >  .b {\n  content: \"  x ;  y  \";\n}"
    (tmp_path / "m.js").write_text(script + "\n")
    (tmp_path / "m.css").write_text(sheet + "\n")
    js = assemble("js", ["m.js"], tmp_path).content.decode()
    css = assemble("css", ["m.css"], tmp_path).content.decode()
    for kept in ('"http://x/*y*/"', '"a  {  color : red }"', "/\\/\\/ x/g"):
        assert kept in js
    assert "a note" not in js and "dropped" not in js and len(js) < len(script)
    assert '"  x ;  y  "' in css and "why" not in css and ".a>.b{" in css


def test_the_bundle_is_sent_compressed_as_it_is(tmp_path: Path) -> None:
    bundled = Assets.build().js
    assert gzip.decompress(bundled.gzipped) == bundled.content
