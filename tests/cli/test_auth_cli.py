"""``gitbook-tui auth login/status/logout`` against a real local server."""

from __future__ import annotations

import io
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import keyring.core
import pytest
from keyring.backends import fail, null

from gitbook_tui import cli
from gitbook_tui.api import AsyncGitBook, auth
from gitbook_tui.api.base import BaseClient
from gitbook_tui.api.config import (
    DEFAULT_API_URL,
    KEYRING_SERVICE,
    config_path,
    load_config,
    save_config,
)
from gitbook_tui.models import User
from gitbook_tui.server.runner import ServerHandle, start_in_thread

TOKEN = "tok-test"


class MemoryKeyring:
    """An in-memory keyring backend (duck-typed, so keyring's registry never sees it)."""

    priority = 1

    def __init__(self) -> None:
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        from keyring.errors import PasswordDeleteError

        if self.store.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


class ForgetfulKeyring(MemoryKeyring):
    """Accepts passwords and never gives them back (a broken backend)."""

    def get_password(self, service: str, username: str) -> str | None:
        return None


@pytest.fixture(autouse=True)
def no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    """By default no OS keyring works: the real one is never touched."""
    monkeypatch.setattr(keyring.core, "_keyring_backend", fail.Keyring())


@pytest.fixture
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> MemoryKeyring:
    backend = MemoryKeyring()
    monkeypatch.setattr(keyring.core, "_keyring_backend", backend)
    return backend


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerHandle]:
    handle = start_in_thread(tmp_path / "db.sqlite", port=0, token=TOKEN)
    yield handle
    handle.stop()


@pytest.fixture
def fast_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BaseClient, "_backoff", staticmethod(lambda attempt: 0.0))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert TOKEN not in out and TOKEN not in err, (out, err)
    return code, out, err


def stored_profiles() -> dict[str, Any]:
    profiles: dict[str, Any] = load_config().get("profiles", {})
    return profiles


# -- the whole round --------------------------------------------------------------------------
def test_login_status_logout_with_the_config_file_fallback(
    server: ServerHandle, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "auth", "login", "--token", TOKEN, "--api-url", server.url)
    assert code == 0, err
    assert "warning" in err.lower() and "keyring" in err.lower()
    assert "Local Admin" in out and server.url in out
    path = config_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stored_profiles()["default"] == {"api_url": server.url, "token": TOKEN}

    code, out, _ = run(capsys, "auth", "status")
    assert code == 0
    assert "default" in out and server.url in out
    assert "config file" in out and "Local Admin" in out
    assert "GITBOOK_TOKEN" not in out

    code, out, _ = run(capsys, "auth", "logout")
    assert code == 0 and "Logged out" in out
    assert "default" not in stored_profiles()
    assert TOKEN.encode() not in path.read_bytes()

    code, out, _ = run(capsys, "auth", "status")
    assert code == 1 and "No stored profiles" in out


def test_login_status_logout_with_a_keyring(
    server: ServerHandle, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "auth", "login", "--token", TOKEN, "--api-url", server.url)
    assert code == 0, err
    assert "warning" not in err.lower()
    assert "OS keyring" in out
    assert memory_keyring.store == {(KEYRING_SERVICE, "default"): TOKEN}
    assert stored_profiles()["default"] == {"api_url": server.url}
    assert TOKEN.encode() not in config_path().read_bytes()

    code, out, _ = run(capsys, "auth", "status")
    assert code == 0 and "OS keyring" in out and "Local Admin" in out

    code, out, _ = run(capsys, "auth", "logout")
    assert code == 0 and "OS keyring" in out
    assert memory_keyring.store == {}


def test_keyring_login_replaces_a_token_in_the_config_file(
    server: ServerHandle, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "auth", "login", "--token", TOKEN, "--api-url", server.url)[0] == 0
    assert stored_profiles()["default"]["token"] == TOKEN
    backend = MemoryKeyring()
    monkeypatch.setattr(keyring.core, "_keyring_backend", backend)
    assert run(capsys, "auth", "login", "--token", TOKEN, "--api-url", server.url)[0] == 0
    assert "token" not in stored_profiles()["default"]
    assert backend.store[(KEYRING_SERVICE, "default")] == TOKEN


