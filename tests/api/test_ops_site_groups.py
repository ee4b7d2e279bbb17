"""Client section-group operations against the in-process local server, with errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gitbook_tui.api import AsyncGitBook, BadRequestError, PermissionDeniedError
from gitbook_tui.api.resource import NULL
from gitbook_tui.models import SiteSection, SiteSectionGroup, SiteStructure
from support.worlds import Clients


def shape(structure: SiteStructure) -> list[Any]:
    def one(item: Any) -> Any:
        if isinstance(item, SiteSectionGroup):
            return (item.title, [one(c) for c in item.children])
        return item.title

    return [one(i) for i in structure.structure]


async def test_groups_round_trip(
    gb: AsyncGitBook, connect: Clients, world: Any, make_space: Callable[..., dict]
) -> None:
    org = world.org
    site = await gb.sites.create(org, title="Docs")
    sections = []
    for title in ("Guide", "API", "FAQ"):
        sections.append(await gb.sites.create_section(org, site.id, make_space(title)["id"]))
    guide, api, faq = (s.id for s in sections)

    group = await gb.sites.create_section_group(
        org, site.id, "Products", icon="box", sections=[api]
    )
    assert isinstance(group, SiteSectionGroup) and group.icon == "box"
    assert [c.id for c in group.children] == [api]
    moved = await gb.sites.update_section(org, site.id, faq, site_section_group_id=group.id)
    assert isinstance(moved, SiteSection) and moved.sectionGroup == group.id
    assert shape(await gb.sites.get_structure(org, site.id)) == [
        "Guide",
        ("Products", ["API", "FAQ"]),
    ]
    await gb.sites.move_section_group(org, site.id, group.id, before=guide)
    await gb.sites.move_section(org, site.id, faq, before=api)
    assert shape(await gb.sites.get_structure(org, site.id)) == [
        ("Products", ["FAQ", "API"]),
        "Guide",
    ]
    renamed = await gb.sites.update_section_group(
        org, site.id, group.id, title="Catalogue", icon=NULL, draft=True
    )
    assert (renamed.title, renamed.icon, renamed.draft) == ("Catalogue", None, True)
    inner = await gb.sites.create_section_group(org, site.id, "Inner", parent=group.id)
    await gb.sites.move_section_group(org, site.id, inner.id, before=faq)
    assert shape(await gb.sites.get_structure(org, site.id)) == [
        ("Catalogue", [("Inner", []), "FAQ", "API"]),
        "Guide",
    ]
    listed = [g.id async for g in gb.sites.list_section_groups(org, site.id)]
    assert listed == [group.id, inner.id]
    await gb.sites.update_section_group(org, site.id, inner.id, parent_section_group_id=NULL)
    await gb.sites.update_section(org, site.id, api, site_section_group_id=NULL)
    assert shape(await gb.sites.get_structure(org, site.id)) == [
        ("Catalogue", ["FAQ"]),
        "Guide",
        ("Inner", []),
        "API",
    ]

    with pytest.raises(BadRequestError, match="another level"):
        await gb.sites.move_section(org, site.id, api, before=faq)
    with pytest.raises(PermissionDeniedError):
        await connect("eve").sites.create_section_group(org, site.id, "Mine")
    with pytest.raises(ValueError, match="site_section_group_id"):
        await gb.sites.delete_section_group(org, site.id, "../x")

    await gb.sites.delete_section_group(org, site.id, group.id)
    assert shape(await gb.sites.get_structure(org, site.id)) == [
        "FAQ",
        "Guide",
        ("Inner", []),
        "API",
    ]
    await gb.sites.delete_section_group(org, site.id, group.id)  # already gone: no error
