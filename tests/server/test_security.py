"""No way in: the server reads no local file and no internal address for an API caller (unless
its operator allows it), keeps its files private, and hands out files only to readers."""

from __future__ import annotations

import ipaddress
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse, urlunparse

import httpx
import pytest

from gitbook_tui.server.core import url_guard
from gitbook_tui.server.core.storage import Storage
from gitbook_tui.server.runner import network_warning, prepare
from support.asserts import assert_error
from support.local_http import local_http
from support.worlds import World

FIXTURE = Path(__file__).parent / "fixtures" / "gitsync-basic"
SECRET = "# Internal admin\n\nThe root password is hunter2.\n"


# -- a loopback peer standing in for an internal service ----------------------------------------


@dataclass
class Peer:
    base: str = ""
    port: int = 0
    seen: list[tuple[str, str]] = field(default_factory=list)  # (path, Host header)


@pytest.fixture
def peer() -> Iterator[Peer]:
    state = Peer()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.seen.append((self.path, self.headers.get("Host", "")))
            url = urlparse(self.path)
            if url.path == "/redirect":
                self.send_response(302)
                self.send_header("Location", parse_qs(url.query)["to"][0])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = SECRET.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/markdown")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return

    with local_http(Handler) as base:
        state.base = base
        state.port = int(base.rsplit(":", 1)[1])
        yield state


@pytest.fixture
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Names the server's resolver answers from this table (other names as usual)."""
    table: dict[str, list[str]] = {}
    real = url_guard.resolve

    def resolve(host: str, port: int) -> list[Any]:
        if host in table:
            return [ipaddress.ip_address(a) for a in table[host]]
        return real(host, port)

    monkeypatch.setattr(url_guard, "resolve", resolve)
    return table


def _space(world: World) -> dict:
    r = world.client("alice").post(f"/orgs/{world.org}/spaces", json={"title": "Team notes"})
    assert r.status_code == 201, r.text
    return r.json()


def _import(world: World, space: dict, url: str, source: str = "markdown", user: str = "eve"):
    return world.client(user).post(
        f"/spaces/{space['id']}/content/import", json={"url": url, "source": source}
    )


def _page_titles(world: World, space: dict) -> list[str]:
    pages = world.client("eve").get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    return [p["title"] for p in pages]


# -- 1. local files ------------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["markdown", "website", "file", "html", "github", "git-sync"])
def test_an_editor_cannot_import_a_local_file(world: World, source: str) -> None:
    space = _space(world)
    before = _page_titles(world, space)
    for url in ("file:///etc/passwd", "file:///etc/", "file://localhost/etc/hostname"):
        assert_error(
            _import(world, space, url, source),
            403,
            "url: file:// URLs are not allowed",
            "--allow-import-root",
        )
    assert _page_titles(world, space) == before


@pytest.mark.local_fetches  # the operator allowed the tests' folder and tmp_path
def test_file_imports_stay_inside_the_operators_import_roots(world: World, tmp_path: Path) -> None:
    space = _space(world)
    assert_error(_import(world, space, "file:///etc/passwd"), 403, "under an allowed import root")
    link = tmp_path / "innocent.md"
    link.symlink_to("/etc/passwd")  # a link inside a root still names the file outside
    assert_error(_import(world, space, link.as_uri()), 403, "under an allowed import root")
    dotted = (tmp_path / "sub").as_uri() + "/../../../../etc/passwd"
    assert_error(_import(world, space, dotted), 403, "under an allowed import root")
    inside = tmp_path / "note.md"
    inside.write_text("# Allowed note\n\nFine.\n")
    assert _import(world, space, inside.as_uri()).status_code == 201
    assert "Allowed note" in _page_titles(world, space)


# -- 2. internal addresses -----------------------------------------------------------------------


