"""Content reads of a space, of a change request and of any revision; links and backlinks."""

from __future__ import annotations

from typing import Any

import pytest

from gitbook_tui.server.content import store as cs
from gitbook_tui.server.content.space_revision import set_space_revision
from gitbook_tui.server.content.store import create_revision, store_file
from gitbook_tui.server.core.slugs import slugify
from support.asserts import assert_error
from support.local_http import walk_pages
from support.worlds import World

PNG_3x2 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000003000000020802000000"
    "12167f1e0000001049444154789c63f8cf00448c0c40480000bcb40bf9"
    "8c12be160000000049454e44ae426082"
)

INTRO = """Welcome to **Orbit**. See [Install](getting-started/install.md), the
[changelog](https://orbit.example/changelog), a [stable link](/pages/{install})
and a [dead page](nowhere.md).

![Diagram](.gitbook/assets/diagram.png)

## Concepts

Orbit moves telemetry.

```bash
echo "[not a link](code.md)"
```
"""

INSTALL = """Install with the script.

{% content-ref url="../README.md" %}
[README.md](../README.md)
{% endcontent-ref %}

{% embed url="https://www.youtube.com/watch?v=abc" %}

{% file src="../.gitbook/assets/missing.pdf" %}
"""


def _nodes(tx: Any, specs: list[dict[str, Any]], now: str) -> list[dict[str, Any]]:
    nodes = []
    for spec in specs:
        node = {
            "id": spec["id"],
            "title": spec["title"],
            "type": spec.get("type", "document"),
            "slug": spec.get("slug", slugify(spec["title"])),
            "emoji": spec.get("emoji"),
            "icon": None,
            "description": spec.get("description"),
            "hidden": spec.get("hidden", False),
            "noIndex": False,
            "createdAt": now,
            "updatedAt": now,
            "pages": _nodes(tx, spec.get("pages", []), now),
        }
        if node["type"] == "document":
            node["document"] = cs.store_markdown(tx, spec.get("markdown", ""))
        if spec.get("git"):
            node["git"] = spec["git"]
        if node["type"] == "link":
            node["href"] = spec["href"]
        nodes.append(node)
    return nodes


def put_revision(
    world: World,
    space_id: str,
    pages: list[dict[str, Any]],
    *,
    files: list[tuple[str, str, bytes]] = (),  # type: ignore[assignment]
    main: bool = True,
    revision_id: str | None = None,
) -> str:
    """Write a revision of ``space_id`` directly in storage (the main one unless told)."""
    now = "2026-11-01T09:00:00.000Z"
    with world.storage.transaction() as tx:
        space = tx.get("space", space_id)
        file_nodes = [
            store_file(tx, file_id=fid, name=name, data=data) for fid, name, data in files
        ]
        rid = revision_id or world.storage.new_id()
        create_revision(
            tx,
            revision_id=rid,
            space_id=space_id,
            parents=[space["revision"]],
            pages=_nodes(tx, pages, now),
            files=file_nodes,
            type="edits",
            created_at=now,
        )
        if main:
            set_space_revision(tx, space, rid, now)
    return rid


def put_change_request(world: World, space_id: str, revision_id: str, number: int = 1) -> dict:
    with world.storage.transaction() as tx:
        space = tx.get("space", space_id)
        cr = {
            "id": f"cr{number}x{space_id}",
            "number": number,
            "space": space_id,
            "status": "open",
            "subject": "Rework install",
            "createdBy": world.users["eve"],
            "createdAt": "2026-11-01T09:00:00.000Z",
            "updatedAt": "2026-11-01T09:00:00.000Z",
            "revision": revision_id,
            "revisionInitial": space["revision"],
            "revisionMergedAncestor": space["revision"],
            "revisionMerged": None,
        }
        tx.put("change-request", cr["id"], cr, scope=space_id)
    return cr


def standard_pages(install_md: str = INSTALL) -> list[dict[str, Any]]:
    return [
        {
            "id": "intro",
            "title": "Introduction",
            "slug": "intro",
            "emoji": "👋",
            "description": "Start here",
            "markdown": INTRO.replace("{install}", "install"),
            "git": {"path": "README.md", "oid": "abc"},
        },
        {
            "id": "grp",
            "title": "Getting started",
            "type": "group",
            "pages": [
                {
                    "id": "gs",
                    "title": "Getting started",
                    "slug": "getting-started",
                    "markdown": "Overview.",
                    "git": {"path": "getting-started/README.md", "oid": "def"},
                    "pages": [
                        {
                            "id": "install",
                            "title": "Install",
                            "slug": "install",
                            "hidden": True,
                            "markdown": install_md,
                            "git": {"path": "getting-started/install.md", "oid": "123"},
                        }
                    ],
                }
            ],
        },
        {"id": "site", "title": "Website", "type": "link", "href": "https://orbit.example"},
    ]


