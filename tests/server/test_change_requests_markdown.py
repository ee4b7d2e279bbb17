"""Markdown documents of a content update are read as Git Sync reads a page file: front
matter is page metadata, a leading ``# Title`` the title; only the rest is the page's body.
So a page's markdown export (its body), written back unchanged, is a no-op."""

from __future__ import annotations

from typing import Any

from support.worlds import World


def _cr(world: World, space: dict) -> str:
    r = world.client("eve").post(
        f"/spaces/{space['id']}/change-requests", json={"subject": "Edits"}
    )
    assert r.status_code == 201, r.text
    return f"/spaces/{space['id']}/change-requests/{r.json()['id']}"


def _edit(world: World, path: str, *changes: dict[str, Any]) -> None:
    r = world.client("eve").post(f"{path}/content", json={"changes": list(changes)})
    assert r.status_code == 200, r.text


def _page(world: World, path: str, page_id: str) -> dict:
    r = world.client("eve").get(f"{path}/content/page/{page_id}", params={"format": "markdown"})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _only_page(world: World, path: str) -> dict:
    pages = world.client("eve").get(f"{path}/content/pages").json()["pages"]
    return _page(world, path, pages[-1]["id"])


def _insert(markdown: str, **extra: Any) -> dict[str, Any]:
    return {"operation": "insert_page", "document": {"markdown": markdown}, **extra}


def _update(page: str, markdown: str, **extra: Any) -> dict[str, Any]:
    return {"operation": "update_page", "page": page, "document": {"markdown": markdown}, **extra}


FILE = "---\ndescription: How to install.\nemoji: 📦\nhidden: false\n---\n\n# Install\n\nRun it.\n"


def test_insert_reads_front_matter_and_title(world: World, make_space: Any) -> None:
    path = _cr(world, make_space())
    _edit(world, path, _insert(FILE, description="Ignored: the front matter wins"))
    page = _only_page(world, path)
    assert page["title"] == "Install" and page["slug"] == "install"
    assert page["description"] == "How to install." and page["emoji"] == "📦"
    assert page["markdown"] == "Run it.\n"


def test_insert_with_a_title_keeps_a_different_heading(world: World, make_space: Any) -> None:
    path = _cr(world, make_space())
    _edit(world, path, _insert("# Overview\n\nBody\n", title="Guide"))
    page = _only_page(world, path)
    assert page["title"] == "Guide" and page["markdown"] == "# Overview\n\nBody\n"
    _edit(world, path, _insert("# guide\n\nBody\n", title="Guide"))
    assert _only_page(world, path)["markdown"] == "Body\n"  # repeats the title: dropped


def test_insert_without_heading_takes_the_title_field(world: World, make_space: Any) -> None:
    path = _cr(world, make_space())
    _edit(world, path, _insert("Text first.\n\n# Later heading\n", title="Notes"))
    page = _only_page(world, path)
    assert page["title"] == "Notes" and page["markdown"] == "Text first.\n\n# Later heading\n"


def test_update_with_the_whole_file_changes_only_what_changed(
    world: World, make_space: Any
) -> None:
    path = _cr(world, make_space())
    _edit(world, path, _insert(FILE))
    page_id = _only_page(world, path)["id"]
    edited = FILE.replace("Run it.", "Run it twice.").replace("How to install.", "Install it.")
    _edit(world, path, _update(page_id, edited))
    page = _page(world, path, page_id)
    assert page["markdown"] == "Run it twice.\n"  # no "# Install", no front matter
    assert page["title"] == "Install" and page["description"] == "Install it."
    assert page["emoji"] == "📦"


def test_round_trip_is_a_no_op(world: World, make_space: Any) -> None:
    """The export read back and written unchanged: no change in the change request."""
    space = make_space()
    path = _cr(world, space)
    _edit(world, path, _insert(FILE), _insert("# Other\n\n# Second H1 kept\n\nBody\n"))
    pages = world.client("eve").get(f"{path}/content/pages").json()["pages"]
    before = {p["id"]: _page(world, path, p["id"]) for p in pages}
    assert before[pages[1]["id"]]["markdown"] == "# Second H1 kept\n\nBody\n"
    assert world.client("eve").post(f"{path}/merge").status_code == 200
    again = _cr(world, space)
    _edit(world, again, *(_update(pid, page["markdown"]) for pid, page in before.items()))
    changes = world.client("eve").get(f"{again}/changes").json()["changes"]
    assert changes == []
    after = {pid: _page(world, again, pid) for pid in before}
    for pid, page in before.items():
        keys = ("title", "description", "emoji", "markdown")
        assert {k: after[pid].get(k) for k in keys} == {k: page.get(k) for k in keys}


def test_a_heading_that_is_not_the_title_stays_in_the_body(world: World, make_space: Any) -> None:
    path = _cr(world, make_space())
    _edit(world, path, _insert("Body\n", title="Guide"))
    page_id = _only_page(world, path)["id"]
    _edit(world, path, _update(page_id, "# Before you start\n\nBody\n"))
    page = _page(world, path, page_id)
    assert page["title"] == "Guide" and page["markdown"] == "# Before you start\n\nBody\n"
    _edit(world, path, _update(page_id, "# guide\n\nBody\n"))  # the title again: dropped
    assert _page(world, path, page_id)["markdown"] == "Body\n"


def test_unreadable_front_matter_stays_in_the_body(world: World, make_space: Any) -> None:
    path = _cr(world, make_space())
    text = "---\ndescription: a: b: c\n---\n\n# Broken\n\nBody\n"
    _edit(world, path, _insert(text))
    page = _only_page(world, path)
    assert page["title"] == "Broken"
    assert page["markdown"].startswith("---\ndescription: a: b: c\n---\n")
    assert "# Broken" not in page["markdown"]
    _edit(world, path, _update(page["id"], page["markdown"]))
    assert _page(world, path, page["id"])["markdown"] == page["markdown"]
