"""`web/security/log_redaction.py`: what the access log may keep of a request line."""

from __future__ import annotations

import logging

import pytest

from choice.web.security.log_redaction import RedactSecrets, redact

TOKEN = "Xy3_token-value-of-43-characters-AAAAAAAAAA"


@pytest.mark.parametrize(("line", "kept"), [
    (f'"GET /login?token={TOKEN}&next=/choice/abc HTTP/1.1" 303',
     '"GET /login?token=<secret>&next=/choice/abc HTTP/1.1" 303'),
    (f"/login?next=/&code={TOKEN}", "/login?next=/&code=<secret>"),
    (f"/login?%74oken={TOKEN}", "/login?%74oken=<secret>"),
    (f"/login?TOKEN={TOKEN}", "/login?TOKEN=<secret>"),
    (f"/login?co%64e={TOKEN}#x", "/login?co%64e=<secret>#x"),
    (f"/api/d/{TOKEN}/vote?token={TOKEN}", "/api/d/<link>/vote?token=<secret>"),
    ("/login?token=", "/login?token=<secret>"),
    ("/x?access_token=kept&tokens=kept&next=/a", "/x?access_token=kept&tokens=kept&next=/a"),
])
def test_sign_in_secrets_and_links_are_replaced(line: str, kept: str) -> None:
    assert redact(line) == kept


def test_uvicorn_access_records_keep_their_shape() -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", f"/login?token={TOKEN}", "1.1", 303), None)
    assert RedactSecrets().filter(record)
    assert TOKEN not in record.getMessage()
    assert record.getMessage() == '127.0.0.1:5 - "GET /login?token=<secret> HTTP/1.1" 303'
