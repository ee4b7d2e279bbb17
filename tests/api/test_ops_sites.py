"""Client site operations against the in-process local server: every method, with errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.api import (
    AsyncGitBook,
    BadRequestError,
    NotFoundError,
    PermissionDeniedError,
    response_meta,
)
from gitbook_tui.api.resource import NULL
from gitbook_tui.cache import ResponseCache
from gitbook_tui.models import (
    Page,
    PublishedSite,
    RedirectDestination,
    Site,
    SiteAdaptiveSchema,
    SiteRedirect,
    SiteRedirectLookup,
    SiteSection,
    SiteSpace,
    Space,
    TemplateCondition,
)
from support.builders import ids
from support.worlds import Clients


async def test_site_create_list_get_update_delete(
    gb: AsyncGitBook, world: Any, make_space: Callable[..., dict]
) -> None:
    org = world.org
    space = make_space("Guide")
    site = await gb.sites.create(org, title="Docs Site", spaces=[space["id"]], visibility="public")
    assert isinstance(site, Site)
    assert (site.title, site.published, site.siteSpaces) == ("Docs Site", False, 1)
    other = await gb.sites.create(org, title="Other", type="basic")

    first = await gb.sites.list(org, limit=1)
    assert isinstance(first, Page) and len(first.items) == 1 and first.next is not None
    assert await ids(gb.sites.list(org)) == [site.id, other.id]
    assert await ids(gb.sites.list(org, max_items=1)) == [site.id]
    assert await ids(gb.sites.list(org, title="docs")) == [site.id]
    assert await ids(gb.sites.list(org, space=space["id"])) == [site.id]
    assert await ids(gb.sites.list(org, published=True)) == []
    assert await ids(gb.sites.list(org, type=["basic", "premium"])) == [site.id, other.id]
    assert await ids(gb.sites.list(org, type=["premium"])) == []

    got = await gb.sites.get(org, site.id)
    assert isinstance(got, Site) and got.id == site.id and got.basename == "docs-site"

    updated = await gb.sites.update(
        org,
        site.id,
        title="Renamed",
        visibility="unlisted",
        basename="handbook",
        adaptive_content=True,
        agents_context="excluded",
        default_level="read",
        proxy="acme.test/docs",
    )
    assert updated.title == "Renamed" and updated.basename == "handbook"
    assert updated.adaptiveContent is not None and updated.adaptiveContent.enabled is True
    again = await gb.sites.get(org, site.id)
    assert (again.visibility, again.agentsContext, again.defaultLevel) == (
        "unlisted",
        "excluded",
        "read",
    )
    assert again.proxy is not None and again.proxy.origin == "acme.test/docs"

    removed = await gb.sites.update(org, site.id, proxy=NULL)
    assert removed.proxy is None and (await gb.sites.get(org, site.id)).proxy is None
    assert (await gb.sites.get(org, site.id)).title == "Renamed"  # omitted: unchanged

    fresh = await gb.sites.create(org, title="With space", create_space=True)
    assert fresh.siteSpaces == 1
    [made] = [ss async for ss in gb.sites.list_site_spaces(org, fresh.id)]
    assert isinstance(made.space, Space) and made.space.title == "With space"

    await gb.sites.delete(org, other.id)
    with pytest.raises(NotFoundError):
        await gb.sites.get(org, other.id)
    assert other.id not in await ids(gb.sites.list(org))


async def test_site_errors(gb: AsyncGitBook, connect: Clients, world: Any) -> None:
    org = world.org
    site = await gb.sites.create(org, title="Guarded")
    with pytest.raises(NotFoundError):
        await gb.sites.get(org, "no-such-site")
    with pytest.raises(NotFoundError):
        await connect("otto").sites.get(org, site.id)
    reader = connect("rhea")
    assert (await reader.sites.get(org, site.id)).id == site.id
    with pytest.raises(PermissionDeniedError):
        await reader.sites.update(org, site.id, title="Mine now")
    with pytest.raises(PermissionDeniedError):
        await reader.sites.publish(org, site.id)
    with pytest.raises(PermissionDeniedError):
        await reader.sites.create(org, title="Nope")
    with pytest.raises(BadRequestError) as info:
        await gb.sites.update(org, site.id, proxy="not a proxy")
    assert "proxy" in info.value.message
    assert (await gb.sites.get(org, site.id)).title == "Guarded"


async def test_adaptive_schema_and_template_conditions(gb: AsyncGitBook, world: Any) -> None:
    org = world.org
    site = await gb.sites.create(org, title="Adaptive")
    schema = await gb.sites.adaptive_schema(org, site.id)
    assert isinstance(schema, SiteAdaptiveSchema)
    assert schema.jsonSchema["type"] == "object"
    assert await gb.sites.template_conditions(org, site.id) == []

    new_schema = {
        "type": "object",
        "properties": {
            "unsigned": {
                "type": "object",
                "properties": {"beta": {"type": "boolean", "description": "Beta tester"}},
                "additionalProperties": False,
            },
            "paid": {"type": "boolean"},
        },
        "additionalProperties": False,
    }
    saved = await gb.sites.set_adaptive_schema(org, site.id, new_schema)
    assert saved.jsonSchema == new_schema
    assert (await gb.sites.adaptive_schema(org, site.id)).jsonSchema == new_schema
    conditions = await gb.sites.template_conditions(org, site.id)
    assert all(isinstance(c, TemplateCondition) for c in conditions)
    assert [c.condition for c in conditions] == [
        "visitor.claims.unsigned.beta == true",
        "visitor.claims.paid == true",
    ]
    assert conditions[0].description == "Beta tester"

    with pytest.raises(BadRequestError) as info:
        await gb.sites.set_adaptive_schema(org, site.id, {"type": "array"})
    assert "jsonSchema" in info.value.message


async def test_publish_published_unpublish(
    gb: AsyncGitBook, world: Any, make_space: Callable[..., dict]
) -> None:
    org = world.org
    space = make_space("Published guide")
    site = await gb.sites.create(org, title="Public", spaces=[space["id"]])
    with pytest.raises(NotFoundError):
        await gb.sites.published(org, site.id)

    published = await gb.sites.publish(org, site.id)
    assert isinstance(published, Site) and published.published is True
    assert published.urls is not None and published.urls.published
    assert await ids(gb.sites.list(org, published=True)) == [site.id]

    profile = await gb.sites.published(org, site.id)
    assert isinstance(profile, PublishedSite)
    assert profile.site is not None and profile.site.id == site.id
    assert profile.structure is not None and profile.structure.type == "siteSpaces"
    [entry] = profile.structure.structure
    assert isinstance(entry, SiteSpace) and isinstance(entry.space, Space)
    assert entry.space.id == space["id"]
    assert profile.customizations is not None and profile.customizations.site is not None

    unpublished = await gb.sites.unpublish(org, site.id)
    assert unpublished.published is False
    assert (await gb.sites.get(org, site.id)).published is False
    with pytest.raises(NotFoundError):
        await gb.sites.published(org, site.id)


async def test_publish_invalidates_cached_reads(
    connect: Clients, world: Any, tmp_path: Path
) -> None:
    org = world.org
    gb = connect("alice", cache=ResponseCache(tmp_path / "cache.sqlite"))
    site = await gb.sites.create(org, title="Cached")
    assert (await gb.sites.get(org, site.id)).published is False
    assert [s.published async for s in gb.sites.list(org)] == [False]
    await gb.sites.publish(org, site.id)
    cached = await gb.sites.get(org, site.id, read="prefer-cache")
    meta = response_meta(cached)
    assert meta is not None and meta.source == "network" and cached.published is True
    listed = await gb.sites.list(org, read="prefer-cache")
    assert [s.published for s in listed.items] == [True]


async def test_sections(gb: AsyncGitBook, world: Any, make_space: Callable[..., dict]) -> None:
    org = world.org
    first, second = make_space("First"), make_space("Second")
    site = await gb.sites.create(org, title="Sectioned", spaces=[first["id"]])

    added = await gb.sites.create_section(org, site.id, second["id"], title="Second part")
    assert isinstance(added, SiteSection)
    assert added.title == "Second part" and added.default is False
    [member] = added.siteSpaces
    assert isinstance(member.space, Space) and member.space.id == second["id"]
    sections = [s async for s in gb.sites.list_sections(org, site.id)]
    assert len(sections) == 2 and sections[0].default is True  # root site spaces gathered
    assert sections[1].id == added.id

    new = await gb.sites.create_section(
        org, site.id, None, title="Brand new", icon="rocket", description="Made here"
    )
    assert isinstance(new.siteSpaces[0].space, Space)
    assert new.siteSpaces[0].space.title == "Brand new"
    assert (new.icon, new.description) == ("rocket", "Made here")
    assert await ids(gb.sites.list_sections(org, site.id)) == [sections[0].id, added.id, new.id]
    assert len((await gb.sites.list_sections(org, site.id, limit=2)).items) == 2

    condition = "visitor.claims.unsigned.beta == true"
    changed = await gb.sites.update_section(
        org, site.id, added.id, title="Renamed part", path="renamed", condition=condition
    )
    assert (changed.title, changed.path, changed.condition) == (
        "Renamed part",
        "renamed",
        condition,
    )
    kept = await gb.sites.update_section(org, site.id, added.id, description="Still there")
    assert kept.condition == condition and kept.description == "Still there"
    cleared = await gb.sites.update_section(org, site.id, added.id, condition=NULL)
    assert cleared.condition is None
    [read_back] = [s async for s in gb.sites.list_sections(org, site.id) if s.id == added.id]
    assert (read_back.title, read_back.path, read_back.condition) == (
        "Renamed part",
        "renamed",
        None,
    )

    moved = await gb.sites.move_section(org, site.id, new.id, before=sections[0].id)
    assert isinstance(moved, SiteSection) and moved.id == new.id
    assert await ids(gb.sites.list_sections(org, site.id)) == [new.id, sections[0].id, added.id]
    await gb.sites.move_section(org, site.id, new.id, after=added.id)
    assert await ids(gb.sites.list_sections(org, site.id)) == [sections[0].id, added.id, new.id]
    with pytest.raises(ValueError, match="before"):
        await gb.sites.move_section(org, site.id, new.id)
    with pytest.raises(BadRequestError):
        await gb.sites.move_section(org, site.id, new.id, before=new.id)

    await gb.sites.delete_section(org, site.id, new.id)
    assert await ids(gb.sites.list_sections(org, site.id)) == [sections[0].id, added.id]
    with pytest.raises(NotFoundError):
        await gb.sites.update_section(org, site.id, new.id, title="Gone")


async def test_site_spaces(
    gb: AsyncGitBook, connect: Clients, world: Any, make_space: Callable[..., dict]
) -> None:
    org = world.org
    one, two, three, four = (make_space(t) for t in ("One", "Two", "Three", "Four"))
    site = await gb.sites.create(org, title="Variants", spaces=[one["id"]])
    [default] = [ss async for ss in gb.sites.list_site_spaces(org, site.id)]

    added = await gb.sites.create_site_space(org, site.id, two["id"], title="Second variant")
    assert isinstance(added, SiteSpace)
    assert (added.title, added.default, added.section) == ("Second variant", False, None)
    assert isinstance(added.space, Space) and added.space.id == two["id"]
    third = await gb.sites.create_site_space(org, site.id, three["id"], draft=True)
    assert third.draft is True
    blank = await gb.sites.create_site_space(org, site.id, None, title="Blank variant")
    assert isinstance(blank.space, Space) and blank.space.title == "Blank variant"

    order = [default.id, added.id, third.id, blank.id]
    assert await ids(gb.sites.list_site_spaces(org, site.id)) == order
    assert await ids(gb.sites.list_site_spaces(org, site.id, default=True)) == [default.id]
    assert await ids(gb.sites.list_site_spaces(org, site.id, default=False)) == order[1:]
    assert (await gb.sites.get(org, site.id)).siteSpaces == 4

    condition = "visitor.claims.paid == true"
    changed = await gb.sites.update_site_space(
        org, site.id, added.id, path="v2", condition=condition, hidden=True
    )
    assert (changed.path, changed.condition, changed.hidden) == ("v2", condition, True)
    swapped = await gb.sites.update_site_space(org, site.id, blank.id, space_id=four["id"])
    assert isinstance(swapped.space, Space) and swapped.space.id == four["id"]
    cleared = await gb.sites.update_site_space(org, site.id, added.id, condition=NULL)
    assert cleared.condition is None and cleared.path == "v2"
    [read_back] = [ss async for ss in gb.sites.list_site_spaces(org, site.id) if ss.id == added.id]
    assert (read_back.path, read_back.condition, read_back.hidden) == ("v2", None, True)

    moved = await gb.sites.move_site_space(org, site.id, blank.id, before=added.id)
    assert moved.id == blank.id
    order = [default.id, blank.id, added.id, third.id]
    assert await ids(gb.sites.list_site_spaces(org, site.id)) == order
    await gb.sites.move_site_space(org, site.id, default.id, after=third.id)
    assert await ids(gb.sites.list_site_spaces(org, site.id)) == [*order[1:], default.id]

    await gb.sites.delete_site_space(org, site.id, third.id)
    assert third.id not in await ids(gb.sites.list_site_spaces(org, site.id))
    # deleting it again: nothing to delete, 204 (the server's deletion rule)
    assert await gb.sites.delete_site_space(org, site.id, third.id) is None
    reader = connect("rhea")
    assert await ids(reader.sites.list_site_spaces(org, site.id)) == [
        blank.id,
        added.id,
        default.id,
    ]
    with pytest.raises(PermissionDeniedError):
        await reader.sites.create_site_space(org, site.id, two["id"])
    with pytest.raises(PermissionDeniedError):
        await reader.sites.move_site_space(org, site.id, blank.id, after=default.id)


async def test_redirects(
    gb: AsyncGitBook, connect: Clients, world: Any, make_space: Callable[..., dict]
) -> None:
    org = world.org
    guide, api = make_space("Guide"), make_space("API")
    site = await gb.sites.create(org, title="Redirecting", spaces=[guide["id"]])
    section = await gb.sites.create_section(org, site.id, api["id"], title="API docs")
    [ss] = section.siteSpaces

    first = await gb.sites.create_redirect(
        org, site.id, "/old-api", {"kind": "site-section", "siteSectionId": section.id}
    )
    assert isinstance(first, SiteRedirect) and first.source == "/old-api"
    assert first.destination is not None and first.destination.siteSectionId == section.id
    second = await gb.sites.create_redirect(
        org,
        site.id,
        "/legacy/page",
        RedirectDestination(kind="site-space", siteSpaceId=ss.id),
        permanent=True,
        capture_wildcard=True,
    )
    assert (second.permanent, second.captureWildcard) == (True, True)
    draft = await gb.sites.create_redirect(
        org,
        site.id,
        "/draft",
        {"kind": "external", "url": "http://127.0.0.1/elsewhere"},
        draft=True,
    )
    assert draft.draft is True

    assert await ids(gb.sites.list_redirects(org, site.id)) == [first.id, second.id]
    assert await ids(gb.sites.list_redirects(org, site.id, draft=True)) == [draft.id]
    assert await ids(gb.sites.list_redirects(org, site.id, search="legacy")) == [second.id]
    by_source = gb.sites.list_redirects(org, site.id, order_by="source")
    assert await ids(by_source) == [second.id, first.id]

    found = await gb.sites.lookup_redirect(org, site.id, "/old-api")
    assert isinstance(found, SiteRedirectLookup)
    assert found.redirect is not None and found.redirect.id == first.id
    assert found.target is not None and found.target.endswith("/api-docs")

    updated = await gb.sites.update_redirect(
        org,
        site.id,
        first.id,
        source="/older-api",
        destination={"kind": "site-space", "siteSpaceId": ss.id},
        permanent=True,
    )
    assert updated.source == "/older-api" and updated.permanent is True
    assert updated.destination is not None and updated.destination.kind == "site-space"
    [read_back] = [r async for r in gb.sites.list_redirects(org, site.id) if r.id == first.id]
    assert (read_back.source, read_back.permanent) == ("/older-api", True)
    assert (await gb.sites.lookup_redirect(org, site.id, "/older-api")).redirect is not None
    with pytest.raises(NotFoundError):
        await gb.sites.lookup_redirect(org, site.id, "/old-api")
    with pytest.raises(NotFoundError):
        await gb.sites.lookup_redirect(org, site.id, "/draft")  # drafts are not live

    await gb.sites.delete_redirect(org, site.id, first.id)
    assert await ids(gb.sites.list_redirects(org, site.id)) == [second.id]
    with pytest.raises(NotFoundError):
        await gb.sites.lookup_redirect(org, site.id, "/older-api")
    assert await gb.sites.delete_redirect(org, site.id, first.id) is None  # nothing left

    with pytest.raises(BadRequestError) as info:
        await gb.sites.create_redirect(
            org, site.id, "no leading slash", {"kind": "site-space", "siteSpaceId": ss.id}
        )
    assert "source" in info.value.message
    with pytest.raises(BadRequestError) as info:
        await gb.sites.lookup_redirect(org, site.id, "not a path")
    assert "source" in info.value.message
    with pytest.raises(BadRequestError) as info:
        await gb.sites.update_redirect(org, site.id, second.id, source="//double")
    assert "source" in info.value.message
    with pytest.raises(PermissionDeniedError):
        await connect("rhea").sites.delete_redirect(org, site.id, second.id)
    assert await ids(gb.sites.list_redirects(org, site.id)) == [second.id]