# -- getting the token ------------------------------------------------------------------------
def test_login_prompts_with_getpass_on_a_tty(
    server: ServerHandle, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts: list[str] = []

    def fake_getpass(prompt: str = "") -> str:
        prompts.append(prompt)
        return TOKEN

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("getpass.getpass", fake_getpass)
    monkeypatch.setattr(sys, "stdin", Tty(""))
    code, out, _ = run(capsys, "auth", "login", "--api-url", server.url)
    assert code == 0 and "Logged in" in out
    assert len(prompts) == 1 and "token" in prompts[0].lower()
    assert stored_profiles()["default"]["token"] == TOKEN


def test_login_reads_stdin_when_it_is_not_a_tty(
    server: ServerHandle, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_prompt(prompt: str = "") -> str:
        raise AssertionError("getpass must not be used without a tty")

    monkeypatch.setattr("getpass.getpass", no_prompt)
    monkeypatch.setattr(sys, "stdin", io.StringIO(TOKEN + "\n"))
    code, _, _ = run(capsys, "auth", "login", "--api-url", server.url)
    assert code == 0
    assert stored_profiles()["default"]["token"] == TOKEN


def test_empty_token_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    code, _, err = run(capsys, "auth", "login", "--api-url", "http://127.0.0.1:9/v1")
    assert code == 1 and "no token" in err
    assert not config_path().exists()


def test_default_api_url(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[str] = []

    async def fake_fetch_user(api_url: str, token: str, **_: Any) -> User:
        seen.append(api_url)
        return User(id="u1", displayName="Someone")

    monkeypatch.setattr(auth, "fetch_user", fake_fetch_user)
    code, out, _ = run(capsys, "auth", "login", "--token", TOKEN)
    assert code == 0 and "Someone" in out
    assert seen == [DEFAULT_API_URL] == ["https://api.gitbook.com/v1"]
    assert stored_profiles()["default"]["api_url"] == DEFAULT_API_URL


# -- failures store nothing -------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["file", "keyring"])
def test_wrong_token_is_a_clear_error_and_stores_nothing(
    server: ServerHandle,
    backend: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    memory = MemoryKeyring()
    if backend == "keyring":
        monkeypatch.setattr(keyring.core, "_keyring_backend", memory)
    code, out, err = run(capsys, "auth", "login", "--token", "tok-wrong", "--api-url", server.url)
    assert code == 1
    assert "rejected the token" in err and "nothing was stored" in err
    assert "tok-wrong" not in out + err
    assert not config_path().exists()
    assert memory.store == {}


def test_unreachable_server_stores_nothing(
    fast_retries: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys, "auth", "login", "--token", TOKEN, "--api-url", "http://127.0.0.1:9/v1"
    )
    assert code == 1 and "cannot reach" in err
    assert not config_path().exists()


# -- several profiles, status details ---------------------------------------------------------
def test_several_profiles(server: ServerHandle, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "auth", "login", "--token", TOKEN, "--api-url", server.url)[0] == 0
    code, _, _ = run(
        capsys,
        "auth",
        "login",
        "--token",
        TOKEN,
        "--api-url",
        server.url + "/",
        "--profile",
        "work",
    )
    assert code == 0
    assert set(stored_profiles()) == {"default", "work"}
    assert stored_profiles()["work"]["api_url"] == server.url
    assert load_config()["default_profile"] == "default"

    code, out, _ = run(capsys, "auth", "status")
    assert code == 0
    assert "default (default)" in out and "work" in out
    assert out.count("Local Admin") == 2

    assert run(capsys, "auth", "logout", "--profile", "work")[0] == 0
    assert set(stored_profiles()) == {"default"}
    code, out, _ = run(capsys, "auth", "logout", "--profile", "work")
    assert code == 1 and "no stored token" in out


def test_status_reports_a_rejected_token(
    server: ServerHandle, capsys: pytest.CaptureFixture[str]
) -> None:
    save_config({"profiles": {"old": {"api_url": server.url, "token": "tok-revoked"}}})
    code, out, _ = run(capsys, "auth", "status")
    assert code == 1
    assert "old" in out and "Authentication failed" in out
    assert "tok-revoked" not in out


def test_status_says_gitbook_token_overrides(
    server: ServerHandle, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "auth", "login", "--token", TOKEN, "--api-url", server.url)[0] == 0
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    code, out, _ = run(capsys, "auth", "status")
    assert code == 0
    assert "GITBOOK_TOKEN is set" in out and "overrides" in out
    assert out.count("Local Admin") == 2


# -- the keyring probe and the stored profile in use ------------------------------------------
def test_keyring_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    assert auth.keyring_usable() is False  # fail backend
    monkeypatch.setattr(keyring.core, "_keyring_backend", null.Keyring())
    assert auth.keyring_usable() is False
    monkeypatch.setattr(keyring.core, "_keyring_backend", ForgetfulKeyring())
    assert auth.keyring_usable() is False
    memory = MemoryKeyring()
    monkeypatch.setattr(keyring.core, "_keyring_backend", memory)
    assert auth.keyring_usable() is True
    assert memory.store == {}  # the probe cleans up after itself


async def test_the_client_uses_the_stored_profile(
    server: ServerHandle, memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = await auth.login(TOKEN, api_url=server.url, profile="default")
    assert result.stored_in == "keyring"
    client = AsyncGitBook()
    async with client:
        assert client.base_url == server.url
        me = await client.users.me()
    assert me.displayName == "Local Admin"
    # a stored token is never sent to another server
    monkeypatch.setenv("GITBOOK_API_URL", "http://127.0.0.1:9/v1")
    other = AsyncGitBook()
    async with other:
        assert other.has_token is False


def test_config_file_becomes_owner_only(
    server: ServerHandle, capsys: pytest.CaptureFixture[str]
) -> None:
    path = config_path()
    path.parent.mkdir(parents=True)
    path.write_text('theme = "dark"\n')
    path.chmod(0o644)
    assert run(capsys, "auth", "login", "--token", TOKEN, "--api-url", server.url)[0] == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_config()["theme"] == "dark"  # other settings are kept
