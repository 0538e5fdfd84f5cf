"""`web/security/origins.py`: an `Origin` header is read only as a browser writes one."""

from __future__ import annotations

import pytest

from choice.web.security.origins import Origin, parse_origin


@pytest.mark.parametrize(("header", "origin"), [
    ("http://127.0.0.1:8765", Origin("http", "127.0.0.1", 8765)),
    ("http://localhost", Origin("http", "localhost", 80)),
    ("https://choice.example", Origin("https", "choice.example", 443)),
    ("https://choice.example:443", Origin("https", "choice.example", 443)),
    ("http://[::1]:8765", Origin("http", "::1", 8765)),
    ("https://xn--bcher-kva.example:65535", Origin("https", "xn--bcher-kva.example", 65535)),
])
def test_an_origin_as_a_browser_writes_it_is_read(header: str, origin: Origin) -> None:
    assert parse_origin(header) == origin


@pytest.mark.parametrize("header", [
    "http://127.0.0.1:8765/", "http://127.0.0.1:8765/path", "http://127.0.0.1:8765?q",
    "http://127.0.0.1:8765#f", "http://127.0.0.1:08765", "http://127.0.0.1:+8765",
    "http://127.0.0.1:0", "http://127.0.0.1:65536", "http://127.0.0.1:", "ftp://127.0.0.1:8765",
    "ws://127.0.0.1:8765", "file://127.0.0.1", "HTTP://127.0.0.1:8765", "http://LOCALHOST:8765",
    "http://user@127.0.0.1:8765", "http://user:pw@127.0.0.1:8765", "http://localhost.:8765",
    "http://-evil.example", "http://127.0.0.1:8765:8765", "http:/127.0.0.1:8765",
    " http://127.0.0.1:8765", "http://127.0.0.1:8765 ", "http://127.0.0.1 :8765", "http://",
    "http://[::1", "http://::1:8765", "null", "", "http://127.0.0.1:8765\\",
])
def test_anything_else_is_no_origin(header: str) -> None:
    assert parse_origin(header) is None