def test_an_editor_cannot_import_from_loopback_or_private_addresses(
    world: World, peer: Peer, fake_dns: dict[str, list[str]]
) -> None:
    space = _space(world)
    fake_dns["intranet.test"] = ["10.0.0.1"]
    fake_dns["mixed.test"] = ["93.184.216.34", "192.168.1.5"]
    fake_dns["meta.test"] = ["169.254.169.254"]
    refused = {
        f"{peer.base}/internal/admin.md": "refusing to fetch a loopback address 127.0.0.1",
        f"http://localhost:{peer.port}/a.md": "loopback address",
        f"http://[::ffff:127.0.0.1]:{peer.port}/a.md": "loopback address",
        f"http://2130706433:{peer.port}/a.md": "loopback address 127.0.0.1",
        f"http://0.0.0.0:{peer.port}/a.md": "unspecified address",
        "http://intranet.test/wiki.md": "url: refusing to fetch a private address 10.0.0.1",
        "http://mixed.test/a.md": "private address 192.168.1.5",
        "http://meta.test/latest/meta-data/": "cloud metadata address 169.254.169.254",
        "http://169.254.169.254/latest/meta-data/iam": "cloud metadata address",
        "http://[fd00:ec2::254]/latest/meta-data/": "cloud metadata address fd00:ec2::254",
        "http://169.254.10.1/": "link-local address",
        "http://[fe80::1]/": "link-local address",
        "http://100.64.0.1/": "non-public address",
        "http://224.0.0.1/": "multicast address",
    }
    for url, reason in refused.items():
        for source in ("markdown", "website"):
            assert_error(_import(world, space, url, source), 400, reason, "--allow-fetch-host")
    assert peer.seen == []  # nothing reached the internal service
    assert SECRET.splitlines()[0].lstrip("# ") not in _page_titles(world, space)


@pytest.mark.local_fetches  # the operator allowed 127.0.0.1
def test_an_operator_allowed_host_is_fetched(world: World, peer: Peer) -> None:
    space = _space(world)
    assert _import(world, space, f"{peer.base}/internal/admin.md").status_code == 201
    assert "Internal admin" in _page_titles(world, space)
    # only the allowed host: the same service by another name is still refused
    assert_error(
        _import(world, space, f"http://localhost:{peer.port}/a.md"), 400, "loopback address"
    )


@pytest.mark.local_fetches
def test_every_redirect_hop_is_checked(
    world: World, peer: Peer, fake_dns: dict[str, list[str]]
) -> None:
    space = _space(world)
    fake_dns["intranet.test"] = ["10.1.2.3"]

    def via(target: str) -> str:
        return f"{peer.base}/redirect?{urlencode({'to': target})}"

    cases = {
        f"http://localhost:{peer.port}/internal/admin.md": "loopback address",
        "http://169.254.169.254/latest/meta-data/": "cloud metadata address",
        "http://intranet.test/wiki.md": "private address 10.1.2.3",
        "file:///etc/passwd": "only http(s) URLs",
    }
    for target, reason in cases.items():
        assert_error(_import(world, space, via(target)), 400, reason)
    assert [path for path, _ in peer.seen if not path.startswith("/redirect")] == []
    # a redirect to an allowed place is followed
    assert _import(world, space, via(f"{peer.base}/ok.md")).status_code == 201


@pytest.mark.local_fetches
def test_the_connection_goes_to_the_address_that_was_checked(
    world: World, peer: Peer, fake_dns: dict[str, list[str]]
) -> None:
    # peer.test exists only in the server's (faked) resolver: the request can reach the
    # peer only by connecting to the checked address, sending the name as the Host.
    fake_dns["peer.test"] = ["127.0.0.1"]
    space = _space(world)
    url = f"http://peer.test:{peer.port}/doc.md"
    assert_error(_import(world, space, url), 400, "the host peer.test resolves to it")
    with url_guard.trusting(world.app.state.server, allow_hosts=[f"peer.test:{peer.port}"]):
        assert _import(world, space, url).status_code == 201
    assert peer.seen == [("/doc.md", f"peer.test:{peer.port}")]


def test_openapi_sources_and_dev_tunnels_refuse_internal_addresses(
    world: World, peer: Peer
) -> None:
    carol = world.client("carol")  # 'create' role: may manage specs, not an admin
    r = carol.post(
        f"/orgs/{world.org}/openapi",
        json={"slug": "internal", "source": {"url": f"{peer.base}/spec.json"}},
    )
    assert_error(r, 400, "source.url: refusing to fetch a loopback address")
    assert carol.get(f"/orgs/{world.org}/openapi").json()["count"] == 0
    r = carol.put(
        f"/orgs/{world.org}/openapi/internal",
        json={"source": {"url": "http://169.254.169.254/spec.json"}},
    )
    assert_error(r, 400, "source.url: refusing to fetch a cloud metadata address")

    alice = world.client("alice")
    published = alice.post(
        "/integrations/tunnelled",
        json={
            "title": "Tunnelled",
            "organization": world.org,
            "script": "export default {}",
            "scopes": [],
        },
    )
    assert published.status_code == 200, published.text
    r = alice.put("/integrations/tunnelled/dev", json={"tunnelUrl": f"{peer.base}/hook"})
    assert_error(r, 400, "tunnelUrl: refusing to fetch a loopback address")
    assert peer.seen == []


