"""The bundle drops whole-line comments and indentation, and nothing else."""

from __future__ import annotations

from choice.web.views.assets import compact


def test_whole_line_comments_and_indentation_go_and_code_stays() -> None:
    source = ('/* a module\n   over two lines */\n(function () {\n  // a note\n'
              '  var url = "http://x/*y*/";  // kept: it shares a line with code\n'
              '  /* short */ run();\n})();\n')
    assert compact(source) == ('(function () {\nvar url = "http://x/*y*/";  '
                               '// kept: it shares a line with code\n/* short */ run();\n})();\n')
