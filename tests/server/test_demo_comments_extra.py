"""The demo has what the Comments view needs: anchored, edited, outdated, long, busy."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from gitbook_tui.server.demo.seed import demo_token
from gitbook_tui.server.demo.seed_comments_extra import BUSY_PAGE_THREADS, LONG_THREAD_REPLIES
from support.worlds import Template, demo_app

# the demo workspace seeded and walked whole: out of the inner loop
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory, demo_template: Template) -> Iterator[TestClient]:
    app = demo_app(demo_template, tmp_path_factory.mktemp("demo") / "demo.sqlite")
    client = TestClient(app, base_url="http://testserver/v1", raise_server_exceptions=False)
    client.headers["Authorization"] = f"Bearer {demo_token('maya')}"
    yield client
    client.close()


def _space(client: TestClient, title: str) -> str:
    org = client.get("/orgs").json()["items"][0]["id"]
    spaces = client.get(f"/orgs/{org}/spaces", params={"limit": 1000}).json()["items"]
    for coll in client.get(f"/orgs/{org}/collections", params={"limit": 1000}).json()["items"]:
        spaces += client.get(f"/collections/{coll['id']}/spaces").json()["items"]
    return next(s["id"] for s in spaces if s["title"] == title)


def _comments(client: TestClient, space: str) -> list[dict]:
    r = client.get(f"/spaces/{space}/comments", params={"limit": 1000})
    assert r.status_code == 200, r.text
    return r.json()["items"]


def test_guide_threads(demo: TestClient) -> None:
    guide = _space(demo, "Tidewater User Guide")
    comments = _comments(demo, guide)
    anchored = [c for c in comments if (c.get("target") or {}).get("node")]
    assert anchored and anchored[0]["target"]["node"]["id"] == "cleanup-policies"
    assert any(c.get("editedAt") for c in comments)
    assert any(c["target"]["page"].get("outdated") for c in comments if c["target"].get("page"))
    longest = max(comments, key=lambda c: c.get("replies") or 0)
    assert longest["replies"] >= LONG_THREAD_REPLIES >= 30
    edited_replies = [
        r
        for c in comments
        if c.get("replies")
        for r in demo.get(f"/spaces/{guide}/comments/{c['id']}/replies").json()["items"]
        if r.get("editedAt")
    ]
    assert edited_replies


def test_a_page_with_200_threads(demo: TestClient) -> None:
    kb = _space(demo, "Support knowledge base")
    per_page = Counter(c["target"]["page"]["id"] for c in _comments(demo, kb))
    assert per_page.most_common(1)[0][1] >= BUSY_PAGE_THREADS >= 200
