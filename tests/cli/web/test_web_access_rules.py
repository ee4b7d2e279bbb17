"""The access rules of ``gitbook-tui web`` (no server): loopback hosts, the key and its
cookie, key files, and the session's error output keeping the token out."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gitbook_tui.cli.web_access import Access, host_name, is_loopback, new_key, read_key_file
from gitbook_tui.cli.web_session import Redacting


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.10", False),
        ("example.com", False),
        ("localhost.example.com", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_host_headers() -> None:
    assert host_name("127.0.0.1:8000") == "127.0.0.1"
    assert host_name("[::1]:8000") == "::1"
    assert host_name("localhost") == "localhost"


def test_without_a_key_only_loopback_hosts_are_served() -> None:
    access = Access(None)
    assert not access.required
    assert access.host_allowed("127.0.0.1:8000") and access.host_allowed("localhost:8000")
    assert not access.host_allowed("rebound.example:8000")  # DNS rebinding
    assert not access.cookie_matches("anything") and not access.key_matches("")


def test_a_key_is_checked_and_its_cookie_is_not_the_key() -> None:
    key = new_key()
    access = Access(key)
    assert access.required and access.host_allowed("example.com:8000")
    assert access.key_matches(key) and not access.key_matches(key[:-1])
    assert access.cookie_value() != key
    assert access.cookie_matches(access.cookie_value())
    assert not access.cookie_matches(None) and not access.cookie_matches(key)


def test_key_files(tmp_path: Path) -> None:
    good = tmp_path / "key"
    good.write_text("  a-key-of-twenty-characters  \nignored\n")
    assert read_key_file(good) == "a-key-of-twenty-characters"
    short = tmp_path / "short"
    short.write_text("short\n")
    with pytest.raises(ValueError, match="at least 16"):
        read_key_file(short)
    with pytest.raises(ValueError, match="cannot read"):
        read_key_file(tmp_path / "missing")


def test_the_sessions_error_output_never_shows_the_token() -> None:
    out = io.StringIO()
    stream = Redacting(out, ["s3cret-token"])
    stream.write("Traceback: token='s3cret-token'\n")
    stream.flush()
    assert out.getvalue() == "Traceback: token='[token]'\n"