def test_change_request_files_cannot_be_fetched_from_internal_addresses(
    world: World, peer: Peer
) -> None:
    space = _space(world)
    cr = world.client("eve").post(
        f"/spaces/{space['id']}/change-requests", json={"subject": "Files"}
    )
    assert cr.status_code == 201, cr.text
    for url in (f"{peer.base}/secret.txt", "file:///etc/passwd"):
        r = world.client("eve").post(
            f"/spaces/{space['id']}/change-requests/{cr.json()['id']}/content",
            json={"changes": [{"operation": "insert_files", "files": [{"name": "x", "url": url}]}]},
        )
        assert_error(r, 400, "could not download the file")
    assert peer.seen == []


def test_host_rules_parse_and_match() -> None:
    rule = url_guard.parse_host_rule("Docs.Internal:8443")
    assert rule.matches("docs.internal", 8443) and not rule.matches("docs.internal", 443)
    assert url_guard.parse_host_rule("[::1]:80").matches("::1", 80)
    assert url_guard.parse_host_rule("127.0.0.1").matches("127.0.0.1", 1234)
    for bad in ("", "http://x", "host:port", "a:99999", "[::1"):
        with pytest.raises(ValueError):
            url_guard.parse_host_rule(bad)


# -- 7. private files ----------------------------------------------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_database_files_are_private(tmp_path: Path) -> None:
    db = tmp_path / "new-folder" / "workspace.sqlite"
    storage = Storage(db)
    with storage.transaction() as tx:
        tx.put("note", "n1", {"text": "private"})
    assert _mode(db.parent) == 0o700
    for suffix in ("", "-wal", "-shm"):
        path = Path(f"{db}{suffix}")
        assert path.exists() and _mode(path) == 0o600, (suffix, oct(_mode(path)))
    storage.close()


