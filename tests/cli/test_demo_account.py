"""The demo's account (its cache, drafts and remembered state) is the same whichever port
its server got: another program may hold the usual one."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.cli.app_start import demo_account_server
from gitbook_tui.drafts import DraftKey, DraftStore
from gitbook_tui.server.demo.identity import demo_admin_token
from gitbook_tui.tui.common.state import account_key
from support.local_http import local_http


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("DATA", "CACHE", "CONFIG", "STATE"):
        monkeypatch.setenv(f"XDG_{name}_HOME", str(tmp_path / name.lower()))
    return tmp_path


def demo_client(port: int, token: str | None = None) -> AsyncGitBook:
    return AsyncGitBook(
        token or demo_admin_token(),
        base_url=f"http://127.0.0.1:{port}/v1",
        account_server=demo_account_server(),
    )


async def test_a_draft_written_on_one_port_is_found_on_another(folders: Path) -> None:
    first, moved = demo_client(47831), demo_client(50123)
    key = DraftKey("comment", space="sp_1", target="pg_1")
    DraftStore(account_key(first), folders / "drafts").save(key, "Half a thought")
    found = DraftStore(account_key(moved), folders / "drafts").load(key)
    assert found is not None and found.text == "Half a thought"
    await first.close()
    await moved.close()


async def test_the_demo_account_is_still_per_token_and_per_database(
    folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    usual = demo_client(47831)
    other_token = demo_client(47831, token="gb_other-demo-user")
    monkeypatch.setenv("XDG_DATA_HOME", str(folders / "elsewhere"))
    other_database = demo_client(47831)
    assert len({account_key(c) for c in (usual, other_token, other_database)}) == 3
    # a server that is not the demo keeps its URL as its name
    plain = AsyncGitBook("gb_token", base_url="http://127.0.0.1:47831/v1")
    assert account_key(plain) != account_key(usual)
    for client in (usual, other_token, other_database, plain):
        await client.close()


async def test_a_web_session_and_the_terminal_share_the_demo_account(folders: Path) -> None:
    """``gitbook-tui web --demo`` hands its sessions the demo's account name (a session's own
    data folder is elsewhere): a tab and the terminal read one cache."""
    from gitbook_tui.cache import ResponseCache
    from gitbook_tui.cli.web_session import session_client

    terminal = demo_client(47831)
    cache = ResponseCache(folders / "cache.sqlite")
    session = session_client(None, "http://127.0.0.1:50123/v1", demo_account_server(), cache)
    assert account_key(session) == account_key(terminal)
    await session.close()
    await terminal.close()
    cache.close()


def test_drafts_and_queued_actions_of_the_port_named_demo_account_move_to_it(
    folders: Path,
) -> None:
    """Before, the demo's account was named by its URL: what it left unsent (drafts, the
    outbox) is moved to the account the demo has now, once, when that has none."""
    from gitbook_tui.cache import account_fingerprint
    from gitbook_tui.cli.app_start import DEMO_PORT, _adopt_port_named_demo_account
    from gitbook_tui.drafts import Outbox

    old = account_fingerprint(f"http://127.0.0.1:{DEMO_PORT}/v1", demo_admin_token())
    key = DraftKey("comment", space="sp_1", target="pg_1")
    DraftStore(old).save(key, "Written before the upgrade")
    Outbox(old).path.parent.mkdir(parents=True, exist_ok=True)
    Outbox(old).path.write_text("")
    client = demo_client(50123)
    _adopt_port_named_demo_account(client)
    found = DraftStore(account_key(client)).load(key)
    assert found is not None and found.text == "Written before the upgrade"
    assert Outbox(account_key(client)).path.exists()
    assert not DraftStore(old).dir.exists()
    # an account that has drafts of its own is left as it is
    DraftStore(old).save(key, "An older copy")
    _adopt_port_named_demo_account(client)
    kept = DraftStore(account_key(client)).load(key)
    assert kept is not None and kept.text == "Written before the upgrade"
    assert DraftStore(old).load(key) is not None


async def test_the_demo_client_talks_plain_http_and_trusts_no_certificate() -> None:
    """The demo's connection loads no certificate store (its server is plain HTTP on this
    machine): a request gets through; TLS, were it tried, would verify against nothing."""
    import http.server
    import ssl

    from gitbook_tui.cli.app_start import demo_transport

    class Hello(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args: object) -> None:
            pass

    with local_http(Hello) as base:
        transport = demo_transport()
        client = AsyncGitBook(demo_admin_token(), base_url=f"{base}/v1", transport=transport)
        try:
            assert await client.get("/hello", dict) == {}
        finally:
            await client.close()
    context = transport._pool._ssl_context
    assert context is not None
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.get_ca_certs() == []
