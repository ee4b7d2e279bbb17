"""``gitbook-tui web`` with a real token and an access key: no key, no page and no process;
the key's URL sets a strict cookie; the token never reaches the browser; past
``--max-sessions`` a busy page. One web server (over a demo server standing in for GitBook,
signed in with a token as a user would be) and one browser for the module."""

from __future__ import annotations

import http.client
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.server.background import BackgroundStart
from gitbook_tui.server.demo.identity import demo_admin_token
from support.waits import until_sync
from support.web_browser import SRC, WebProcess, open_app, press, wait_text
from support.worlds import Template, copy_file

# real processes (a web server and the API server it signs in to, from the demo's database):
# seconds to start, so not part of the inner loop
pytestmark = pytest.mark.slow

KEY = "k3y-for-the-tests-0123456789abcdef"


@pytest.fixture(scope="module")
def token() -> str:
    return demo_admin_token()


@pytest.fixture(scope="module")
def web(
    tmp_path_factory: pytest.TempPathFactory, demo_template: Template, token: str
) -> Iterator[WebProcess]:
    home = tmp_path_factory.mktemp("web-access")
    copy_file(demo_template, home / "workspace.sqlite")
    api = BackgroundStart(home / "workspace.sqlite", demo=True)  # GitBook, as far as we know
    (home / "key").write_text(KEY + "\n")
    process = WebProcess(
        home,
        *("--access-key-file", str(home / "key"), "--max-sessions", "1"),
        env={"GITBOOK_TOKEN": token, "GITBOOK_API_URL": api.url},
    )
    try:
        until_sync(api.poll, "the stand-in API server", timeout=60)  # a Python start, under load
        process.wait_serving()
        yield process
    finally:
        process.stop()
        api.stop()


def _get(url: str, path: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_a_non_loopback_bind_without_a_key_refuses_to_start(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gitbook_tui.cli", "web", "--host", "0.0.0.0", "--demo"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(SRC), "XDG_DATA_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert done.returncode == 2
    assert "without an access key" in done.stderr
    assert "serving" not in done.stdout


def test_a_request_without_the_key_gets_401_and_spawns_nothing(web: WebProcess) -> None:
    upgrade = {
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    }
    # a tab an earlier test of this module closed may still be ending (in random order):
    # "nothing spawned" is counted from no session at all
    until_sync(lambda: web.sessions() == [], "no session of an earlier test", timeout=30)
    for path, headers in (
        ("/", {}),
        ("/?key=not-the-key", {}),
        ("/static/js/textual.js", {}),
        ("/ws?width=80&height=24", upgrade),
        ("/ws", {**upgrade, "Cookie": "gitbook_tui_access=forged"}),
    ):
        assert _get(web.url, path, headers).status == 401, path
    assert web.sessions() == []


def test_the_key_url_sets_a_strict_cookie_and_leads_to_the_app(web: WebProcess) -> None:
    response = _get(web.url, f"/?key={KEY}")
    assert response.status == 303
    assert response.headers["Location"] == "/"
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert KEY not in cookie  # a value derived from the key
    jar = cookie.split(";", 1)[0]
    # one session at most, and a tab an earlier test of this module closed frees its slot
    # within seconds: until then the page is the "busy" one (503)
    until_sync(
        lambda: _get(web.url, "/", {"Cookie": jar}).status != 503,
        "the module's one session slot free",
        timeout=30,
    )
    assert _get(web.url, "/", {"Cookie": jar}).status == 200


def test_the_token_never_reaches_the_browser(web: WebProcess, token: str, browser: Any) -> None:
    """Over 5 s on a loaded machine: the app starts for the page (~3 s), after Chromium."""
    responses: list[Any] = []
    frames: list[str | bytes] = []

    def watch(socket: Any) -> None:
        socket.on("framereceived", lambda frame: frames.append(frame))
        socket.on("framesent", lambda frame: frames.append(frame))

    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.on("response", lambda response: responses.append(response))
        page.on("websocket", watch)
        open_app(page, f"{web.url}/?key={KEY}")  # signed in with the token: the tree
        # the organization's row is drawn before its spaces: j waits for the first of them
        wait_text(page, "Product docs")
        press(page, "j", "Enter")
        wait_text(page, "API & CLI reference")
        (session,) = web.sessions()
        assert token.encode() not in Path(f"/proc/{session}/cmdline").read_bytes()
        zygote = web.zygote()  # shared by every session: it never holds a user's token
        assert zygote is not None
        assert token.encode() not in Path(f"/proc/{zygote}/environ").read_bytes()
        # the limit is 1: another browser gets a busy page, and no process
        jar = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
        busy = _get(web.url, "/", {"Cookie": jar})
        assert busy.status == 503
        assert web.sessions() == [session]
        seen = [
            str(r.all_headers()).encode() + (r.body() if r.status == 200 else b"")
            for r in responses
        ]
    finally:
        page.close()
    assert any(b"textual.js" in r.url.encode() for r in responses)
    secret = token.encode()
    raw = [f if isinstance(f, bytes) else f.encode() for f in frames]
    assert any(b"API & CLI reference" in f for f in raw)  # the screen went this way
    assert not [r.url for r, text in zip(responses, seen, strict=True) if secret in text]
    assert not [f for f in raw if secret in f]
    assert token not in web.text()  # nor in the server's terminal