def test_files_left_readable_by_an_older_version_are_made_private(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    sqlite3.connect(db).close()
    os.chmod(db, 0o644)
    Storage(db).close()
    assert _mode(db) == 0o600


def test_the_data_folder_and_owner_token_are_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gitbook_tui.cli import data_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    folder = data_dir()
    assert _mode(folder) == 0o700
    folder.chmod(0o755)
    assert _mode(data_dir()) == 0o700
    _, sock, _, owner = prepare(folder / "workspace.sqlite")
    sock.close()
    assert owner.file == folder / "workspace.owner-token"
    assert _mode(owner.file) == 0o600
    assert owner.token not in repr(owner)


# -- 9. downloads --------------------------------------------------------------------------------


@pytest.mark.local_fetches  # the files come from importing the tests' Git Sync fixture
def test_downloads_of_a_private_space_need_the_token_or_a_signed_link(world: World) -> None:
    space = _space(world)
    assert space["visibility"] == "private"
    assert _import(world, space, FIXTURE.as_uri(), "github", user="alice").status_code == 201
    files = world.client("alice").get(f"/spaces/{space['id']}/content/files").json()["items"]
    link = next(f for f in files if f["name"] == "logo.gif")["downloadURL"]
    parsed = urlparse(link)
    query = parse_qs(parsed.query)
    assert set(query) == {"expires", "signature"}
    bare = urlunparse(parsed._replace(query=""))
    anonymous = world.anonymous()

    assert anonymous.get(link).status_code == 200  # the signed link works without a token
    assert_error(anonymous.get(bare), 401, "token", "downloadURL")
    assert_error(anonymous.get(bare, headers={"Authorization": "Bearer nope"}), 401)
    reader = anonymous.get(bare, headers={"Authorization": "Bearer tok-rhea"})
    assert reader.status_code == 200 and reader.content.startswith(b"GIF")
    assert_error(anonymous.get(bare, headers={"Authorization": "Bearer tok-otto"}), 404)

    tampered = link.replace(query["signature"][0], "0" * 64)
    assert_error(anonymous.get(tampered), 403, "not valid")
    later = int(query["expires"][0]) + 3600
    stretched = link.replace(f"expires={query['expires'][0]}", f"expires={later}")
    assert_error(anonymous.get(stretched), 403, "not valid")
    other_file = link.replace(parsed.path.split("/")[2], "0" * 64)
    assert_error(anonymous.get(other_file), 403, "not valid")

    world.clock.advance(timedelta(hours=1, minutes=11))
    assert_error(anonymous.get(link), 403, "expired")
    fresh = world.client("alice").get(f"/spaces/{space['id']}/content/files").json()["items"]
    renewed = next(f for f in fresh if f["name"] == "logo.gif")["downloadURL"]
    assert renewed != link and anonymous.get(renewed).status_code == 200


# -- token minting and the network warning -------------------------------------------------------


def test_serve_reuses_the_owner_token_and_rotates_it_on_request(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    _, sock, _, first = prepare(db)
    sock.close()
    assert first.minted and first.file.read_text().strip() == first.token
    _, sock, _, again = prepare(db)
    sock.close()
    assert not again.minted and again.token == first.token
    _, sock, _, rotated = prepare(db, rotate_token=True)
    sock.close()
    assert rotated.minted and rotated.token != first.token
    assert rotated.file.read_text().strip() == rotated.token
    storage = Storage(db)
    with storage.read() as tx:
        from gitbook_tui.server.core.context import token_key

        assert tx.get("token", token_key(first.token)) is None  # revoked
        assert tx.get("token", token_key(rotated.token)) is not None
    storage.close()
    # the file lost: a new token is minted (and saved) rather than none working
    rotated.file.unlink()
    _, sock, _, lost = prepare(db)
    sock.close()
    assert lost.minted and lost.file.read_text().strip() == lost.token


def test_binding_beyond_loopback_warns() -> None:
    for host in ("127.0.0.1", "::1", "[::1]", "localhost", "127.0.0.2"):
        assert network_warning(host) is None, host
    for host in ("0.0.0.0", "::", "192.168.1.10", "myhost.example"):
        warning = network_warning(host)
        assert warning is not None and "reachable from the network" in warning


def _serve(tmp_path: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "gitbook_tui.cli", "serve", "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")},
    )


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.terminate()
    _, err = proc.communicate(timeout=10)
    return err


@pytest.mark.slow
def test_serve_prints_a_new_token_once(tmp_path: Path) -> None:
    db = str(tmp_path / "w.sqlite")
    proc = _serve(tmp_path, "--db", db)
    line = proc.stdout.readline().strip()  # type: ignore[union-attr]
    err = _stop(proc)
    _, token = line.removeprefix("Serving ").split(" token=")
    assert "owner's token is saved in" in err and "--rotate-token" in err
    proc = _serve(tmp_path, "--db", db, "--host", "0.0.0.0")
    line = proc.stdout.readline().strip()  # type: ignore[union-attr]
    err = _stop(proc)
    assert token not in line and line.endswith(f"(owner token in {tmp_path / 'w.owner-token'})")
    assert "reachable from the network" in err


# -- 5. faults come after demo seeding -----------------------------------------------------------


@pytest.mark.slow
def test_serve_demo_with_faults_seeds_first(tmp_path: Path) -> None:
    """`serve --demo --faults` seeds the demo fully before faults apply to the API. Slow: a real
    server process seeds the whole demo."""
    db = tmp_path / "demo.sqlite"
    proc = _serve(tmp_path, "--demo", "--db", str(db), "--faults", "error-rate=1.0")
    try:
        line = proc.stdout.readline().strip()  # type: ignore[union-attr]
        assert line.startswith("Serving http://127.0.0.1:"), line
        url, token = line.removeprefix("Serving ").split(" token=")
        # the faults apply to the API ...
        r = httpx.get(f"{url}/user", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 503 and "Injected fault" in r.text
    finally:
        _stop(proc)
    # ... not to the seeding: the demo workspace is all there
    storage = Storage(db)
    with storage.read() as tx:
        assert tx.meta("demo_org") is not None
        assert len(tx.list("space")) >= 5
        assert len(tx.list("change-request")) > 0
    storage.close()
