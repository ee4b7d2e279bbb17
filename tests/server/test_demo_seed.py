"""The seeded demo workspace has everything the demo promises, reachable through the API."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gitbook_tui.server.app import create_app
from gitbook_tui.server.demo.seed import demo_token, seed_demo_if_empty
from support.local_http import list_all

# the demo workspace seeded and walked whole: out of the inner loop
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(tmp_path_factory.mktemp("demo") / "demo.sqlite")
    assert seed_demo_if_empty(app) is True
    assert seed_demo_if_empty(app) is False  # an existing database is left as is
    client = TestClient(app, base_url="http://testserver/v1", raise_server_exceptions=False)
    client.headers["Authorization"] = f"Bearer {demo_token('maya')}"
    yield client
    client.close()


def _org(client: TestClient) -> str:
    return client.get("/orgs").json()["items"][0]["id"]


def _spaces(client: TestClient) -> list[dict]:
    org = _org(client)
    spaces = list_all(client, f"/orgs/{org}/spaces")
    for coll in list_all(client, f"/orgs/{org}/collections"):
        spaces += list_all(client, f"/collections/{coll['id']}/spaces")
    return spaces


def _count_pages(nodes: list[dict]) -> int:
    return sum(1 + _count_pages(n.get("pages", [])) for n in nodes)


def test_organization_people_and_structure(demo: TestClient) -> None:
    org = _org(demo)
    members = list_all(demo, f"/orgs/{org}/members")
    assert len(members) >= 6
    assert {"admin", "create", "edit", "review", "comment", "read"} <= {m["role"] for m in members}
    assert len(list_all(demo, f"/orgs/{org}/teams")) >= 3
    collections = list_all(demo, f"/orgs/{org}/collections")
    assert any(c.get("parent") for c in collections), "a nested collection"
    assert list_all(demo, f"/orgs/{org}/spaces"), "a space at the organization root"


def test_spaces_pages_and_generated_content(demo: TestClient) -> None:
    spaces = _spaces(demo)
    assert len(spaces) >= 8
    assert any(s["editMode"] == "locked" for s in spaces)
    sizes = {
        s["title"]: _count_pages(demo.get(f"/spaces/{s['id']}/content/pages").json()["pages"])
        for s in spaces
    }
    assert max(sizes.values()) >= 2000
    written = sum(n for title, n in sizes.items() if n < 2000)
    assert written >= 40
    big = next(s for s in spaces if s["title"].startswith("Config reference"))
    pages = demo.get(f"/spaces/{big['id']}/content/pages").json()["pages"]
    page = demo.get(
        f"/spaces/{big['id']}/content/page/{pages[0]['id']}", params={"format": "markdown"}
    )
    assert len(page.json()["markdown"].encode()) >= 1_000_000


def test_change_requests_in_every_status_with_outdated_and_conflict(demo: TestClient) -> None:
    crs = []
    for space in _spaces(demo):
        for status in ("draft", "open", "archived", "merged"):
            crs += [
                (space, cr)
                for cr in list_all(demo, f"/spaces/{space['id']}/change-requests", status=status)
            ]
    assert set(Counter(cr["status"] for _, cr in crs)) == {"draft", "open", "archived", "merged"}
    outdated = [(s, cr) for s, cr in crs if cr["outdated"] and cr["status"] == "open"]
    assert len(outdated) >= 2
    conflicts = []
    for space, cr in outdated:
        r = demo.post(f"/spaces/{space['id']}/change-requests/{cr['id']}/update")
        if r.status_code == 409:
            conflicts.append(r.json()["error"]["message"])
    assert conflicts, "one change request conflicts with main"
    assert any(cr["status"] == "open" and not cr["outdated"] for _, cr in crs) or len(
        outdated
    ) < len(crs)


def test_comments_sites_and_the_rest(demo: TestClient) -> None:
    org = _org(demo)
    threads = []
    for space in _spaces(demo):
        threads += list_all(demo, f"/spaces/{space['id']}/comments")
    assert len(threads) >= 15
    assert any(c["status"] == "resolved" for c in threads)
    assert any(c["replies"] > 0 for c in threads)
    assert any(len(c["reactions"]) > 0 for c in threads)
    sites = list_all(demo, f"/orgs/{org}/sites")
    assert len(sites) == 4 and sorted(s["published"] for s in sites) == [False, True, True, True]
    by_title = {s["title"]: s for s in sites}
    docs = by_title["Tidewater Docs"]
    redirects = list_all(demo, f"/orgs/{org}/sites/{docs['id']}/redirects")
    assert {"/start", "/legacy/start", "/v0/start", "/v1", "/old-faq"} <= {
        r["source"] for r in redirects
    }
    assert any(r["captureWildcard"] for r in redirects)
    drafts = demo.get(f"/orgs/{org}/sites/{docs['id']}/redirects", params={"draft": True})
    assert [r["source"] for r in drafts.json()["items"]] == ["/beta/preview"]
    legacy = by_title["Tidewater Legacy Docs"]
    assert len(list_all(demo, f"/orgs/{org}/sites/{legacy['id']}/redirects")) >= 1000
    hub = by_title["Tidewater Developer Hub"]
    groups = list_all(demo, f"/orgs/{org}/sites/{hub['id']}/section-groups")
    assert [(g["title"], len(g["children"]), g["draft"]) for g in groups] == [
        ("Build", 2, False),
        ("Reference", 2, False),
        ("Labs", 1, True),
    ]
    assert len(list_all(demo, f"/orgs/{org}/link-invites")) >= 2
    integrations = [
        i for i in list_all(demo, "/integrations") if i.get("owner", {}).get("id") == org
    ]
    assert len(integrations) == 2
    for integration in integrations:
        assert list_all(demo, f"/integrations/{integration['name']}/installations")
        assert list_all(demo, f"/integrations/{integration['name']}/events")
    specs = list_all(demo, f"/orgs/{org}/openapi")
    assert specs and len(list_all(demo, f"/orgs/{org}/openapi/{specs[0]['slug']}/versions")) >= 2
    assert list_all(demo, f"/orgs/{org}/translations")


def test_demo_users_have_their_own_tokens(demo: TestClient) -> None:
    reader = TestClient(demo.app, base_url="http://testserver/v1")
    reader.headers["Authorization"] = f"Bearer {demo_token('maya')}"
    assert reader.get("/user").json()["displayName"]


def test_demo_database_is_not_reseeded(tmp_path: Path) -> None:
    app = create_app(tmp_path / "empty.sqlite")
    from gitbook_tui.server.bootstrap import ensure_owner
    from gitbook_tui.server.core.clock import Clock

    ensure_owner(app.state.server.storage, Clock())
    assert seed_demo_if_empty(app) is False


def test_review_desk_change_requests(demo: TestClient) -> None:
    """A moved page with a file change, the 1 MB page's 40 edits, a 200-page change request
    and a team reviewer, all open across the organization with Maya asked to review."""
    org = _org(demo)
    crs = {cr["subject"]: cr for cr in list_all(demo, f"/orgs/{org}/change-requests")}

    def changes(subject: str) -> list[dict]:
        cr = crs[subject]
        body = demo.get(
            f"/spaces/{cr['space']}/change-requests/{cr['id']}/changes", params={"limit": 1000}
        ).json()
        return body["changes"]

    moved = Counter(
        c["type"] for c in changes("Move exactly-once into Concepts, add the delivery diagram")
    )
    assert moved["page_moved"] == 1 and moved["file_created"] == 1
    reference = changes("Reference: reword 40 settings for 3.5")
    assert [c["type"] for c in reference] == ["page_edited"]
    assert len(changes("KB: retitle 100 articles, add 100 stubs")) == 200
    team = crs["Handbook: review by the Docs guild"]
    reviewers = demo.get(
        f"/spaces/{team['space']}/change-requests/{team['id']}/requested-reviewers"
    ).json()["items"]
    assert {r["kind"] for r in reviewers} == {"user", "team"}
    maya = demo.get("/user").json()["id"]
    mine = list_all(demo, f"/orgs/{org}/change-requests", requestedReviewer=maya)
    assert {cr["subject"] for cr in mine} >= set(crs) - {
        s for s in crs if not s.startswith(("Move", "Reference", "KB", "Handbook"))
    }