@pytest.fixture
def space(world: World, make_space) -> dict:
    space = make_space("Orbit")
    put_revision(world, space["id"], standard_pages(), files=[("f1", "diagram.png", PNG_3x2)])
    return space


@pytest.fixture
def cr(world: World, space: dict) -> dict:
    edited = standard_pages(install_md="Install with **brew**.\n\n[gone](../gone.md)\n")
    rid = put_revision(world, space["id"], edited, main=False)
    return put_change_request(world, space["id"], rid)


# -- revision, pages, files ----------------------------------------------------------------------


def test_get_space_content_is_the_main_revision(world: World, space: dict) -> None:
    c = world.client("rhea")
    body = c.get(f"/spaces/{space['id']}/content").json()
    current = c.get(f"/spaces/{space['id']}").json()["revision"]
    assert body["object"] == "revision" and body["id"] == current
    assert body["type"] == "edits" and body["parents"]
    assert body["reusableContents"] == [] and body["variables"] == {}
    assert "git" not in body and body["urls"]["app"].endswith(f"/s/{space['id']}")
    assert [p["id"] for p in body["pages"]] == ["intro", "grp", "site"]
    assert [f["id"] for f in body["files"]] == ["f1"]
    assert "git" not in c.get(f"/spaces/{space['id']}/content", params={"metadata": False}).json()


def test_list_space_pages_nested_with_paths(world: World, space: dict) -> None:
    body = world.client("rhea").get(f"/spaces/{space['id']}/content/pages").json()
    assert set(body) == {"pages"}
    pages = {p["id"]: p for p in walk_pages(body["pages"])}
    assert pages["intro"]["path"] == "intro" and pages["intro"]["emoji"] == "👋"
    assert pages["grp"]["type"] == "group"
    # groups add nothing to paths; children nest
    assert pages["gs"]["path"] == "getting-started"
    assert pages["install"]["path"] == "getting-started/install"
    assert pages["install"]["hidden"] is True
    assert pages["install"]["urls"]["app"].endswith("/getting-started/install")
    assert pages["site"]["type"] == "link" and pages["site"]["href"] == "https://orbit.example"
    assert pages["intro"]["git"] == {"path": "README.md", "oid": "abc"}
    assert "markdown" not in pages["intro"] and "document" not in pages["intro"]
    lean = (
        world.client()
        .get(f"/spaces/{space['id']}/content/pages", params={"metadata": "false"})
        .json()
    )
    assert all("git" not in p for p in walk_pages(lean["pages"]))


def test_list_and_get_files(world: World, space: dict) -> None:
    c = world.client("rhea")
    listed = c.get(f"/spaces/{space['id']}/content/files").json()
    assert listed["count"] == 1
    file = listed["items"][0]
    assert file["name"] == "diagram.png" and file["contentType"] == "image/png"
    assert file["size"] == len(PNG_3x2) and file["dimensions"] == {"width": 3, "height": 2}
    assert file == c.get(f"/spaces/{space['id']}/content/files/f1").json()
    # the download URL serves the bytes with the content type
    download = world.anonymous().get(file["downloadURL"])
    assert download.status_code == 200 and download.content == PNG_3x2
    assert download.headers["content-type"] == "image/png"
    assert_error(c.get(f"/spaces/{space['id']}/content/files/nope"), 404, "file")
    assert_error(c.get(f"/spaces/{space['id']}/content/files", params={"limit": 1001}), 400)


def test_file_backlinks(world: World, space: dict) -> None:
    body = world.client().get(f"/spaces/{space['id']}/content/files/f1/backlinks").json()
    assert body["count"] == 1
    item = body["items"][0]
    assert item["kind"] == "page" and item["page"] == "intro" and item["file"] == "f1"
    assert item["space"] == space["id"] and item["organization"] == world.org
    assert item["versionContext"]["type"] == "revision"
    assert_error(world.client().get(f"/spaces/{space['id']}/content/files/x/backlinks"), 404)


