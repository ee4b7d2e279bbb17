"""The demo guide's history: months of revisions of every kind, ending on the guide's text."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gitbook_tui.server.content.page_text import page_text
from gitbook_tui.server.demo.seed import demo_token
from gitbook_tui.server.demo.seed_history import guide_stories
from support.local_http import list_all
from support.worlds import Template, demo_app

FOLDER = Path(__file__).parents[2] / "src/gitbook_tui/server/demo/spaces/user-guide"


def test_every_page_story_ends_on_the_page_file() -> None:
    stories = guide_stories()
    assert sum(len(story.steps) for story in stories) >= 150
    for story in stories:
        assert story.text(story.final) == (FOLDER / story.path).read_text("utf-8")
        assert story.text({}) != story.text(story.final)


@pytest.mark.slow
def test_the_guide_has_months_of_history(tmp_path: Path, demo_template: Template) -> None:
    app = demo_app(demo_template, tmp_path / "demo.sqlite")
    client = TestClient(app, base_url="http://testserver/v1", raise_server_exceptions=False)
    client.headers["Authorization"] = f"Bearer {demo_token('aiko')}"  # a reader
    org = client.get("/orgs").json()["items"][0]["id"]
    spaces = list_all(client, f"/orgs/{org}/spaces")
    for coll in list_all(client, f"/orgs/{org}/collections"):
        spaces += list_all(client, f"/collections/{coll['id']}/spaces")
    guide = next(s for s in spaces if s["title"] == "Tidewater User Guide")
    base = f"/spaces/{guide['id']}/revisions"
    line: list[dict[str, Any]] = []
    revision_id = guide["revision"]
    while revision_id:
        revision = client.get(f"{base}/{revision_id}").json()
        line.append(revision)
        revision_id = revision["parents"][0] if revision["parents"] else ""
    assert len(line) >= 150
    kinds = Counter(r["type"] for r in line)
    assert kinds["merge"] >= 40 and kinds["edits"] >= 40 and kinds["rollback"] == 1
    authors = {r["mergedFrom"]["createdBy"]["displayName"] for r in line if r["type"] == "merge"}
    assert len(authors) >= 4
    synced = [r for r in line if r.get("git")]
    assert len(synced) == 1 and synced[0]["git"]["ref"] == "refs/heads/main"
    dates = [datetime.fromisoformat(r["createdAt"].replace("Z", "+00:00")) for r in line]
    assert dates == sorted(dates, reverse=True)
    assert (dates[0] - dates[-1]).days >= 150
    changes = Counter(
        change["type"]
        for r in line
        for change in client.get(f"{base}/{r['id']}/changes", params={"limit": 100}).json()[
            "changes"
        ]
    )
    assert changes["page_edited"] >= 150
    assert changes["page_created"] >= 1 and changes["page_deleted"] >= 1
    # the history ends on the guide's text: a page nobody touched since reads as its file
    faq = client.get(f"/spaces/{guide['id']}/content/path/troubleshooting/consumer-lag").json()
    expected = page_text((FOLDER / "troubleshooting/consumer-lag.md").read_text()).body
    page = client.get(
        f"/spaces/{guide['id']}/content/page/{faq['id']}", params={"format": "markdown"}
    ).json()
    assert page["markdown"] == expected
