"""Client content operations (main, change request, past revision) against the local server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.api import AsyncGitBook, NotFoundError, PermissionDeniedError
from gitbook_tui.models import (
    Backlink,
    ChangeRequestContentChange,
    File,
    ImportResult,
    LinkItem,
    LinkList,
    Page,
    Revision,
    RevisionPage,
    RevisionPages,
    SpaceSearchItem,
)
from support.worlds import Clients

# The operator lets this server's imports read the tests' folders and loopback peers.
pytestmark = pytest.mark.local_fetches

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="20"><rect width="4"/></svg>'


def git_sync_folder(root: Path) -> Path:
    """A Git Sync folder: two pages (the first links to the second, to a missing page and
    to an image) and two image assets."""
    root.mkdir(parents=True, exist_ok=True)
    (root / ".gitbook.yaml").write_text(
        "root: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n"
    )
    (root / "SUMMARY.md").write_text(
        "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n"
    )
    (root / "README.md").write_text(
        "# Welcome\n\nOrbit moves **telemetry**. Read the [guide](guide.md) "
        "or the [old notes](old.md).\n\n![Chart](.gitbook/assets/chart.svg)\n"
    )
    (root / "guide.md").write_text("# Guide\n\nInstall the flux capacitor.\n")
    assets = root / ".gitbook" / "assets"
    assets.mkdir(parents=True)
    (assets / "chart.svg").write_text(SVG.format(w=40))
    (assets / "logo.svg").write_text(SVG.format(w=30))
    return root


@pytest.fixture
async def imported(gb: AsyncGitBook, world: Any, tmp_path: Path) -> dict[str, Any]:
    """A space filled by importing the Git Sync folder; its ids and revisions."""
    space = await gb.spaces.create_in_org(world.org, title="Orbit")
    folder = git_sync_folder(tmp_path / "repo")
    result = await gb.content.import_content(space.id, folder.as_uri(), "git-sync")
    assert isinstance(result, ImportResult)
    assert result.revision and result.importedResources and result.importedResources >= 2
    pages = {p.title: p for p in (await gb.content.pages(space.id)).pages}
    return {
        "space": space.id,
        "initial": space.revision,
        "revision": result.revision,
        "welcome": pages["Welcome"].id,
        "guide": pages["Guide"].id,
    }


async def test_import_and_revision(gb: AsyncGitBook, imported: dict[str, Any]) -> None:
    space = imported["space"]
    assert (await gb.spaces.get(space)).revision == imported["revision"]
    revision = await gb.content.revision(space)
    assert isinstance(revision, Revision) and revision.id == imported["revision"]
    assert [p.title for p in revision.pages] == ["Welcome", "Guide"]
    assert sorted(f.name or "" for f in revision.files) == ["chart.svg", "logo.svg"]
    lean = await gb.content.revision(space, metadata=False)
    assert lean.git is None and all(f.git is None for f in lean.files)


async def test_pages_files_and_backlinks(gb: AsyncGitBook, imported: dict[str, Any]) -> None:
    space = imported["space"]
    tree = await gb.content.pages(space)
    assert isinstance(tree, RevisionPages)
    assert [(p.title, p.path) for p in tree.pages] == [("Welcome", "welcome"), ("Guide", "guide")]

    first = await gb.content.files(space, limit=1)
    assert isinstance(first, Page) and len(first.items) == 1 and first.next is not None
    files = [f async for f in gb.content.files(space, limit=1)]  # two pages of one file
    assert all(isinstance(f, File) for f in files) and len(files) == 2
    chart = next(f for f in files if f.name == "chart.svg")
    one = await gb.content.file(space, chart.id)
    assert isinstance(one, File) and (one.id, one.contentType) == (chart.id, "image/svg+xml")

    backlinks = [b async for b in gb.content.file_backlinks(space, chart.id)]
    assert len(backlinks) == 1 and isinstance(backlinks[0], Backlink)
    assert (backlinks[0].page, backlinks[0].file) == (imported["welcome"], chart.id)
    logo = next(f for f in files if f.name == "logo.svg")
    assert await gb.content.file_backlinks(space, logo.id).to_list() == []
    with pytest.raises(NotFoundError):
        await gb.content.file(space, "no-such-file")


async def test_get_page_and_by_path(gb: AsyncGitBook, imported: dict[str, Any]) -> None:
    space, welcome = imported["space"], imported["welcome"]
    md = await gb.content.get_page(space, welcome, format="markdown")
    assert isinstance(md, RevisionPage) and md.title == "Welcome"
    assert md.markdown is not None and "Orbit moves **telemetry**" in md.markdown
    assert md.document is None
    doc = await gb.content.get_page(space, welcome)
    assert doc.markdown is None and doc.document is not None
    assert doc.document["object"] == "document"

    guide = await gb.content.page_by_path(space, "guide", format="markdown")
    assert isinstance(guide, RevisionPage) and guide.id == imported["guide"]
    assert "flux capacitor" in (guide.markdown or "")
    assert (await gb.content.page_by_path(space, "")).id == welcome  # the root: first page
    with pytest.raises(NotFoundError):
        await gb.content.get_page(space, "no-such-page")
    with pytest.raises(NotFoundError):
        await gb.content.page_by_path(space, "nowhere/at-all")


async def test_links(gb: AsyncGitBook, imported: dict[str, Any]) -> None:
    space, welcome = imported["space"], imported["welcome"]
    links = await gb.content.page_links(space, welcome)
    assert isinstance(links, LinkList) and links.stats is not None
    assert links.stats.total == 3 and links.stats.broken and links.stats.broken.total == 1
    assert all(isinstance(item, LinkItem) for item in links.items)
    broken = await gb.content.page_links(space, welcome, status="broken")
    assert [i.status for i in broken.items] == ["broken"]
    walked = [i async for i in gb.content.page_links(space, welcome, limit=1)]
    assert len(walked) == 3

    everywhere = await gb.spaces.links(space)
    assert isinstance(everywhere, LinkList) and everywhere.stats and everywhere.stats.total == 3
    in_app = [i async for i in gb.spaces.links(space, status="in-app", limit=1)]
    assert len(in_app) == 2 and {i.status for i in in_app} == {"in-app"}


async def test_search(gb: AsyncGitBook, imported: dict[str, Any]) -> None:
    hits = [h async for h in gb.content.search(imported["space"], "flux capacitor")]
    assert hits and isinstance(hits[0], SpaceSearchItem)
    assert hits[0].id == imported["guide"] and hits[0].title == "Guide"
    assert await gb.content.search(imported["space"], "zeppelin").to_list() == []


async def test_revision_pages(gb: AsyncGitBook, imported: dict[str, Any]) -> None:
    space = imported["space"]
    before = await gb.content.revision_pages(space, imported["initial"])
    assert isinstance(before, RevisionPages) and before.pages == []
    after = await gb.content.revision_pages(space, imported["revision"])
    assert [p.id for p in after.pages] == [imported["welcome"], imported["guide"]]
    page = await gb.content.revision_page(
        space, imported["revision"], imported["guide"], format="markdown"
    )
    assert isinstance(page, RevisionPage) and "flux capacitor" in (page.markdown or "")
    with pytest.raises(NotFoundError):
        await gb.content.revision_page(space, imported["initial"], imported["guide"])
    with pytest.raises(NotFoundError):
        await gb.content.revision_pages(space, "no-such-revision")


async def test_change_request_content(
    gb: AsyncGitBook, imported: dict[str, Any], tmp_path: Path
) -> None:
    """Every content read with ``change_request=`` (number or id) sees the CR's revision."""
    space = imported["space"]
    cr = await gb.change_requests.create(space, subject="More pages")
    edit = await gb.change_requests.edit_content(
        space,
        cr.id,
        [
            ChangeRequestContentChange.insert_markdown(
                "Extra", "See ![c](.gitbook/assets/chart.svg)"
            ),
            ChangeRequestContentChange.update_markdown(imported["guide"], "Rewritten guide."),
        ],
    )
    extra = next(c.page.id for c in edit.changes if c.object == "created_page" and c.page)
    n = cr.number
    assert n is not None

    revision = await gb.content.revision(space, change_request=n)
    assert revision.id != imported["revision"]
    assert [p.title for p in revision.pages] == ["Welcome", "Guide", "Extra"]
    assert [p.title for p in (await gb.content.pages(space)).pages] == ["Welcome", "Guide"]
    tree = await gb.content.pages(space, change_request=cr.id)
    assert [p.id for p in tree.pages][-1] == extra

    guide = await gb.content.get_page(space, imported["guide"], change_request=n, format="markdown")
    assert (guide.markdown or "").strip() == "Rewritten guide."
    main_guide = await gb.content.get_page(space, imported["guide"], format="markdown")
    assert "flux capacitor" in (main_guide.markdown or "")
    by_path = await gb.content.page_by_path(space, "extra", change_request=n)
    assert by_path.id == extra
    with pytest.raises(NotFoundError):
        await gb.content.page_by_path(space, "extra")

    files = await gb.content.files(space, change_request=n).to_list()
    chart = next(f for f in files if f.name == "chart.svg")
    assert (await gb.content.file(space, chart.id, change_request=n)).id == chart.id
    backlinks = await gb.content.file_backlinks(space, chart.id, change_request=n).to_list()
    assert sorted(b.page or "" for b in backlinks) == sorted([imported["welcome"], extra])
    assert all(b.versionContext and b.versionContext.type == "changeRequest" for b in backlinks)
    links = await gb.content.page_links(space, extra, change_request=n)
    assert links.stats and links.stats.total == 1 and links.items[0].status == "in-app"

    folder = git_sync_folder(tmp_path / "second")
    result = await gb.content.import_content(space, folder.as_uri(), "git-sync", change_request=n)
    assert isinstance(result, ImportResult)
    assert (await gb.change_requests.get(space, n)).revision == result.revision
    assert (await gb.spaces.get(space)).revision == imported["revision"]  # main unchanged
    with pytest.raises(NotFoundError):
        await gb.content.revision(space, change_request=999)


async def test_content_errors(connect: Clients, imported: dict[str, Any], tmp_path: Path) -> None:
    rhea = connect("rhea")  # read role: can read, cannot import
    assert [p.title for p in (await rhea.content.pages(imported["space"])).pages] == [
        "Welcome",
        "Guide",
    ]
    with pytest.raises(PermissionDeniedError) as denied:
        folder = git_sync_folder(tmp_path / "denied")
        await rhea.content.import_content(imported["space"], folder.as_uri(), "git-sync")
    assert "edit" in denied.value.message
    otto = connect("otto")  # not a member: the space does not exist for them
    with pytest.raises(NotFoundError):
        await otto.content.revision(imported["space"])
