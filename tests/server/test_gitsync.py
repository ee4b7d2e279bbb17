"""The Git Sync folder importer: SUMMARY.md trees, front matter, assets; file:// and http."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.server.content.store import create_revision, get_revision
from gitbook_tui.server.importers.gitsync import (
    SimpleCtx,
    build_tree_from_folder,
    import_folder_as_new_space,
    import_folder_into_space,
    parse_simple_yaml,
    parse_summary,
    split_front_matter,
)
from support.asserts import assert_error
from support.local_http import local_http, walk_pages
from support.worlds import World

# The operator lets this server's imports read the tests' folders and loopback peers.
pytestmark = pytest.mark.local_fetches

FIXTURE = Path(__file__).parent / "fixtures" / "gitsync-basic"


def _shape(pages: list[dict]) -> list[Any]:
    return [
        (p["type"], p.get("slug"), p["title"], _shape(p.get("pages", []))) if p.get("pages") else
        (p["type"], p.get("slug"), p["title"])
        for p in pages
    ]  # fmt: skip


EXPECTED_SHAPE = [
    ("document", "welcome", "Welcome"),
    ("group", "getting-started", "Getting started", [
        ("document", "getting-started", "Getting started", [
            ("document", "install", "Install the CLI", [
                ("document", "advanced", "Advanced setup"),
            ]),
        ]),
    ]),
    ("group", "reference", "Reference", [
        ("document", "secret", "Secret notes"),
        ("document", "missing", "Missing page"),
        ("link", None, "Project site"),
    ]),
]  # fmt: skip


# -- parsing without a database --------------------------------------------------------------------


def test_build_tree_from_folder() -> None:
    pages, files = build_tree_from_folder(FIXTURE, now="2026-11-01T09:00:00.000Z")
    assert _shape(pages) == EXPECTED_SHAPE
    by_slug = {p.get("slug") or p["title"]: p for p in walk_pages(pages)}
    welcome = by_slug["welcome"]
    assert welcome["emoji"] == "👋" and welcome["description"] == "Start here to learn about Orbit."
    assert welcome["markdown"].startswith("Orbit moves **telemetry**")  # front matter, H1 gone
    assert welcome["git"]["path"] == "docs/README.md" and len(welcome["git"]["oid"]) == 40
    assert by_slug["getting-started"]["icon"] in (None, "rocket")
    gs = pages[1]["pages"][0]
    assert gs["icon"] == "rocket" and gs["slug"] == "getting-started"
    assert by_slug["install"]["layout"] == {"title": True, "tableOfContents": False}
    assert by_slug["advanced"]["hidden"] is True and by_slug["advanced"]["icon"] == "gear"
    assert by_slug["secret"]["noIndex"] is True
    assert by_slug["missing"]["markdown"] == ""
    assert by_slug["Project site"]["href"] == "https://example.com/project"
    assert "[advanced setup](../guides/advanced.md)" in by_slug["install"]["markdown"]
    assert by_slug["install"]["createdAt"] == "2026-11-01T09:00:00.000Z"
    assert sorted((meta["name"], len(data)) for meta, data in files) == [
        ("chart.svg", (FIXTURE / "docs/.gitbook/assets/chart.svg").stat().st_size),
        ("diagram.png", 73),
        ("logo.gif", 36),
        ("photo.jpg", 35),
    ]


def test_yaml_front_matter_and_summary_parsers() -> None:
    assert parse_simple_yaml(
        "# c\nroot: ./docs/\nstructure:\n  readme: 'intro.md'\n  summary: toc.md # x\nflag: true\n"
    ) == {
        "root": "./docs/",
        "structure": {"readme": "intro.md", "summary": "toc.md"},
        "flag": True,
    }
    meta, body = split_front_matter("---\nhidden: true\nemoji: 🎯\n---\n\n# T\nx")
    assert meta == {"hidden": True, "emoji": "🎯"} and body == "\n# T\nx"
    assert split_front_matter("# no front matter") == ({}, "# no front matter")
    entries = parse_summary(
        "# Summary\n\n* [A](a.md)\n    * [B \\[beta\\]](<b c.md>)\n* Plain\n\n## G\n\n"
        "- [Ext](https://x.test)\n"
    )
    assert [(e.kind, e.title, e.target) for e in entries] == [
        ("document", "A", "a.md"),
        ("document", "Plain", None),
        ("group", "G", None),
    ]
    assert [(e.title, e.target) for e in entries[0].children] == [("B [beta]", "b c.md")]
    assert [(e.kind, e.target) for e in entries[2].children] == [("link", "https://x.test")]


def test_folder_without_summary_follows_the_folders(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# Home\n\nHi.\n")
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "README.md").write_text("# Guide\n")
    (tmp_path / "guide" / "step.md").write_text("# Step one\n")
    (tmp_path / "misc").mkdir()
    (tmp_path / "misc" / "note.md").write_text("---\ndescription: d\n---\n# Note\n")
    pages, files = build_tree_from_folder(tmp_path)
    assert _shape(pages) == [
        ("document", "home", "Home"),
        ("document", "guide", "Guide", [("document", "step", "Step one")]),
        ("group", "misc", "Misc", [("document", "note", "Note")]),
    ]
    assert files == []


# -- through the API ---------------------------------------------------------------------------------


def _import(world: World, space_id: str, url: str, source: str = "github", user: str = "eve"):
    return world.client(user).post(
        f"/spaces/{space_id}/content/import", json={"url": url, "source": source}
    )


def test_file_url_import_replaces_the_space_content(world: World, make_space) -> None:
    space = make_space("Orbit")
    c = world.client("eve")
    first = _import(world, space["id"], FIXTURE.as_uri())
    assert first.status_code == 201, first.text
    assert first.json()["importedResources"] == 12  # 8 entries read + 4 assets; missing.md not
    assert first.json()["totalResources"] == 13
    assert c.get(f"/spaces/{space['id']}").json()["revision"] == first.json()["revision"]
    pages = c.get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    assert _shape(pages) == EXPECTED_SHAPE
    flat = {p.get("slug") or p["title"]: p for p in walk_pages(pages)}
    assert flat["install"]["path"] == "getting-started/install"
    assert flat["advanced"]["path"] == "getting-started/install/advanced"
    assert flat["advanced"]["hidden"] is True
    assert flat["Project site"]["href"] == "https://example.com/project"
    assert flat["install"]["layout"]["tableOfContents"] is False
    assert flat["install"]["description"] == "Install the orbit CLI."
    files = {f["name"]: f for f in c.get(f"/spaces/{space['id']}/content/files").json()["items"]}
    assert files["diagram.png"]["dimensions"] == {"width": 3, "height": 2}
    assert files["logo.gif"]["dimensions"] == {"width": 4, "height": 5}
    assert files["photo.jpg"]["dimensions"] == {"width": 48, "height": 24}
    assert files["chart.svg"]["dimensions"] == {"width": 120, "height": 80}
    assert files["chart.svg"]["contentType"] == "image/svg+xml"
    download = world.anonymous().get(files["logo.gif"]["downloadURL"])
    assert download.headers["content-type"] == "image/gif" and download.content.startswith(
        b"GIF89a"
    )
    # relative links and assets resolve inside the imported tree
    links = c.get(f"/spaces/{space['id']}/content/page/{flat['install']['id']}/links").json()
    status = {
        (i["targetReference"].get("url") or i["targetReference"].get("page") or
         i["targetReference"].get("file")): i["status"]
        for i in links["items"]
    }  # fmt: skip
    assert status[flat["advanced"]["id"]] == "in-app"
    assert status["../old-guide.md"] == "broken"
    assert status[files["chart.svg"]["id"]] == "in-app"
    assert status[files["logo.gif"]["id"]] == "in-app"
    assert status["https://orbit.example/releases"] == "ok"
    backlinks = c.get(
        f"/spaces/{space['id']}/content/files/{files['diagram.png']['id']}/backlinks"
    ).json()
    assert [b["page"] for b in backlinks["items"]] == [flat["welcome"]["id"]]
    # searchable: hidden pages yes, noIndex pages no
    search = c.get(f"/spaces/{space['id']}/search", params={"query": "flux capacitor"}).json()
    assert [i["id"] for i in search["items"]] == [flat["advanced"]["id"]]
    assert (
        c.get(f"/spaces/{space['id']}/search", params={"query": "plutonium"}).json()["count"] == 0
    )
    # importing again replaces everything (new page ids, same shape)
    second = _import(world, space["id"], FIXTURE.as_uri(), "website")
    assert second.status_code == 201
    again = c.get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    assert _shape(again) == EXPECTED_SHAPE
    assert again[0]["id"] != pages[0]["id"]
    content = c.get(f"/spaces/{space['id']}/content").json()
    assert content["parents"] == [first.json()["revision"]]


@pytest.fixture(scope="module")
def served_fixture() -> Iterator[str]:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

    with local_http(partial(Quiet, directory=str(FIXTURE))) as base:
        yield base


def test_http_git_sync_folder_import(world: World, make_space, served_fixture: str) -> None:
    space = make_space("Orbit")
    r = _import(world, space["id"], f"{served_fixture}/", "website")
    assert r.status_code == 201, r.text
    c = world.client()
    pages = c.get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    assert _shape(pages) == EXPECTED_SHAPE
    # an HTTP folder cannot be listed: the assets referenced by pages are fetched
    names = sorted(f["name"] for f in c.get(f"/spaces/{space['id']}/content/files").json()["items"])
    assert names == ["chart.svg", "diagram.png", "logo.gif"]
    by_yaml = _import(world, space["id"], f"{served_fixture}/.gitbook.yaml", "git-sync")
    assert by_yaml.status_code == 201
    install = next(p for p in walk_pages(pages) if p.get("slug") == "install")
    md = c.get(
        f"/spaces/{space['id']}/content/path/getting-started/install", params={"format": "markdown"}
    ).json()
    assert md["title"] == install["title"] and "## Linux" in md["markdown"]


def test_git_sync_import_into_change_request(world: World, make_space) -> None:
    space = make_space("Orbit")
    with world.storage.transaction() as tx:
        record = tx.get("space", space["id"])
        tx.put(
            "change-request",
            "cr-g",
            {
                "id": "cr-g",
                "number": 4,
                "space": space["id"],
                "status": "draft",
                "subject": "Sync",
                "createdBy": world.users["eve"],
                "createdAt": "2026-11-01T09:00:00.000Z",
                "updatedAt": "2026-11-01T09:00:00.000Z",
                "revision": record["revision"],
                "revisionInitial": record["revision"],
                "revisionMergedAncestor": record["revision"],
                "revisionMerged": None,
            },
            scope=space["id"],
        )
    r = world.client("eve").post(
        f"/spaces/{space['id']}/change-requests/4/content/import",
        json={"url": FIXTURE.as_uri(), "source": "github"},
    )
    assert r.status_code == 201, r.text
    c = world.client("rhea")
    assert c.get(f"/spaces/{space['id']}/content/pages").json()["pages"] == []
    cr_pages = c.get(f"/spaces/{space['id']}/change-requests/4/content/pages").json()["pages"]
    assert _shape(cr_pages) == EXPECTED_SHAPE
    assert_error(
        world.client("rhea").post(
            f"/spaces/{space['id']}/change-requests/4/content/import",
            json={"url": FIXTURE.as_uri(), "source": "github"},
        ),
        403,
    )


def test_not_a_git_sync_folder(world: World, make_space, tmp_path: Path) -> None:
    space = make_space("Orbit")
    assert_error(_import(world, space["id"], tmp_path.as_uri()), 400, "not a git sync folder")
    assert_error(
        _import(world, space["id"], (tmp_path / "nope").as_uri(), "website"), 400, "no such file"
    )
    (tmp_path / "page.md").write_text("# Single\n\nOne page.\n")
    single = _import(world, space["id"], (tmp_path / "page.md").as_uri(), "website")
    assert single.status_code == 201 and single.json()["importedResources"] == 1
    assert [p["title"] for p in world.client().get(
        f"/spaces/{space['id']}/content/pages").json()["pages"]] == ["Single"]  # fmt: skip


# -- without HTTP (seeder and CLI) ------------------------------------------------------------------


def test_import_folder_into_space_directly(world: World, make_space) -> None:
    space = make_space("Orbit")
    with world.storage.transaction() as tx:
        record = tx.get("space", space["id"])
        ctx = SimpleCtx(world.storage, world.clock, world.users["alice"])
        result = import_folder_into_space(tx, ctx, record, FIXTURE)
    assert result["importedResources"] == 12 and result["totalResources"] == 13
    body = world.client().get(f"/spaces/{space['id']}/content").json()
    assert body["id"] == result["revision"] and _shape(body["pages"]) == EXPECTED_SHAPE
    assert len(body["files"]) == 4


def test_import_folder_as_new_space(world: World) -> None:
    with world.storage.transaction() as tx:
        tx.set_meta("owner", world.users["alice"])
    space = import_folder_as_new_space(world.app, FIXTURE, org_id=world.org)
    got = world.client().get(f"/spaces/{space['id']}").json()
    assert got["title"] == "Welcome" and got["visibility"] == "private"
    pages = world.client().get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    assert _shape(pages) == EXPECTED_SHAPE


# -- GitBook exports: reusable contents, computed pages, warnings -------------------------------

EXPORT = Path(__file__).resolve().parents[1] / "fixtures" / "gitbook-export"


def test_gitbook_export_import_fills_reusable_contents(world: World, make_space) -> None:
    space = make_space("Relay")
    c = world.client("eve")
    result = _import(world, space["id"], EXPORT.as_uri())
    assert result.status_code == 201, result.text
    assert any("front matter not read" in w for w in result.json()["warnings"])
    content = c.get(f"/spaces/{space['id']}/content").json()
    [reusable] = content["reusableContents"]
    assert reusable["title"] == "Support hint"
    assert reusable["git"]["path"] == ".gitbook/includes/support-hint.md"
    one = c.get(f"/spaces/{space['id']}/content/reusable-contents/{reusable['id']}")
    assert one.status_code == 200 and one.json()["id"] == reusable["id"]
    document = c.get(
        f"/spaces/{space['id']}/revisions/{content['id']}"
        f"/reusable-contents/{reusable['id']}/document"
    )
    assert document.status_code == 200
    assert document.json()["object"] == "document"
    assert "support@example.com" in document.text
    missing = c.get(f"/spaces/{space['id']}/content/reusable-contents/nope")
    assert_error(missing, 404)
    # the computed entry is a typed "computed" page with its source
    pages = walk_pages(c.get(f"/spaces/{space['id']}/content/pages").json()["pages"])
    computed = next(p for p in pages if p["type"] == "computed")
    assert computed["computed"]["type"] == "builtin:openapi"
    # a revision written on top of it (an edit) keeps the reusable contents
    with world.storage.transaction() as tx:
        parent = get_revision(tx, content["id"])
        create_revision(
            tx,
            revision_id="edit-1",
            space_id=space["id"],
            parents=[content["id"]],
            pages=parent["pages"],
            files=parent["files"],
            type="edits",
            created_at="2026-11-01T09:00:00Z",
        )
        assert [r["id"] for r in get_revision(tx, "edit-1")["reusableContents"]] == [reusable["id"]]


async def test_client_reads_reusable_content_as_markdown(world: World, make_space, gb) -> None:
    from gitbook_tui.api.content import document_markdown

    space = make_space("Relay")
    assert _import(world, space["id"], EXPORT.as_uri()).status_code == 201
    revision = await gb.content.revision(space["id"])
    [reusable] = revision.reusableContents
    item = await gb.content.reusable_content(space["id"], reusable.id)
    assert item.title == "Support hint"
    body = await gb.content.reusable_content_document(space["id"], revision.id, reusable.id)
    markdown = document_markdown(body)
    assert markdown.startswith('{% hint style="info" %}')
    assert "**support@example.com**" in markdown


@pytest.mark.slow
def test_serve_import_error_is_one_line_without_traceback(tmp_path: Path) -> None:
    import subprocess
    import sys

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / ".gitbook.yaml").write_text("root: ../../elsewhere\n")
    (docs / "SUMMARY.md").write_text("* [A](a.md)\n")
    done = subprocess.run(
        [sys.executable, "-m", "gitbook_tui.cli", "serve", "--import", str(docs),
         "--db", str(tmp_path / "x.sqlite")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("root must stay inside the folder")
