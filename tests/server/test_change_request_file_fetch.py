"""Change-request file URLs are downloaded outside the write transaction."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from gitbook_tui.server.core.fetch import Fetched
from gitbook_tui.server.routes import change_requests as routes
from support.worlds import World


def test_a_slow_file_download_does_not_hold_other_writers(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    fetching = threading.Event()
    release = threading.Event()

    def slow_fetch(url: str, **_: Any) -> Fetched:
        fetching.set()
        assert release.wait(30), "never released"
        return Fetched(url, 200, "text/plain", b"hello")

    monkeypatch.setattr(routes, "fetch_url", slow_fetch)
    r = world.client("alice").post(f"/orgs/{world.org}/spaces", json={"title": "Files"})
    space = r.json()["id"]
    cr = world.client("eve").post(f"/spaces/{space}/change-requests", json={"subject": "Files"})
    assert cr.status_code == 201, cr.text
    answers: dict[str, Any] = {}

    def upload() -> None:
        answers["upload"] = world.client("eve").post(
            f"/spaces/{space}/change-requests/{cr.json()['id']}/content",
            json={
                "changes": [
                    {
                        "operation": "insert_files",
                        "files": [{"name": "notes.txt", "url": "https://files.example/n.txt"}],
                    }
                ]
            },
        )

    uploader = threading.Thread(target=upload)
    uploader.start()
    try:
        assert fetching.wait(30)
        # the download is under way: another writer is not kept waiting for it

        def comment() -> None:
            answers["comment"] = world.client("alice").post(
                f"/spaces/{space}/comments", json={"body": {"markdown": "Meanwhile"}}
            )

        commenter = threading.Thread(target=comment)
        commenter.start()
        commenter.join(20)
        assert "comment" in answers, "the comment waited for the download"
        assert answers["comment"].status_code in (200, 201), answers["comment"].text
        assert "upload" not in answers
    finally:
        release.set()
        uploader.join(30)
    assert answers["upload"].status_code == 200, answers["upload"].text
    files = world.client("eve").get(
        f"/spaces/{space}/change-requests/{cr.json()['id']}/content/files"
    )
    assert [f["name"] for f in files.json()["items"]] == ["notes.txt"]


def test_a_reader_cannot_make_the_server_download_anything(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    monkeypatch.setattr(routes, "fetch_url", lambda url, **_: asked.append(url))
    r = world.client("alice").post(f"/orgs/{world.org}/spaces", json={"title": "Files"})
    space = r.json()["id"]
    cr = world.client("alice").post(f"/spaces/{space}/change-requests", json={"subject": "F"})
    r = world.client("otto").post(
        f"/spaces/{space}/change-requests/{cr.json()['id']}/content",
        json={
            "changes": [
                {"operation": "insert_files", "files": [{"name": "x", "url": "https://x.example/"}]}
            ]
        },
    )
    assert r.status_code in (401, 403, 404), r.text
    assert asked == []
