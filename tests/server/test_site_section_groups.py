"""Section groups of a site: create, list, update, move, delete, the structure tree, and
sections moving into and out of groups — with every role check, 400 and 404."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from support.asserts import assert_error
from support.worlds import World


def _ok(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    return r.json() if r.content else None


@pytest.fixture
def site(world: World, make_space: Callable[..., dict]) -> dict[str, Any]:
    """A site with sections Guide, API and FAQ (in that order), and its base path."""
    c = world.client()
    made = _ok(c.post(f"/orgs/{world.org}/sites", json={"title": "Handbook"}), 201)
    base = f"/orgs/{world.org}/sites/{made['id']}"
    ids = {}
    for title in ("Guide", "API", "FAQ"):
        space = make_space(title)
        section = _ok(c.post(f"{base}/sections", json={"spaceId": space["id"]}), 201)
        ids[title] = section["id"]
    return {"id": made["id"], "base": base, "sections": ids}


def tree(world: World, site: dict, as_user: str = "alice") -> list[Any]:
    """The structure as nested titles: a section is its title, a group (title, [...])."""

    def shape(item: dict) -> Any:
        if item["object"] == "site-section-group":
            return (item["title"], [shape(c) for c in item["children"]])
        return item["title"]

    body = _ok(world.client(as_user).get(f"{site['base']}/structure"))
    assert body["type"] == "sections"
    return [shape(i) for i in body["structure"]]


def new_group(world: World, site: dict, title: str, **body: Any) -> dict:
    r = world.client().post(f"{site['base']}/section-groups", json={"title": title, **body})
    return _ok(r, 201)  # type: ignore[no-any-return]


def test_create_group_with_sections_shape_and_location(world: World, site: dict) -> None:
    s = site["sections"]
    r = world.client("carol").post(
        f"{site['base']}/section-groups",
        json={"title": "Products", "icon": "box", "sections": [s["API"], s["Guide"]]},
    )
    group = _ok(r, 201)
    assert r.headers["location"].endswith(f"/section-groups/{group['id']}")
    assert group["object"] == "site-section-group" and group["title"] == "Products"
    assert group["icon"] == "box" and group["draft"] is False
    assert "sectionGroup" not in group
    assert [c["title"] for c in group["children"]] == ["API", "Guide"]
    assert [c["id"] for c in group["sections"]] == [s["API"], s["Guide"]]
    assert all(c["sectionGroup"] == group["id"] for c in group["children"])
    assert tree(world, site) == ["FAQ", ("Products", ["API", "Guide"])]
    listed = _ok(world.client("rhea").get(f"{site['base']}/sections"))["items"]
    by_title = {i["title"]: i for i in listed}
    assert by_title["API"]["sectionGroup"] == group["id"]
    assert "sectionGroup" not in by_title["FAQ"]


def test_list_groups_nested_in_navigation_order(world: World, site: dict) -> None:
    outer = new_group(world, site, "Outer")
    inner = new_group(world, site, "Inner", parent=outer["id"], sections=[site["sections"]["FAQ"]])
    other = new_group(world, site, "Other", draft=True)
    items = _ok(world.client("rhea").get(f"{site['base']}/section-groups"))["items"]
    assert [g["id"] for g in items] == [outer["id"], inner["id"], other["id"]]
    assert items[1]["sectionGroup"] == outer["id"] and items[2]["draft"] is True
    assert [c["id"] for c in items[0]["children"]] == [inner["id"]]
    assert items[0]["sections"] == []
    page = _ok(world.client().get(f"{site['base']}/section-groups", params={"limit": 2}))
    assert len(page["items"]) == 2 and page["next"]["page"]


def test_create_refusals(world: World, site: dict) -> None:
    url = f"{site['base']}/section-groups"
    c = world.client()
    assert_error(c.post(url, json={"title": ""}), 400, "title")
    assert_error(c.post(url, json={"title": "x" * 101}), 400, "title")
    assert_error(c.post(url, json={}), 400, "title")
    assert_error(c.post(url, json={"title": "G", "sections": ["nope"]}), 400, "sections", "nope")
    assert_error(c.post(url, json={"title": "G", "parent": "nope"}), 400, "parent", "nope")
    outer = new_group(world, site, "Outer")
    inner = new_group(world, site, "Inner", parent=outer["id"])
    assert_error(c.post(url, json={"title": "G", "parent": inner["id"]}), 400, "one level")
    assert_error(c.post(f"/orgs/{world.org}/sites/nope/section-groups", json={"title": "G"}), 404)


@pytest.mark.parametrize("user", ["eve", "rita", "cody", "rhea"])
def test_changes_need_the_create_role(world: World, site: dict, user: str) -> None:
    group = new_group(world, site, "Products")
    c = world.client(user)
    url = f"{site['base']}/section-groups"
    gurl = f"{url}/{group['id']}"
    assert_error(c.post(url, json={"title": "Mine"}), 403)
    assert_error(c.patch(gurl, json={"title": "Mine"}), 403)
    assert_error(c.post(f"{gurl}/move", json={}), 403)
    assert_error(c.delete(gurl), 403)
    section = f"{site['base']}/sections/{site['sections']['FAQ']}"
    assert_error(c.patch(section, json={"siteSectionGroupId": group["id"]}), 403)
    assert tree(world, site) == ["Guide", "API", "FAQ", ("Products", [])]


def test_outsiders_get_404(world: World, site: dict) -> None:
    group = new_group(world, site, "Products")
    c = world.client("otto")
    url = f"{site['base']}/section-groups"
    assert_error(c.get(url), 404)
    assert_error(c.get(f"{site['base']}/structure"), 404)
    assert_error(c.post(url, json={"title": "Mine"}), 404)
    assert_error(c.patch(f"{url}/{group['id']}", json={"title": "Mine"}), 404)
    assert_error(c.delete(f"{url}/{group['id']}"), 404)


def test_update_title_icon_draft_and_minimal_return(world: World, site: dict) -> None:
    group = new_group(world, site, "Products", icon="box")
    url = f"{site['base']}/section-groups/{group['id']}"
    c = world.client("carol")
    updated = _ok(c.patch(url, json={"title": "Catalogue", "icon": None, "draft": True}))
    assert updated["title"] == "Catalogue" and updated["draft"] is True and "icon" not in updated
    r = c.patch(url, json={"title": "Shop"}, headers={"Prefer": "return=minimal"})
    assert r.status_code == 204 and r.content == b""
    assert r.headers["preference-applied"] == "return=minimal"
    assert tree(world, site)[-1] == ("Shop", [])
    assert_error(c.patch(url, json={}), 400, "at least one field")
    assert_error(c.patch(url, json={"title": None}), 400, "title")
    assert_error(c.patch(url, json={"title": ""}), 400, "title")
    assert_error(c.patch(f"{site['base']}/section-groups/nope", json={"title": "X"}), 404)


def test_group_parent_changes_and_nesting_limit(world: World, site: dict) -> None:
    a = new_group(world, site, "A")
    b = new_group(world, site, "B", sections=[site["sections"]["FAQ"]])
    c = world.client()
    url = f"{site['base']}/section-groups"
    moved = _ok(c.patch(f"{url}/{b['id']}", json={"parentSectionGroupId": a["id"]}))
    assert moved["sectionGroup"] == a["id"]
    assert tree(world, site) == ["Guide", "API", ("A", [("B", ["FAQ"])])]
    x = new_group(world, site, "X")
    assert_error(
        c.patch(f"{url}/{x['id']}", json={"parentSectionGroupId": b["id"]}), 400, "one level"
    )
    assert_error(
        c.patch(f"{url}/{a['id']}", json={"parentSectionGroupId": x["id"]}), 400, "holds section"
    )
    assert_error(
        c.patch(f"{url}/{x['id']}", json={"parentSectionGroupId": x["id"]}), 400, "own parent"
    )
    assert_error(c.patch(f"{url}/{x['id']}", json={"parentSectionGroupId": "nope"}), 400, "nope")
    back = _ok(c.patch(f"{url}/{b['id']}", json={"parentSectionGroupId": None}))
    assert "sectionGroup" not in back
    assert tree(world, site) == ["Guide", "API", ("A", []), ("X", []), ("B", ["FAQ"])]


def test_sections_move_into_and_out_of_groups(world: World, site: dict) -> None:
    s = site["sections"]
    group = new_group(world, site, "Products", sections=[s["API"]])
    c = world.client("carol")
    url = f"{site['base']}/sections"
    into = _ok(c.patch(f"{url}/{s['Guide']}", json={"siteSectionGroupId": group["id"]}))
    assert into["sectionGroup"] == group["id"]
    assert tree(world, site) == ["FAQ", ("Products", ["API", "Guide"])]
    out = _ok(c.patch(f"{url}/{s['API']}", json={"siteSectionGroupId": None}))
    assert "sectionGroup" not in out
    assert tree(world, site) == ["FAQ", ("Products", ["Guide"]), "API"]
    assert_error(
        c.patch(f"{url}/{s['API']}", json={"siteSectionGroupId": "nope"}),
        400,
        "siteSectionGroupId",
    )
    made = _ok(
        c.post(
            url,
            json={"spaceId": None, "title": "Inside", "siteSectionGroupId": group["id"]},
        ),
        201,
    )
    assert made["sectionGroup"] == group["id"]
    assert tree(world, site) == ["FAQ", ("Products", ["Guide", "Inside"]), "API"]
    assert_error(
        c.post(url, json={"spaceId": None, "siteSectionGroupId": "nope"}), 400, "siteSectionGroupId"
    )


def test_moves_reorder_siblings_only(world: World, site: dict) -> None:
    s = site["sections"]
    group = new_group(world, site, "Products", sections=[s["API"], s["FAQ"]])
    c = world.client()
    gmove = f"{site['base']}/section-groups/{group['id']}/move"
    before_guide = {"before": {"type": "site-section", "id": s["Guide"]}}
    moved = _ok(c.post(gmove, json={"position": before_guide}))
    assert moved["id"] == group["id"]
    assert tree(world, site) == [("Products", ["API", "FAQ"]), "Guide"]
    _ok(c.post(gmove))  # no body: the end of its level
    assert tree(world, site) == ["Guide", ("Products", ["API", "FAQ"])]
    smove = f"{site['base']}/sections/{s['FAQ']}/move"
    _ok(
        c.post(
            smove, json={"position": {"before": {"type": "site-section", "siteSection": s["API"]}}}
        )
    )
    assert tree(world, site) == ["Guide", ("Products", ["FAQ", "API"])]
    _ok(c.post(smove))  # the end of its own group
    assert tree(world, site) == ["Guide", ("Products", ["API", "FAQ"])]
    other_level = {"after": {"type": "site-section", "siteSection": s["Guide"]}}
    assert_error(c.post(smove, json={"position": other_level}), 400, "another level")
    assert_error(
        c.post(gmove, json={"position": {"after": {"type": "site-section", "id": s["API"]}}}),
        400,
        "another level",
    )
    itself = {"before": {"type": "site-section-group", "id": group["id"]}}
    assert_error(c.post(gmove, json={"position": itself}), 400, "itself")
    wrong = {"before": {"type": "site-section-group", "id": s["Guide"]}}
    assert_error(c.post(gmove, json={"position": wrong}), 400, "not a site-section-group")
    unknown = {"before": {"type": "site-section", "id": "nope"}}
    assert_error(c.post(gmove, json={"position": unknown}), 400, "nope")
    assert_error(c.post(gmove, json={"position": {"before": {"type": "page", "id": "x"}}}), 400)
    assert_error(c.post(f"{site['base']}/section-groups/nope/move", json={}), 404)


def test_delete_keeps_the_sections_in_its_place(world: World, site: dict) -> None:
    s = site["sections"]
    group = new_group(world, site, "Products", sections=[s["Guide"], s["API"]])
    _ok(
        world.client().post(
            f"{site['base']}/section-groups/{group['id']}/move",
            json={"position": {"before": {"type": "site-section", "id": s["FAQ"]}}},
        )
    )
    assert tree(world, site) == [("Products", ["Guide", "API"]), "FAQ"]
    url = f"{site['base']}/section-groups/{group['id']}"
    r = world.client("carol").delete(url)
    assert r.status_code == 205 and r.content == b""
    assert tree(world, site) == ["Guide", "API", "FAQ"]
    sections = _ok(world.client().get(f"{site['base']}/sections"))["items"]
    assert all("sectionGroup" not in x for x in sections)
    assert world.client().delete(url).status_code == 204


def test_structure_and_published_leave_draft_groups_out(world: World, site: dict) -> None:
    new_group(world, site, "Drafts", draft=True, sections=[site["sections"]["FAQ"]])
    new_group(world, site, "Live", sections=[site["sections"]["API"]])
    assert tree(world, site, "rhea") == ["Guide", ("Drafts", ["FAQ"]), ("Live", ["API"])]
    c = world.client()
    _ok(c.patch(site["base"], json={"visibility": "public"}))
    _ok(c.post(f"{site['base']}/publish"))
    published = _ok(c.get(f"{site['base']}/published"))
    live = published["structure"]["structure"]
    assert [i["title"] for i in live] == ["Guide", "Live"]
    assert [x["title"] for x in live[1]["children"]] == ["API"]
    # a visitor of the published public site reads the groups too
    assert [
        g["title"] for g in _ok(world.client("otto").get(f"{site['base']}/section-groups"))["items"]
    ] == ["Drafts", "Live"]


def test_a_site_without_sections_gets_its_spaces_gathered(
    world: World, make_space: Callable[..., dict]
) -> None:
    c = world.client()
    made = _ok(c.post(f"/orgs/{world.org}/sites", json={"title": "Flat"}), 201)
    base = f"/orgs/{world.org}/sites/{made['id']}"
    _ok(c.post(f"{base}/site-spaces", json={"spaceId": make_space("Only")["id"]}), 201)
    assert _ok(c.get(f"{base}/structure"))["type"] == "siteSpaces"
    _ok(c.post(f"{base}/section-groups", json={"title": "Group"}), 201)
    body = _ok(c.get(f"{base}/structure"))
    assert body["type"] == "sections"
    assert [i["object"] for i in body["structure"]] == ["site-section", "site-section-group"]


def test_deleting_the_site_deletes_its_groups(world: World, site: dict) -> None:
    new_group(world, site, "Products")
    assert world.client().delete(site["base"]).status_code in (204, 205)
    with world.storage.transaction() as tx:
        assert tx.list("site-section-group", site["id"]) == []
