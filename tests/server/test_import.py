"""Content import from a website (a loopback http.server) into a space or a change request."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from fastapi import FastAPI

from gitbook_tui.server.app import create_app
from gitbook_tui.server.content.store import create_revision
from gitbook_tui.server.core.clock import Clock
from gitbook_tui.server.importers.gitsync import html_to_markdown
from support.asserts import assert_error
from support.local_http import local_http
from support.worlds import Template, World, copy_template

MAX_BYTES = 20_000

PAGE_HTML = """<!doctype html>
<html><head><title>Orbit docs | Site</title><style>body { color: red }</style>
<script>alert("no")</script></head>
<body>
<nav><a href="/">Home</a></nav>
<h1>Shipping telemetry</h1>
<p>Orbit ships <strong>telemetry</strong> with <em>care</em>. See <a href="/more.html">more</a>.</p>
<h2>Steps</h2>
<ol><li>Install</li><li>Configure <code>orbit.toml</code></li></ol>
<ul><li>Fast</li><li>Small<ul><li>Really small</li></ul></li></ul>
<pre><code class="language-bash">orbit run --fast
orbit stop</code></pre>
<table><tr><th>Key</th><th>Default</th></tr><tr><td>level</td><td>3</td></tr></table>
<blockquote><p>Quoted wisdom.</p></blockquote>
<img src="img/logo.png" alt="Logo">
</body></html>
"""

NOTES_MD = "# Release notes\n\n* Added quasars\n* Fixed [links](https://orbit.example)\n"


RELEASE_SLOW = threading.Event()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return

    def _send(self, body: bytes, content_type: str, status: int = 200) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self) -> None:
        if self.path == "/page.html":
            self._send(PAGE_HTML.encode(), "text/html; charset=utf-8")
        elif self.path == "/notes.md":
            self._send(NOTES_MD.encode(), "text/markdown")
        elif self.path == "/slow.html":
            # answers only once the tests are over: far beyond the 2 s limit
            RELEASE_SLOW.wait(60)
            self._send(b"<p>late</p>", "text/html")
        elif self.path == "/big.html":
            self._send(b"<p>" + b"x" * (MAX_BYTES * 2) + b"</p>", "text/html")
        elif self.path == "/image.png":
            self._send(b"\x89PNG\r\n\x1a\n", "image/png")
        else:
            self._send(b"not found", "text/plain", 404)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with local_http(Handler) as base:
        yield base
        RELEASE_SLOW.set()


@pytest.fixture
def app(db_path: Path, clock: Clock, tmp_path: Path, world_template: Template) -> FastAPI:
    """The shared world, with short outbound-fetch limits; its operator lets imports read
    tmp_path and fetch from the loopback peers of these tests."""
    return create_app(
        copy_template(world_template, db_path),
        clock=clock,
        fetch_timeout=2.0,  # room for a loaded machine; the slow page never answers in time
        fetch_max_bytes=MAX_BYTES,
        allow_import_roots=[tmp_path],
        allow_fetch_hosts=["127.0.0.1"],
    )


def _import(world: World, path: str, url: str, source: str = "website", user: str = "eve"):
    return world.client(user).post(path, json={"url": url, "source": source})


def test_import_html_page_appends_a_page(world: World, make_space, site: str) -> None:
    space = make_space("Docs")
    c = world.client("eve")
    before = c.get(f"/spaces/{space['id']}").json()["revision"]
    r = _import(world, f"/spaces/{space['id']}/content/import", f"{site}/page.html")
    assert r.status_code == 201, r.text
    result = r.json()
    assert result == {"revision": result["revision"], "importedResources": 1, "totalResources": 1}
    after = c.get(f"/spaces/{space['id']}").json()["revision"]
    assert after == result["revision"] != before
    content = c.get(f"/spaces/{space['id']}/content").json()
    assert content["parents"] == [before]
    [page] = content["pages"]
    assert page["title"] == "Shipping telemetry" and page["slug"] == "shipping-telemetry"
    md = c.get(
        f"/spaces/{space['id']}/content/page/{page['id']}", params={"format": "markdown"}
    ).json()["markdown"]
    assert "# Shipping telemetry" not in md  # the title is not repeated in the body
    assert "Home" not in md  # navigation is left out
    assert "Orbit ships **telemetry** with _care_." in md
    assert f"[more]({site}/more.html)" in md  # relative links made absolute
    assert "## Steps" in md and "1. Install" in md and "2. Configure `orbit.toml`" in md
    assert "2. Configure `orbit.toml`\n\n* Fast\n* Small\n  * Really small" in md
    assert "```bash\norbit run --fast\norbit stop\n```" in md
    assert "| Key | Default |" in md and "| level | 3 |" in md
    assert "> Quoted wisdom." in md
    assert f"![Logo]({site}/img/logo.png)" in md
    assert "alert" not in md and "color: red" not in md
    # a second import appends after the first, with a distinct slug
    _import(world, f"/spaces/{space['id']}/content/import", f"{site}/page.html")
    slugs = [p["slug"] for p in c.get(f"/spaces/{space['id']}/content/pages").json()["pages"]]
    assert slugs == ["shipping-telemetry", "shipping-telemetry-2"]
    # imported pages are searchable at once
    hits = c.get(f"/spaces/{space['id']}/search", params={"query": "wisdom"}).json()
    assert hits["count"] == 2


def test_import_markdown_page_as_is(world: World, make_space, site: str) -> None:
    space = make_space("Docs")
    r = _import(world, f"/spaces/{space['id']}/content/import", f"{site}/notes.md")
    assert r.status_code == 201, r.text
    c = world.client("eve")
    [page] = c.get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    assert page["title"] == "Release notes"
    md = c.get(
        f"/spaces/{space['id']}/content/page/{page['id']}", params={"format": "markdown"}
    ).json()["markdown"]
    assert md == "* Added quasars\n* Fixed [links](https://orbit.example)\n"
    forced = _import(world, f"/spaces/{space['id']}/content/import", f"{site}/notes.md", "markdown")
    assert forced.status_code == 201


def test_import_into_change_request(world: World, make_space, site: str) -> None:
    space = make_space("Docs")
    with world.storage.transaction() as tx:
        record = tx.get("space", space["id"])
        create_revision(
            tx,
            revision_id="cr-rev",
            space_id=space["id"],
            parents=[record["revision"]],
            pages=[],
            files=[],
            type="edits",
            created_at="2026-11-01T09:00:00.000Z",
        )
        cr = {
            "id": "cr-a",
            "number": 1,
            "space": space["id"],
            "status": "open",
            "subject": "Import",
            "createdBy": world.users["eve"],
            "createdAt": "2026-11-01T09:00:00.000Z",
            "updatedAt": "2026-11-01T09:00:00.000Z",
            "revision": "cr-rev",
            "revisionInitial": record["revision"],
            "revisionMergedAncestor": record["revision"],
            "revisionMerged": None,
        }
        tx.put("change-request", "cr-a", cr, scope=space["id"])
    main_before = world.client().get(f"/spaces/{space['id']}").json()["revision"]
    r = _import(
        world, f"/spaces/{space['id']}/change-requests/1/content/import", f"{site}/notes.md"
    )
    assert r.status_code == 201, r.text
    with world.storage.read() as tx:
        stored = tx.get("change-request", "cr-a")
    assert stored["revision"] == r.json()["revision"]
    c = world.client("rhea")
    assert c.get(f"/spaces/{space['id']}").json()["revision"] == main_before  # main untouched
    pages = c.get(f"/spaces/{space['id']}/change-requests/cr-a/content/pages").json()["pages"]
    assert [p["title"] for p in pages] == ["Release notes"]
    content = c.get(f"/spaces/{space['id']}/change-requests/cr-a/content").json()
    assert content["parents"] == ["cr-rev"]
    with world.storage.transaction() as tx:
        tx.put("change-request", "cr-a", {**stored, "status": "merged"})
    assert_error(
        _import(
            world, f"/spaces/{space['id']}/change-requests/1/content/import", f"{site}/notes.md"
        ),
        409,
        "merged",
    )


def test_import_timeout_is_a_clear_400(world: World, make_space, site: str) -> None:
    space = make_space("Docs")
    started = time.monotonic()
    r = _import(world, f"/spaces/{space['id']}/content/import", f"{site}/slow.html")
    assert time.monotonic() - started < 30  # the 2 s limit, not the page that never answers
    assert_error(r, 400, f"{site}/slow.html", "timed out")
    pages = world.client().get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    assert pages == []


def test_import_size_limit_and_http_errors(world: World, make_space, site: str) -> None:
    space = make_space("Docs")
    path = f"/spaces/{space['id']}/content/import"
    assert_error(_import(world, path, f"{site}/big.html"), 400, f"{site}/big.html", "too large")
    assert_error(_import(world, path, f"{site}/gone.html"), 400, "404")
    assert_error(_import(world, path, f"{site}/image.png"), 400, "content type")
    assert_error(_import(world, path, "http://127.0.0.1:9/nothing.html"), 400, "127.0.0.1:9")


def test_import_validation(world: World, make_space, site: str) -> None:
    space = make_space("Docs")
    c = world.client("eve")
    path = f"/spaces/{space['id']}/content/import"
    assert_error(c.post(path, json={"source": "website"}), 400, "url")
    assert_error(c.post(path, json={"url": f"{site}/page.html"}), 400, "source")
    assert_error(c.post(path, json={"url": f"{site}/page.html", "source": "docx"}), 400, "source")
    assert_error(c.post(path, json={"url": "not a url", "source": "website"}), 400, "url")
    assert_error(c.post(path, json={"url": "ftp://x/y", "source": "website"}), 400, "url")
    assert_error(
        c.post(path, json={"url": f"{site}/page.html", "source": "github"}), 400, "git sync"
    )


def test_import_permissions(world: World, make_space, site: str) -> None:
    space = make_space("Docs")
    path = f"/spaces/{space['id']}/content/import"
    assert_error(_import(world, path, f"{site}/page.html", user="rhea"), 403, "edit")
    assert_error(_import(world, path, f"{site}/page.html", user="otto"), 404, "space")
    r = world.anonymous().post(path, json={"url": f"{site}/page.html", "source": "website"})
    assert_error(r, 401)
    with world.storage.transaction() as tx:
        record = tx.get("space", space["id"])
        tx.put("space", space["id"], {**record, "editMode": "locked"})
    assert_error(_import(world, path, f"{site}/page.html"), 403, "locked")
    assert world.client().get(f"/spaces/{space['id']}/content/pages").json()["pages"] == []


def test_html_to_markdown_title_fallback() -> None:
    title, md = html_to_markdown("<html><head><title> Only title </title></head><p>a&amp;b</p>")
    assert title == "Only title" and md == "a&b\n"