# -- one page ---------------------------------------------------------------------------------------


def test_get_page_document_by_default_and_markdown_on_request(world: World, space: dict) -> None:
    c = world.client("rhea")
    doc = c.get(f"/spaces/{space['id']}/content/page/intro").json()
    assert doc["id"] == "intro" and doc["title"] == "Introduction" and doc["type"] == "document"
    assert doc["description"] == "Start here" and doc["slug"] == "intro"
    assert doc["layout"]["tableOfContents"] is True
    assert "markdown" not in doc
    assert doc["document"]["object"] == "document"
    types = [n["type"] for n in doc["document"]["nodes"]]
    assert types == ["paragraph", "images", "heading-2", "paragraph", "code"]
    assert doc["document"]["nodes"][4]["data"]["syntax"] == "bash"
    # links and images are content references, resolved against the revision
    refs = [
        n["data"]["ref"] for n in doc["document"]["nodes"][0]["nodes"] if n["object"] == "inline"
    ]
    assert refs[0] == {"kind": "page", "page": "install"}
    assert refs[1] == {"kind": "url", "url": "https://orbit.example/changelog"}
    assert refs[2] == {"kind": "page", "page": "install"}
    image = doc["document"]["nodes"][1]["nodes"][0]
    assert image["type"] == "image" and image["data"]["ref"]["kind"] == "file"
    same = c.get(f"/spaces/{space['id']}/content/page/intro", params={"format": "document"})
    assert same.json()["document"] == doc["document"]
    md = c.get(f"/spaces/{space['id']}/content/page/intro", params={"format": "markdown"}).json()
    assert md["markdown"].startswith("Welcome to **Orbit**") and "document" not in md
    assert_error(
        c.get(f"/spaces/{space['id']}/content/page/intro", params={"format": "pdf"}), 400, "format"
    )


def test_get_page_children_and_metadata_false(world: World, space: dict) -> None:
    c = world.client()
    gs = c.get(f"/spaces/{space['id']}/content/page/gs").json()
    assert [p["id"] for p in gs["pages"]] == ["install"]
    assert gs["git"]["path"] == "getting-started/README.md"
    lean = c.get(f"/spaces/{space['id']}/content/page/gs", params={"metadata": False}).json()
    assert "git" not in lean
    group = c.get(f"/spaces/{space['id']}/content/page/grp").json()
    assert group["type"] == "group" and "document" not in group


def test_get_page_by_path(world: World, space: dict) -> None:
    c = world.client("rhea")
    page = c.get(f"/spaces/{space['id']}/content/path/getting-started/install").json()
    assert page["id"] == "install" and "document" in page
    md = c.get(
        f"/spaces/{space['id']}/content/path/getting-started/install", params={"format": "markdown"}
    ).json()
    assert md["markdown"].startswith("Install with the script")
    assert_error(c.get(f"/spaces/{space['id']}/content/path/getting-started/nope"), 404, "page")


def test_unknown_page_and_space_are_404(world: World, space: dict) -> None:
    c = world.client()
    assert_error(c.get(f"/spaces/{space['id']}/content/page/nope"), 404, "page")
    assert_error(c.get(f"/spaces/{space['id']}/content/page/nope/links"), 404, "page")
    assert_error(c.get("/spaces/nope/content"), 404, "space")


def test_reading_needs_access(world: World, space: dict) -> None:
    # otto is not a member: the private space does not exist for him
    for path in ("content", "content/pages", "content/files", "content/page/intro", "links"):
        assert_error(world.client("otto").get(f"/spaces/{space['id']}/{path}"), 404, "space")
    assert_error(world.anonymous().get(f"/spaces/{space['id']}/content"), 401)


# -- links -----------------------------------------------------------------------------------------


def _by_target(items: list[dict]) -> dict[str, dict]:
    out = {}
    for item in items:
        ref = item["targetReference"]
        out[ref.get("url") or ref.get(ref["kind"])] = item
    return out


