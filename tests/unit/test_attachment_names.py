"""A file's name as the portal stores and serves it (`choice/contract/attachments.py`,
`safe_file_name`): it ends with an extension of its declared type, and nothing in it
reorders or hides how it reads."""

from __future__ import annotations

import pytest

from choice.contract.attachments import ALLOWED_TYPES, EXTENSIONS, NAME_MAX, safe_file_name


@pytest.mark.parametrize(("name", "mime_type", "safe"), [
    ("report.html", "text/plain", "report.html.txt"),
    ("invoice.pdf.exe", "application/pdf", "invoice.pdf.exe.pdf"),
    ("invoice.pdf.exe", "application/zip", "invoice.pdf.exe.zip"),
    ("setup.exe", "image/png", "setup.exe.png"),
    ("README", "text/markdown", "README.md"),
    ("notes.md", "text/markdown", "notes.md"),
    ("photo.JPEG", "image/jpeg", "photo.JPEG"),
    ("build.log", "text/plain", "build.log"),
    ("logs.tar.gz", "application/gzip", "logs.tar.gz"),
    ("invoice\u202egpj.exe", "image/jpeg", "invoicegpj.exe.jpg"),
    ("a\u2066b\u2069c\u200e\u200f\u061c\u202a\u202b\u202c\u202d.txt", "text/plain", "abc.txt"),
    ("line\nbreak\r\x00\x1b[31m.txt", "text/plain", "linebreak[31m.txt"),
    ("evil.exe. . ", "text/plain", "evil.exe.txt"),
    ("notes.txt.", "text/plain", "notes.txt"),
    ("\u202e", "application/json", "file.json"),
])
def test_a_name_ends_with_its_types_extension_and_loses_controls(
        name: str, mime_type: str, safe: str) -> None:
    assert safe_file_name(name, mime_type) == safe


def test_a_long_name_keeps_within_the_limit_and_still_ends_with_its_type() -> None:
    safe = safe_file_name("x" * NAME_MAX + ".exe", "application/x-ndjson")
    assert len(safe) == NAME_MAX and safe.endswith("x.ndjson")


@pytest.mark.parametrize("name", ["report.html", "a\u202eb.exe.", "x" * 300, "ok.png", "..."])
@pytest.mark.parametrize("mime_type", sorted(ALLOWED_TYPES))
def test_a_safe_name_stays_the_same_when_made_safe_again(name: str, mime_type: str) -> None:
    once = safe_file_name(name, mime_type)
    assert safe_file_name(once, mime_type) == once
    assert once.rsplit(".", 1)[1].lower() in EXTENSIONS[mime_type]


def test_every_allowed_type_has_its_extensions() -> None:
    assert set(EXTENSIONS) == ALLOWED_TYPES
