"""Every demo page's markdown, read and written back unchanged, changes nothing; the seeded
change requests diff only what they change (no ``# Title`` or front matter added as body)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from gitbook_tui.server.demo.seed import demo_token
from support.asgi_client import asgi_client
from support.local_http import list_all
from support.worlds import Template, demo_app

# the demo workspace seeded and walked whole: out of the inner loop
pytestmark = pytest.mark.slow

_BATCH = 50
_MAX_MARKDOWN = 1_000_000  # what one content update may carry


@pytest.fixture(scope="module")
def demo(
    tmp_path_factory: pytest.TempPathFactory, demo_template: Template
) -> Iterator[httpx.Client]:
    app = demo_app(demo_template, tmp_path_factory.mktemp("demo-md") / "demo.sqlite")
    # ~2,500 requests, answered on this thread's loop (httpx.Client's thread crossings were
    # most of the test's time; see support.asgi_client)
    with asgi_client(app, "http://testserver/v1") as client:
        client.headers["Authorization"] = f"Bearer {demo_token('maya')}"
        yield client


def _spaces(client: httpx.Client) -> list[dict]:
    org = client.get("/orgs").json()["items"][0]["id"]
    spaces = list_all(client, f"/orgs/{org}/spaces")
    for coll in list_all(client, f"/orgs/{org}/collections"):
        spaces += list_all(client, f"/collections/{coll['id']}/spaces")
    return spaces


def _documents(nodes: list[dict]) -> Iterator[dict]:
    for node in nodes:
        if node.get("type", "document") == "document":
            yield node
        yield from _documents(node.get("pages", []))


def _starts_with_title_or_front_matter(markdown: str, title: str) -> bool:
    if markdown.startswith("---"):
        return True
    match = re.match(r"\s*#[ \t]+(.+?)[ \t#]*(?:\n|$)", markdown)
    return match is not None and match.group(1).strip().casefold() == title.strip().casefold()


def test_every_demo_page_round_trips_unchanged(demo: httpx.Client) -> None:
    """GET …?format=markdown then update_page with that markdown: no change at all (content,
    title, metadata), on every document page of every demo space that is not locked."""
    checked = 0
    for space in _spaces(demo):
        if space.get("editMode") == "locked":
            continue
        sid = space["id"]
        pages = demo.get(f"/spaces/{sid}/content/pages").json()["pages"]
        changes = []
        for node in _documents(pages):
            body = demo.get(
                f"/spaces/{sid}/content/page/{node['id']}", params={"format": "markdown"}
            )
            markdown = body.json()["markdown"]
            assert not _starts_with_title_or_front_matter(markdown, node["title"]), (
                f"{space['title']} › {node['title']} starts with its title or front matter"
            )
            if len(markdown) <= _MAX_MARKDOWN:
                changes.append(
                    {
                        "operation": "update_page",
                        "page": node["id"],
                        "document": {"markdown": markdown},
                    }
                )
        if not changes:
            continue
        cr = demo.post(f"/spaces/{sid}/change-requests", json={"subject": "Round trip"})
        assert cr.status_code == 201, cr.text
        path = f"/spaces/{sid}/change-requests/{cr.json()['id']}"
        for start in range(0, len(changes), _BATCH):
            r = demo.post(f"{path}/content", json={"changes": changes[start : start + _BATCH]})
            assert r.status_code == 200, r.text
        diff = demo.get(f"{path}/changes", params={"limit": 1000}).json()["changes"]
        assert diff == [], f"{space['title']}: {diff[:3]}"
        after = demo.get(f"{path}/content/pages").json()["pages"]
        assert after == pages or _meta(after) == _meta(pages)
        checked += len(changes)
        demo.patch(path, json={"status": "archived"})
    assert checked >= 100


def _meta(nodes: list[dict]) -> list[tuple]:
    keys = ("id", "title", "slug", "description", "emoji", "icon", "hidden", "noIndex")
    return [tuple(n.get(k) for k in keys) for n in _documents(nodes)]


def test_seeded_change_requests_diff_only_what_they_change(demo: httpx.Client) -> None:
    """No seeded change request's page (nor main's) starts with its title or front matter,
    and Install Tidewater (edited on main by a merged demo change request) shows its title
    once: as the page title."""
    seen = 0
    for space in _spaces(demo):
        sid = space["id"]
        for status in ("draft", "open", "archived", "merged"):
            for cr in list_all(demo, f"/spaces/{sid}/change-requests", status=status):
                if cr["subject"] == "Round trip":
                    continue
                path = f"/spaces/{sid}/change-requests/{cr['id']}"
                changes = demo.get(f"{path}/changes", params={"limit": 1000}).json()["changes"]
                for change in changes[:20]:
                    if change["type"] not in ("page_edited", "page_created"):
                        continue
                    page_id = change["page"]["id"]
                    page = demo.get(f"{path}/content/page/{page_id}", params={"format": "markdown"})
                    if page.status_code != 200:
                        continue
                    body = page.json()
                    assert not _starts_with_title_or_front_matter(
                        body["markdown"], body["title"]
                    ), f"#{cr['number']} {cr['subject']} › {body['title']}"
                    seen += 1
    assert seen >= 15
    guide = next(s for s in _spaces(demo) if s["title"] == "Tidewater User Guide")
    pages = demo.get(f"/spaces/{guide['id']}/content/pages").json()["pages"]
    install = next(n for n in _documents(pages) if n["title"] == "Install Tidewater")
    assert install.get("emoji") == "📦" and install.get("description")
    markdown = demo.get(
        f"/spaces/{guide['id']}/content/page/{install['id']}", params={"format": "markdown"}
    ).json()["markdown"]
    assert "# Install Tidewater" not in markdown
    assert not markdown.startswith("---")