def test_page_links_statuses_and_stats(world: World, space: dict) -> None:
    body = world.client("rhea").get(f"/spaces/{space['id']}/content/page/intro/links").json()
    items = _by_target(body["items"])
    assert items["install"]["status"] == "in-app"  # relative .md path, by git path
    assert items["install"]["targetReference"]["kind"] == "page"
    assert items["https://orbit.example/changelog"]["status"] == "ok"
    assert items["nowhere.md"]["status"] == "broken"
    assert items["f1"]["status"] == "in-app" and items["f1"]["relation"] == "image"
    assert "code.md" not in items  # nothing inside code blocks
    # the relative link and /pages/install point to the same page: one item
    assert body["count"] == 4
    assert body["stats"] == {"total": 4, "broken": {"total": 1, "changeRequest": 0}}
    loc = items["install"]["locationReferences"]
    assert loc == [
        {
            "kind": "page",
            "organization": world.org,
            "space": space["id"],
            "versionContext": {
                "type": "revision",
                "revision": loc[0]["versionContext"]["revision"],
            },
            "page": "intro",
        }
    ]
    broken = (
        world.client()
        .get(f"/spaces/{space['id']}/content/page/intro/links", params={"status": "broken"})
        .json()
    )
    assert [i["targetReference"]["url"] for i in broken["items"]] == ["nowhere.md"]
    assert broken["stats"]["total"] == 4
    assert_error(
        world.client().get(
            f"/spaces/{space['id']}/content/page/intro/links", params={"status": "weird"}
        ),
        400,
        "status",
    )


def test_gitbook_blocks_are_links(world: World, space: dict) -> None:
    body = world.client().get(f"/spaces/{space['id']}/content/page/install/links").json()
    items = _by_target(body["items"])
    assert items["intro"]["relation"] == "content-ref" and items["intro"]["status"] == "in-app"
    assert items["https://www.youtube.com/watch?v=abc"]["relation"] == "embed"
    missing = items["../.gitbook/assets/missing.pdf"]
    assert missing["status"] == "broken" and missing["targetReference"]["kind"] == "file"


def test_space_links_over_all_pages(world: World, space: dict) -> None:
    c = world.client("rhea")
    body = c.get(f"/spaces/{space['id']}/links").json()
    items = _by_target(body["items"])
    assert body["stats"]["total"] == body["count"] == len(items)
    assert body["stats"]["broken"]["total"] == 2  # nowhere.md and missing.pdf
    assert [loc["page"] for loc in items["intro"]["locationReferences"]] == ["install"]
    in_app = c.get(f"/spaces/{space['id']}/links", params={"status": "in-app"}).json()
    assert {i["status"] for i in in_app["items"]} == {"in-app"}
    paged = c.get(f"/spaces/{space['id']}/links", params={"limit": 2}).json()
    assert len(paged["items"]) == 2 and "next" in paged


# -- change request variants ----------------------------------------------------------------------


def test_change_request_content_reads_its_revision(world: World, space: dict, cr: dict) -> None:
    c = world.client("rhea")
    base = f"/spaces/{space['id']}/change-requests/{cr['id']}"
    body = c.get(f"{base}/content").json()
    assert body["id"] == cr["revision"] and body["object"] == "revision"
    assert body["id"] != c.get(f"/spaces/{space['id']}").json()["revision"]
    by_number = c.get(f"/spaces/{space['id']}/change-requests/1/content").json()
    assert by_number["id"] == cr["revision"]
    pages = c.get(f"{base}/content/pages").json()["pages"]
    install = next(p for p in walk_pages(pages) if p["id"] == "install")
    assert "/~/changes/1/" in install["urls"]["app"]
    md = c.get(f"{base}/content/page/install", params={"format": "markdown"}).json()
    assert md["markdown"].startswith("Install with **brew**")
    main_md = c.get(
        f"/spaces/{space['id']}/content/page/install", params={"format": "markdown"}
    ).json()
    assert main_md["markdown"].startswith("Install with the script")
    doc = c.get(f"{base}/content/page/install").json()
    assert doc["document"]["nodes"][0]["type"] == "paragraph"
    assert "git" not in c.get(f"{base}/content/page/install", params={"metadata": 0}).json()
    by_path = c.get(f"{base}/content/path/getting-started/install").json()
    assert by_path["id"] == "install"


