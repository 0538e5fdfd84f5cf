"""`CHOICE_PUBLIC_URL`: read as a bare origin (what the Origin check compares with, what
every link starts with), and the agent's `url` follows it."""

from __future__ import annotations

import pytest

from choice.core.config import Settings
from choice.core.replies import interaction_url
from choice.core.variables import origin_of


@pytest.mark.parametrize(("given", "origin"), [
    ("https://choice.example", "https://choice.example"),
    ("https://Choice.Example/", "https://choice.example"),
    ("https://choice.example:443", "https://choice.example"),
    ("http://choice.example:80/", "http://choice.example"),
    ("https://choice.example:8443", "https://choice.example:8443"),
    ("https://[2001:db8::1]:8443", "https://[2001:db8::1]:8443"),
])
def test_a_public_url_becomes_the_origin_a_browser_sends(given: str, origin: str) -> None:
    assert Settings.from_env({"CHOICE_PUBLIC_URL": given}).public_url == origin
    assert origin_of(given) == origin


@pytest.mark.parametrize("given", [
    "https://choice.example/portal", "https://choice.example/?x=1", "https://u:p@choice.example",
    "https://choice.example:99999", "https://choice.example:port", "ftp://choice.example",
    "choice.example",
])
def test_anything_but_a_root_url_stops_the_start_with_the_fix(given: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        Settings.from_env({"CHOICE_PUBLIC_URL": given})
    assert "e.g. https://choice.example" in str(stopped.value)


@pytest.mark.parametrize("origin", [
    "https://choice.example/x", "https://choice.example?x", "https://a@choice.example",
    "https://choice.example:1x", "null", "", "javascript:alert(1)",
])
def test_what_is_not_a_bare_origin_has_none(origin: str) -> None:
    assert origin_of(origin) is None


def test_the_agents_url_uses_the_public_url_when_set() -> None:
    assert interaction_url(Settings.from_env({}), "abc") == "http://127.0.0.1:8765/choice/abc"
    public = Settings.from_env({"CHOICE_PUBLIC_URL": "https://choice.example"})
    assert interaction_url(public, "abc") == "https://choice.example/choice/abc"
    assert "choice.example" in public.allowed_hosts