def test_change_request_files_and_backlinks(world: World, space: dict, make_space) -> None:
    rid = put_revision(
        world,
        space["id"],
        [{"id": "p", "title": "P", "markdown": "![x](.gitbook/assets/new.png)"}],
        files=[("f9", "new.png", PNG_3x2)],
        main=False,
    )
    cr = put_change_request(world, space["id"], rid, number=2)
    c = world.client("rhea")
    base = f"/spaces/{space['id']}/change-requests/{cr['number']}"
    assert [f["id"] for f in c.get(f"{base}/content/files").json()["items"]] == ["f9"]
    assert c.get(f"{base}/content/files/f9").json()["dimensions"] == {"width": 3, "height": 2}
    assert_error(c.get(f"{base}/content/files/f1"), 404, "file")  # main's file, not the CR's
    back = c.get(f"{base}/content/files/f9/backlinks").json()
    assert [b["page"] for b in back["items"]] == ["p"]
    assert back["items"][0]["versionContext"]["type"] == "changeRequest"


def test_change_request_links_count_broken_ones_it_introduces(
    world: World, space: dict, cr: dict
) -> None:
    base = f"/spaces/{space['id']}/change-requests/{cr['id']}"
    body = world.client().get(f"{base}/content/page/install/links").json()
    items = _by_target(body["items"])
    assert items["../gone.md"]["status"] == "broken"
    assert body["stats"] == {"total": 1, "broken": {"total": 1, "changeRequest": 1}}
    assert items["../gone.md"]["locationReferences"][0]["versionContext"] == {
        "type": "changeRequest",
        "changeRequest": cr["id"],
        "revision": cr["revision"],
    }


def test_change_request_404s(world: World, space: dict, cr: dict, make_space) -> None:
    c = world.client()
    assert_error(c.get(f"/spaces/{space['id']}/change-requests/99/content"), 404, "change request")
    other = make_space("Other")
    assert_error(c.get(f"/spaces/{other['id']}/change-requests/{cr['id']}/content"), 404)
    assert_error(
        c.get(f"/spaces/{space['id']}/change-requests/{cr['id']}/content/page/nope"), 404, "page"
    )
    assert_error(
        world.client("otto").get(f"/spaces/{space['id']}/change-requests/{cr['id']}/content"), 404
    )


# -- any revision of the space ---------------------------------------------------------------------


def test_revision_pages_and_page(world: World, space: dict, make_space) -> None:
    c = world.client("rhea")
    old = c.get(f"/spaces/{space['id']}").json()["revision"]
    put_revision(world, space["id"], [{"id": "only", "title": "Only page", "markdown": "New."}])
    assert [p["id"] for p in c.get(f"/spaces/{space['id']}/content/pages").json()["pages"]] == [
        "only"
    ]
    pages = c.get(f"/spaces/{space['id']}/revisions/{old}/pages").json()["pages"]
    assert [p["id"] for p in pages] == ["intro", "grp", "site"]
    assert f"/~/revisions/{old}/" in pages[0]["urls"]["app"]
    page = c.get(
        f"/spaces/{space['id']}/revisions/{old}/page/intro", params={"format": "markdown"}
    ).json()
    assert page["markdown"].startswith("Welcome")
    assert_error(c.get(f"/spaces/{space['id']}/revisions/{old}/page/only"), 404, "page")
    assert_error(c.get(f"/spaces/{space['id']}/revisions/nope/pages"), 404, "revision")
    other = make_space("Other")
    other_rev = c.get(f"/spaces/{other['id']}").json()["revision"]
    assert_error(c.get(f"/spaces/{space['id']}/revisions/{other_rev}/pages"), 404, "revision")


@pytest.mark.slow
def test_large_tree_and_large_page_stay_proportional(world: World, make_space) -> None:
    """A 2,000-page tree and an 8,000-section page are served in time proportional to their size.
    Slow: writes and reads that much content."""
    space = make_space("Big")
    children = [
        {"id": f"p{i}", "title": f"Page {i}", "slug": f"page-{i}", "markdown": f"Body {i}."}
        for i in range(2000)
    ]
    big = "\n\n".join(f"## Section {i}\n\n| a | b |\n|---|---|\n| {i} | x |" for i in range(8000))
    put_revision(
        world,
        space["id"],
        [{"id": "root", "title": "Root", "markdown": big, "pages": children}],
    )
    c = world.client()
    pages = c.get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    assert len(pages[0]["pages"]) == 2000 and pages[0]["pages"][1999]["path"] == "root/page-1999"
    doc = c.get(f"/spaces/{space['id']}/content/page/root").json()["document"]
    assert len(doc["nodes"]) == 16000
    assert c.get(f"/spaces/{space['id']}/content/path/root/page-1500").json()["id"] == "p1500"
