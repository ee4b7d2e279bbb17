"""Site sections, site spaces and redirects: CRUD, defaults, moves, lookups, share keys."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gitbook_tui.server.content.space_revision import set_space_revision
from gitbook_tui.server.content.store import create_revision
from support.asserts import assert_error
from support.worlds import World


def make_site(world: World, **body: Any) -> dict:
    body.setdefault("title", "Handbook")
    r = world.client().post(f"/orgs/{world.org}/sites", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def base(world: World, site: dict) -> str:
    return f"/orgs/{world.org}/sites/{site['id']}"


def add_section(world: World, site: dict, space_id: str | None, **body: Any) -> dict:
    r = world.client().post(f"{base(world, site)}/sections", json={"spaceId": space_id, **body})
    assert r.status_code == 201, r.text
    return r.json()


def add_site_space(world: World, site: dict, space_id: str | None, **body: Any) -> dict:
    r = world.client().post(f"{base(world, site)}/site-spaces", json={"spaceId": space_id, **body})
    assert r.status_code == 201, r.text
    return r.json()


def sections(world: World, site: dict, as_user: str = "alice") -> list[dict]:
    r = world.client(as_user).get(f"{base(world, site)}/sections")
    assert r.status_code == 200, r.text
    return r.json()["items"]


def site_spaces(world: World, site: dict, **params: Any) -> list[dict]:
    r = world.client().get(f"{base(world, site)}/site-spaces", params=params)
    assert r.status_code == 200, r.text
    return r.json()["items"]


def redirect_body(source: str, **destination: Any) -> dict:
    return {"source": source, "destination": destination}


def site_with_three_sections(world: World, spaces: dict) -> tuple[dict, list[dict]]:
    """A new site and its sections for the guide, api and faq spaces, in that order."""
    site = make_site(world)
    return site, [add_section(world, site, spaces[name]["id"]) for name in ("guide", "api", "faq")]


def delete_the_redirected_default(
    world: World,
    site: dict,
    kind: str,
    default: dict,
    rest: list[dict],
    listed: Callable[[], list[dict]],
) -> str:
    """Point a redirect at ``default`` (a "site-section" or "site-space"), delete it (eve may
    not, carol may) and check that ``rest`` remain with the first of them now the default and
    that the redirect went with it; return the deleted one's URL."""
    field = "siteSectionId" if kind == "site-section" else "siteSpaceId"
    world.client().post(
        f"{base(world, site)}/redirects",
        json=redirect_body("/old", kind=kind, **{field: default["id"]}),
    )
    collection = "sections" if kind == "site-section" else "site-spaces"
    url = f"{base(world, site)}/{collection}/{default['id']}"
    assert_error(world.client("eve").delete(url), 403)
    r = world.client("carol").delete(url)
    assert r.status_code == 204 and r.content == b""
    remaining = listed()
    assert [x["id"] for x in remaining] == [x["id"] for x in rest]
    assert [x["default"] for x in remaining] == [True] + [False] * (len(rest) - 1)
    redirects = world.client().get(f"{base(world, site)}/redirects").json()
    assert redirects["count"] == 0  # the redirect pointed to the deleted one
    return url


@pytest.fixture
def spaces(make_space: Callable[..., dict]) -> dict[str, dict]:
    return {
        name: make_space(title)
        for name, title in [("guide", "Guide"), ("api", "API"), ("faq", "FAQ")]
    }


# -- sections -----------------------------------------------------------------------------


def test_create_section_shape_and_first_is_default(world: World, spaces: dict) -> None:
    site = make_site(world)
    r = world.client("carol").post(
        f"{base(world, site)}/sections",
        json={"spaceId": spaces["guide"]["id"], "title": "User guide", "icon": "book"},
    )
    assert r.status_code == 201, r.text
    section = r.json()
    assert r.headers["location"].endswith(f"/sites/{site['id']}/sections/{section['id']}")
    assert section["object"] == "site-section"
    assert section["title"] == "User guide" and section["path"] == "user-guide"
    assert section["icon"] == "book"
    assert section["default"] is True and section["draft"] is False
    assert "published" not in section["urls"]
    [ss] = section["siteSpaces"]
    assert ss["object"] == "site-space" and ss["section"] == section["id"]
    assert ss["space"]["id"] == spaces["guide"]["id"] and ss["space"]["object"] == "space"
    assert ss["default"] is True and ss["path"] == "guide"
    second = add_section(world, site, spaces["api"]["id"])
    assert second["title"] == "API" and second["default"] is False
    assert [s["id"] for s in sections(world, site, "rhea")] == [section["id"], second["id"]]
    assert world.client().get(base(world, site)).json()["siteSpaces"] == 2


def test_create_section_with_a_new_space(world: World) -> None:
    site = make_site(world)
    section = add_section(world, site, None, title="Changelog")
    space = section["siteSpaces"][0]["space"]
    assert space["title"] == "Changelog"
    assert world.client().get(f"/spaces/{space['id']}").status_code == 200


def test_create_section_validation(world: World, spaces: dict) -> None:
    site = make_site(world)
    url = f"{base(world, site)}/sections"
    c = world.client()
    assert_error(c.post(url, json={"title": "No space"}), 400, "spaceId", "required")
    assert_error(c.post(url, json={"spaceId": "nope"}), 400, "spaceId", "nope")
    assert_error(c.post(url, json={"spaceId": spaces["guide"]["id"], "title": "x"}), 400, "title")
    assert_error(
        c.post(url, json={"spaceId": spaces["guide"]["id"], "icon": "i" * 51}), 400, "icon"
    )
    assert sections(world, site) == []
    assert_error(world.client("eve").post(url, json={"spaceId": spaces["guide"]["id"]}), 403)
    assert_error(world.client("otto").post(url, json={"spaceId": spaces["guide"]["id"]}), 404)
    assert_error(world.anonymous().post(url, json={"spaceId": spaces["guide"]["id"]}), 401)
    assert_error(
        c.post(f"/orgs/{world.org}/sites/nope/sections", json={"spaceId": None}), 404, "site"
    )


def test_first_section_gathers_the_root_site_spaces(world: World, spaces: dict) -> None:
    site = make_site(world, spaces=[spaces["guide"]["id"], spaces["api"]["id"]])
    new = add_section(world, site, spaces["faq"]["id"], title="Questions")
    first, second = sections(world, site)
    assert second["id"] == new["id"] and second["default"] is False
    assert first["default"] is True and first["title"] == "Guide"
    assert [ss["space"]["id"] for ss in first["siteSpaces"]] == [
        spaces["guide"]["id"],
        spaces["api"]["id"],
    ]
    assert [ss["default"] for ss in first["siteSpaces"]] == [True, False]
    assert all(ss["section"] for ss in site_spaces(world, site))


def test_update_section_fields_and_condition_semantics(world: World, spaces: dict) -> None:
    site = make_site(world)
    section = add_section(world, site, spaces["guide"]["id"])
    url = f"{base(world, site)}/sections/{section['id']}"
    c = world.client("carol")
    r = c.patch(
        url,
        json={
            "title": "Guides",
            "path": "guides",
            "condition": "visitor.claims.unsigned.beta == true",
            "icon": "compass",
            "description": "How to use it",
        },
    )
    assert r.status_code == 200, r.text
    stored = sections(world, site, "carol")[0]
    assert stored["title"] == "Guides" and stored["path"] == "guides"
    assert stored["condition"] == "visitor.claims.unsigned.beta == true"
    assert stored["icon"] == "compass" and stored["description"] == "How to use it"
    assert r.json() == stored
    # omitted: unchanged; null: removed
    c.patch(url, json={"title": "Guide book"})
    assert sections(world, site)[0]["condition"] == "visitor.claims.unsigned.beta == true"
    c.patch(url, json={"condition": None, "icon": None})
    after = sections(world, site)[0]
    assert "condition" not in after and "icon" not in after
    assert after["title"] == "Guide book"


def test_update_section_validation(world: World, spaces: dict) -> None:
    site = make_site(world)
    first = add_section(world, site, spaces["guide"]["id"])
    second = add_section(world, site, spaces["api"]["id"])
    url = f"{base(world, site)}/sections/{second['id']}"
    c = world.client()
    assert_error(c.patch(url, json={}), 400, "body")
    assert_error(c.patch(url, json={"title": None}), 400, "title")
    assert_error(c.patch(url, json={"title": "x"}), 400, "title")
    assert_error(c.patch(url, json={"path": "has space"}), 400, "path")
    assert_error(c.patch(url, json={"path": ""}), 400, "path")
    assert_error(c.patch(url, json={"condition": "x" * 1025}), 400, "condition")
    assert_error(c.patch(url, json={"path": first["path"]}), 409, "path")
    foreign = first["siteSpaces"][0]["id"]
    assert_error(c.patch(url, json={"defaultSiteSpace": foreign}), 400, "defaultSiteSpace")
    assert_error(c.patch(url, json={"defaultSiteSpace": "nope"}), 400, "defaultSiteSpace")
    assert_error(c.patch(f"{base(world, site)}/sections/nope", json={"title": "Hi"}), 404)
    assert_error(world.client("eve").patch(url, json={"title": "Nope"}), 403)
    assert sections(world, site)[1]["path"] == "api"


def test_section_default_site_space(world: World, spaces: dict) -> None:
    site = make_site(world)
    section = add_section(world, site, spaces["guide"]["id"])
    other = add_site_space(world, site, spaces["api"]["id"], sectionId=section["id"])
    assert other["default"] is False
    url = f"{base(world, site)}/sections/{section['id']}"
    r = world.client().patch(url, json={"defaultSiteSpace": other["id"]})
    assert r.status_code == 200
    assert [ss["default"] for ss in r.json()["siteSpaces"]] == [False, True]
    assert [ss["default"] for ss in site_spaces(world, site)] == [False, True]


def test_delete_section_promotes_the_next_default(world: World, spaces: dict) -> None:
    site, (first, second, third) = site_with_three_sections(world, spaces)
    url = delete_the_redirected_default(
        world, site, "site-section", first, [second, third], lambda: sections(world, site)
    )
    assert {ss["space"]["id"] for ss in site_spaces(world, site)} == {
        spaces["api"]["id"],
        spaces["faq"]["id"],
    }
    assert world.client().delete(url).status_code == 204  # nothing left to delete
    # a non-default section goes without changing the default
    world.client().delete(f"{base(world, site)}/sections/{third['id']}")
    assert [s["default"] for s in sections(world, site)] == [True]


def test_site_default_section_switches_through_the_site_update(world: World, spaces: dict) -> None:
    site = make_site(world)
    first = add_section(world, site, spaces["guide"]["id"])
    second = add_section(world, site, spaces["api"]["id"])
    r = world.client().patch(base(world, site), json={"defaultSiteSection": second["id"]})
    assert r.status_code == 200, r.text
    assert [s["default"] for s in sections(world, site)] == [False, True]
    assert_error(
        world.client().patch(base(world, site), json={"defaultSiteSection": "nope"}),
        400,
        "defaultSiteSection",
    )
    # the site's defaultSiteSpace must be in the default section (now `second`)
    extra = add_site_space(world, site, spaces["faq"]["id"], sectionId=second["id"])
    r = world.client().patch(base(world, site), json={"defaultSiteSpace": extra["id"]})
    assert r.status_code == 200, r.text
    assert [ss["default"] for ss in sections(world, site)[1]["siteSpaces"]] == [False, True]
    in_first = first["siteSpaces"][0]["id"]
    assert_error(
        world.client().patch(base(world, site), json={"defaultSiteSpace": in_first}),
        400,
        "defaultSiteSpace",
        "default section",
    )


def test_site_default_site_space_at_the_root(world: World, spaces: dict) -> None:
    site = make_site(world, spaces=[spaces["guide"]["id"], spaces["api"]["id"]])
    second = site_spaces(world, site)[1]
    r = world.client().patch(base(world, site), json={"defaultSiteSpace": second["id"]})
    assert r.status_code == 200
    assert [ss["default"] for ss in site_spaces(world, site)] == [False, True]


def test_move_section_with_position(world: World, spaces: dict) -> None:
    site, (a, b, c) = site_with_three_sections(world, spaces)
    url = f"{base(world, site)}/sections/{c['id']}/move"
    r = world.client("carol").post(
        url, json={"position": {"before": {"type": "site-section", "siteSection": a["id"]}}}
    )
    assert r.status_code == 200 and r.json()["id"] == c["id"]
    assert [s["id"] for s in sections(world, site)] == [c["id"], a["id"], b["id"]]
    world.client().post(
        f"{base(world, site)}/sections/{c['id']}/move",
        json={"position": {"after": {"type": "site-section", "siteSection": b["id"]}}},
    )
    assert [s["id"] for s in sections(world, site)] == [a["id"], b["id"], c["id"]]
    assert sections(world, site)[0]["default"] is True  # moving does not change the default


def test_move_section_validation(world: World, spaces: dict) -> None:
    site = make_site(world)
    a = add_section(world, site, spaces["guide"]["id"])
    url = f"{base(world, site)}/sections/{a['id']}/move"
    c = world.client()
    b = add_section(world, site, spaces["api"]["id"])
    # without a position (or an empty one) the section moves to the end of the site
    assert c.post(url, json={}).status_code == 200
    assert [s["id"] for s in sections(world, site)] == [b["id"], a["id"]]
    assert c.post(f"{base(world, site)}/sections/{b['id']}/move", json={"position": {}}).is_success
    assert [s["id"] for s in sections(world, site)] == [a["id"], b["id"]]
    wrong_type = {"before": {"type": "site-space", "siteSpace": a["id"]}}
    assert_error(c.post(url, json={"position": wrong_type}), 400, "position.before")
    unknown = {"after": {"type": "site-section", "siteSection": "nope"}}
    assert_error(c.post(url, json={"position": unknown}), 400, "position.after", "nope")
    itself = {"before": {"type": "site-section", "siteSection": a["id"]}}
    assert_error(c.post(url, json={"position": itself}), 400, "itself")
    assert_error(world.client("eve").post(url, json={"position": itself}), 403)
    assert_error(c.post(f"{base(world, site)}/sections/nope/move", json={"position": itself}), 404)


# -- site spaces --------------------------------------------------------------------------


def test_create_site_space_defaults_to_the_root_without_sections(
    world: World, spaces: dict
) -> None:
    site = make_site(world)
    r = world.client("carol").post(
        f"{base(world, site)}/site-spaces", json={"spaceId": spaces["guide"]["id"]}
    )
    assert r.status_code == 201, r.text
    ss = r.json()
    assert r.headers["location"].endswith(f"/sites/{site['id']}/site-spaces/{ss['id']}")
    assert ss["object"] == "site-space" and "section" not in ss
    assert ss["default"] is True and ss["path"] == "guide" and ss["title"] == "Guide"
    assert ss["space"]["id"] == spaces["guide"]["id"] and ss["space"]["title"] == "Guide"
    assert ss["draft"] is False and ss["urls"] == {}
    other = add_site_space(world, site, spaces["api"]["id"])
    assert other["default"] is False and "section" not in other
    assert sections(world, site) == []
    assert world.client().get(base(world, site)).json()["siteSpaces"] == 2


def test_create_site_space_defaults_to_the_default_section(world: World, spaces: dict) -> None:
    site = make_site(world)
    first = add_section(world, site, spaces["guide"]["id"])
    second = add_section(world, site, spaces["api"]["id"])
    world.client().patch(base(world, site), json={"defaultSiteSection": second["id"]})
    ss = add_site_space(world, site, spaces["faq"]["id"])
    assert ss["section"] == second["id"] and ss["default"] is False
    explicit = add_site_space(world, site, spaces["faq"]["id"], sectionId=first["id"])
    assert explicit["section"] == first["id"]
    assert [len(s["siteSpaces"]) for s in sections(world, site)] == [2, 2]


def test_create_site_space_validation_and_path_deduplication(
    world: World, spaces: dict, make_space: Callable[..., dict]
) -> None:
    site = make_site(world)
    url = f"{base(world, site)}/site-spaces"
    c = world.client()
    assert_error(c.post(url, json={}), 400, "spaceId", "required")
    assert_error(c.post(url, json={"spaceId": "nope"}), 400, "spaceId", "nope")
    assert_error(
        c.post(url, json={"spaceId": spaces["guide"]["id"], "sectionId": "nope"}),
        400,
        "sectionId",
        "nope",
    )
    add_site_space(world, site, spaces["guide"]["id"])
    assert_error(c.post(url, json={"spaceId": spaces["guide"]["id"]}), 409, "spaceId")
    twin = make_space("Guide")
    assert add_site_space(world, site, twin["id"])["path"] == "guide-2"
    fresh = add_site_space(world, site, None, title="Release notes")
    assert fresh["space"]["title"] == "Release notes" and fresh["title"] == "Release notes"
    assert_error(world.client("eve").post(url, json={"spaceId": spaces["api"]["id"]}), 403)
    assert_error(world.client("otto").post(url, json={"spaceId": spaces["api"]["id"]}), 404)


def test_list_site_spaces_default_filter_and_paging(world: World, spaces: dict) -> None:
    site = make_site(world)
    first = add_section(world, site, spaces["guide"]["id"])
    second = add_section(world, site, spaces["api"]["id"])
    extra = add_site_space(world, site, spaces["faq"]["id"], sectionId=first["id"])
    every = site_spaces(world, site)
    assert [ss["space"]["id"] for ss in every] == [
        spaces["guide"]["id"],
        spaces["faq"]["id"],
        spaces["api"]["id"],
    ]
    defaults = site_spaces(world, site, default="true")
    assert [ss["id"] for ss in defaults] == [
        first["siteSpaces"][0]["id"],
        second["siteSpaces"][0]["id"],
    ]
    assert [ss["id"] for ss in site_spaces(world, site, default="false")] == [extra["id"]]
    page = world.client("rhea").get(f"{base(world, site)}/site-spaces", params={"limit": 2})
    assert page.json()["count"] == 3 and len(page.json()["items"]) == 2
    rest = world.client("rhea").get(
        f"{base(world, site)}/site-spaces", params={"limit": 2, "page": page.json()["next"]["page"]}
    )
    assert len(rest.json()["items"]) == 1
    assert_error(
        world.client().get(f"{base(world, site)}/site-spaces", params={"default": "maybe"}),
        400,
        "default",
    )
    assert_error(world.client("otto").get(f"{base(world, site)}/site-spaces"), 404)


def test_update_site_space(world: World, spaces: dict) -> None:
    site = make_site(world, spaces=[spaces["guide"]["id"], spaces["api"]["id"]])
    guide, api = site_spaces(world, site)
    url = f"{base(world, site)}/site-spaces/{api['id']}"
    c = world.client("carol")
    r = c.patch(url, json={"path": "reference", "condition": "visitor.claims.dev == true"})
    assert r.status_code == 200, r.text
    assert r.json()["path"] == "reference"
    stored = site_spaces(world, site)[1]
    assert stored["path"] == "reference" and stored["condition"] == "visitor.claims.dev == true"
    r = c.patch(url, json={"spaceId": spaces["faq"]["id"]})
    assert r.json()["space"]["id"] == spaces["faq"]["id"]
    assert r.json()["condition"] == "visitor.claims.dev == true"  # omitted: unchanged
    assert r.json()["path"] == "reference"
    r = c.patch(url, json={"condition": None})
    assert "condition" not in r.json()
    assert "condition" not in site_spaces(world, site)[1]
    assert_error(c.patch(url, json={}), 400, "body")
    assert_error(c.patch(url, json={"path": guide["path"]}), 409, "path")
    assert_error(c.patch(url, json={"path": "a b"}), 400, "path")
    assert_error(c.patch(url, json={"path": None}), 400, "path")
    assert_error(c.patch(url, json={"spaceId": "nope"}), 400, "spaceId", "nope")
    assert_error(c.patch(url, json={"spaceId": None}), 400, "spaceId")
    assert_error(c.patch(url, json={"spaceId": spaces["guide"]["id"]}), 409, "spaceId")
    assert_error(c.patch(f"{base(world, site)}/site-spaces/nope", json={"path": "x"}), 404)
    assert_error(world.client("eve").patch(url, json={"path": "x"}), 403)


def test_delete_site_space_promotes_the_next_default(world: World, spaces: dict) -> None:
    site = make_site(
        world, spaces=[spaces["guide"]["id"], spaces["api"]["id"], spaces["faq"]["id"]]
    )
    first, second, third = site_spaces(world, site)
    url = delete_the_redirected_default(
        world, site, "site-space", first, [second, third], lambda: site_spaces(world, site)
    )
    assert world.client().get(base(world, site)).json()["siteSpaces"] == 2
    assert world.client().delete(url).status_code == 204  # nothing left to delete


def test_move_site_space_among_its_section(world: World, spaces: dict) -> None:
    site = make_site(world)
    section = add_section(world, site, spaces["guide"]["id"])
    other_section = add_section(world, site, spaces["faq"]["id"])
    a = section["siteSpaces"][0]
    b = add_site_space(world, site, spaces["api"]["id"], sectionId=section["id"])
    url = f"{base(world, site)}/site-spaces/{b['id']}/move"
    r = world.client("carol").post(
        url, json={"position": {"before": {"type": "site-space", "siteSpace": a["id"]}}}
    )
    assert r.status_code == 200 and r.json()["id"] == b["id"]
    in_section = sections(world, site)[0]["siteSpaces"]
    assert [ss["id"] for ss in in_section] == [b["id"], a["id"]]
    assert [ss["default"] for ss in in_section] == [False, True]  # the default stays
    back = {"after": {"type": "site-space", "siteSpace": a["id"]}}
    world.client().post(url, json={"position": back})
    assert [ss["id"] for ss in sections(world, site)[0]["siteSpaces"]] == [a["id"], b["id"]]
    foreign = other_section["siteSpaces"][0]["id"]
    assert_error(
        world.client().post(
            url, json={"position": {"before": {"type": "site-space", "siteSpace": foreign}}}
        ),
        400,
        "position.before",
        "another section",
    )
    assert_error(
        world.client().post(
            url, json={"position": {"before": {"type": "site-section", "siteSection": a["id"]}}}
        ),
        400,
        "position.before",
    )
    assert world.client().post(url, json={}).status_code == 200  # to the end
    assert_error(
        world.client().post(
            url, json={"position": {"after": {"type": "site-space", "siteSpace": "nope"}}}
        ),
        400,
        "position.after",
    )


def test_published_urls_of_sections_and_site_spaces(world: World, spaces: dict) -> None:
    site = make_site(world)
    section = add_section(world, site, spaces["guide"]["id"])
    add_site_space(world, site, spaces["api"]["id"], sectionId=section["id"])
    add_section(world, site, spaces["faq"]["id"])
    world.client().post(f"{base(world, site)}/publish")
    first, second = sections(world, site)
    root = "https://acme.gitbook.io/handbook"
    assert first["urls"]["published"] == root
    assert [ss["urls"]["published"] for ss in first["siteSpaces"]] == [root, f"{root}/api"]
    assert second["urls"]["published"] == f"{root}/faq"
    assert second["siteSpaces"][0]["urls"]["published"] == f"{root}/faq"


def test_share_key_on_section_and_site_space_lists(world: World, spaces: dict) -> None:
    site = make_site(world, visibility="share-link", spaces=[spaces["guide"]["id"]])
    world.client().post(f"{base(world, site)}/publish")
    with world.storage.read() as tx:
        key = tx.get("site", site["id"])["shareKey"]
    otto = world.client("otto")
    for path in ("sections", "site-spaces"):
        url = f"{base(world, site)}/{path}"
        assert_error(otto.get(url), 404)
        assert_error(otto.get(url, params={"shareKey": "wrong"}), 404)
        assert otto.get(url, params={"shareKey": key}).status_code == 200
        assert_error(world.client().get(url, params={"shareKey": "wrong"}), 403, "shareKey")
    assert (
        otto.get(f"{base(world, site)}/site-spaces", params={"shareKey": key}).json()["count"] == 1
    )


# -- redirects ----------------------------------------------------------------------------


def add_page(world: World, space_id: str, page_id: str, slug: str) -> None:
    """Give a space a main revision with one page (directly in storage)."""
    with world.storage.transaction() as tx:
        space = tx.get("space", space_id)
        assert space is not None
        revision = create_revision(
            tx,
            revision_id=f"rev-{page_id}",
            space_id=space_id,
            parents=[space["revision"]],
            pages=[
                {
                    "id": page_id,
                    "title": slug.title(),
                    "type": "document",
                    "slug": slug,
                    "pages": [],
                }
            ],
            files=[],
            type="edits",
            created_at="2026-11-01T09:00:00.000Z",
            created_by=None,
        )
        set_space_revision(tx, space, revision["id"], "2026-11-01T09:00:00.000Z")


def test_create_redirect_shape_and_lookup(world: World, spaces: dict) -> None:
    site = make_site(world)
    first = add_section(world, site, spaces["guide"]["id"])
    second = add_section(world, site, spaces["api"]["id"])
    url = f"{base(world, site)}/redirects"
    r = world.client("carol").post(
        url, json=redirect_body("/old-api", kind="site-section", siteSectionId=second["id"])
    )
    assert r.status_code == 201, r.text
    redirect = r.json()
    assert redirect["object"] == "site-redirect"
    assert redirect["source"] == "/old-api"
    assert redirect["destination"] == {"kind": "site-section", "siteSectionId": second["id"]}
    assert redirect["draft"] is False and redirect["permanent"] is False
    assert redirect["captureWildcard"] is False and redirect["createdAt"]
    assert world.client("rhea").get(url).json()["items"] == [redirect]
    world.client().post(f"{base(world, site)}/publish")
    lookup = world.client("rhea").get(
        f"{base(world, site)}/redirect", params={"source": "/old-api"}
    )
    assert lookup.status_code == 200, lookup.text
    assert lookup.json() == {"redirect": redirect, "target": "https://acme.gitbook.io/handbook/api"}
    world.client().post(
        url, json=redirect_body("/home", kind="site-section", siteSectionId=first["id"])
    )
    home = world.client().get(f"{base(world, site)}/redirect", params={"source": "/home"})
    assert home.json()["target"] == "https://acme.gitbook.io/handbook"
    assert_error(
        world.client().get(f"{base(world, site)}/redirect", params={"source": "/missing"}),
        404,
        "/missing",
    )
    assert_error(
        world.client().get(f"{base(world, site)}/redirect", params={"source": "no-slash"}),
        400,
        "source",
    )
    assert_error(world.client().get(f"{base(world, site)}/redirect"), 400, "source")


def redirect_to_a_new_section(world: World, spaces: dict, source: str) -> Any:
    """Ask to redirect ``source`` to the guide section of a new site; the response."""
    site = make_site(world)
    section = add_section(world, site, spaces["guide"]["id"])
    return world.client().post(
        f"{base(world, site)}/redirects",
        json=redirect_body(source, kind="site-section", siteSectionId=section["id"]),
    )


@pytest.mark.parametrize(
    "source", ["old", "/", "/a b", "/a//b", "/trailing/", "/%zz", "/a?b", "/wild*", "//x"]
)
def test_redirect_source_must_match_the_pattern(world: World, spaces: dict, source: str) -> None:
    r = redirect_to_a_new_section(world, spaces, source)
    assert_error(r, 400, "source")


@pytest.mark.parametrize("source", ["/a", "/old/page", "/v1.2/x_y~z", "/caf%C3%A9", "/A-B"])
def test_redirect_source_pattern_accepts(world: World, spaces: dict, source: str) -> None:
    r = redirect_to_a_new_section(world, spaces, source)
    assert r.status_code == 201, r.text


def test_redirect_validation(world: World, spaces: dict) -> None:
    site = make_site(world)
    other_site = make_site(world, title="Other")
    foreign = add_section(world, other_site, spaces["api"]["id"])
    section = add_section(world, site, spaces["guide"]["id"])
    url = f"{base(world, site)}/redirects"
    c = world.client()
    good = redirect_body("/old", kind="site-section", siteSectionId=section["id"])
    assert c.post(url, json=good).status_code == 201
    assert_error(c.post(url, json=good), 409, "source", "/old")
    assert_error(
        c.post(url, json=redirect_body("/x", kind="site-section", siteSectionId="nope")),
        400,
        "destination.siteSectionId",
        "nope",
    )
    assert_error(
        c.post(url, json=redirect_body("/x", kind="site-section", siteSectionId=foreign["id"])),
        400,
        "destination.siteSectionId",
    )
    assert_error(c.post(url, json=redirect_body("/x", kind="site-section")), 400, "siteSectionId")
    assert_error(c.post(url, json=redirect_body("/x", kind="teleport")), 400, "destination")
    assert_error(
        c.post(url, json=redirect_body("/x", kind="site-space", siteSpaceId="nope")),
        400,
        "destination.siteSpaceId",
    )
    assert_error(
        c.post(url, json=redirect_body("/x", kind="external", url="not a url")),
        400,
        "destination.url",
    )
    assert_error(c.post(url, json={"source": "/x"}), 400, "destination", "required")
    assert_error(c.post(url, json={"destination": good["destination"]}), 400, "source")
    assert c.get(url).json()["count"] == 1
    assert_error(world.client("eve").post(url, json=good), 403)
    assert_error(world.client("otto").get(url), 404)
    assert_error(world.anonymous().get(url), 401)


def test_redirect_destination_kinds(world: World, spaces: dict) -> None:
    site = make_site(world, spaces=[spaces["guide"]["id"], spaces["api"]["id"]])
    guide, api = site_spaces(world, site)
    add_page(world, spaces["api"]["id"], "page-install", "install")
    url = f"{base(world, site)}/redirects"
    c = world.client()
    to_space = c.post(url, json=redirect_body("/s", kind="site-space", siteSpaceId=api["id"]))
    assert to_space.status_code == 201, to_space.text
    to_page = c.post(
        url,
        json=redirect_body("/p", kind="site-page", siteSpaceId=api["id"], pageId="page-install"),
    )
    assert to_page.status_code == 201, to_page.text
    external = c.post(url, json=redirect_body("/e", kind="external", url="https://example.com/x"))
    assert external.status_code == 201
    by_path = c.post(
        url, json=redirect_body("/q", kind="path", spaceId=spaces["api"]["id"], path="install")
    )
    assert by_path.status_code == 201, by_path.text
    assert by_path.json()["destination"] == {
        "kind": "site-page",
        "siteSpaceId": api["id"],
        "pageId": "page-install",
    }
    assert_error(
        c.post(
            url, json=redirect_body("/z", kind="site-page", siteSpaceId=api["id"], pageId="nope")
        ),
        400,
        "destination.pageId",
    )
    assert_error(
        c.post(
            url, json=redirect_body("/z", kind="path", spaceId=spaces["api"]["id"], path="nope")
        ),
        400,
        "destination.path",
    )
    assert_error(
        c.post(url, json=redirect_body("/z", kind="path", spaceId=spaces["faq"]["id"], path="x")),
        400,
        "destination.spaceId",
    )
    c.post(f"{base(world, site)}/publish")
    root = "https://acme.gitbook.io/handbook"

    def target(source: str) -> str:
        r = world.client("rhea").get(f"{base(world, site)}/redirect", params={"source": source})
        assert r.status_code == 200, r.text
        return str(r.json()["target"])

    assert target("/s") == f"{root}/api"
    assert target("/p") == f"{root}/api/install"
    assert target("/q") == f"{root}/api/install"
    assert target("/e") == "https://example.com/x"
    assert guide["default"] is True


def test_update_and_delete_redirect(world: World, spaces: dict) -> None:
    site = make_site(world)
    first = add_section(world, site, spaces["guide"]["id"])
    second = add_section(world, site, spaces["api"]["id"])
    url = f"{base(world, site)}/redirects"
    c = world.client("carol")
    a = c.post(url, json=redirect_body("/a", kind="site-section", siteSectionId=first["id"])).json()
    c.post(url, json=redirect_body("/b", kind="site-section", siteSectionId=first["id"]))
    r = c.patch(
        f"{url}/{a['id']}",
        json={
            "source": "/renamed",
            "destination": {"kind": "site-section", "siteSectionId": second["id"]},
            "permanent": True,
        },
    )
    assert r.status_code == 200, r.text
    assert r.json()["source"] == "/renamed" and r.json()["permanent"] is True
    assert r.json()["destination"]["siteSectionId"] == second["id"]
    assert r.json()["updatedAt"]
    stored = next(x for x in c.get(url).json()["items"] if x["id"] == a["id"])
    assert stored == r.json()
    assert_error(c.patch(f"{url}/{a['id']}", json={"source": "/b"}), 409, "source")
    assert_error(c.patch(f"{url}/{a['id']}", json={"source": "bad"}), 400, "source")
    assert_error(c.patch(f"{url}/{a['id']}", json={"source": None}), 400, "source")
    assert_error(
        c.patch(
            f"{url}/{a['id']}",
            json={"destination": {"kind": "site-section", "siteSectionId": "nope"}},
        ),
        400,
        "destination.siteSectionId",
    )
    assert_error(c.patch(f"{url}/{a['id']}", json={}), 400, "body")
    assert_error(c.patch(f"{url}/nope", json={"draft": True}), 404, "redirect")
    assert_error(world.client("eve").patch(f"{url}/{a['id']}", json={"draft": True}), 403)
    assert_error(world.client("eve").delete(f"{url}/{a['id']}"), 403)
    d = c.delete(f"{url}/{a['id']}")
    assert d.status_code == 204 and d.content == b""
    assert [x["source"] for x in c.get(url).json()["items"]] == ["/b"]
    assert c.delete(f"{url}/{a['id']}").status_code == 204  # nothing left to delete


def test_list_redirects_filters_and_draft_lookup(world: World, spaces: dict) -> None:
    site = make_site(world)
    section = add_section(world, site, spaces["guide"]["id"])
    url = f"{base(world, site)}/redirects"
    c = world.client()
    dest = {"kind": "site-section", "siteSectionId": section["id"]}
    c.post(url, json={"source": "/zeta", "destination": dest})
    c.post(url, json={"source": "/alpha", "destination": dest})
    c.post(url, json={"source": "/draft-one", "destination": dest, "draft": True})

    def sources(**params: Any) -> list[str]:
        r = c.get(url, params=params)
        assert r.status_code == 200, r.text
        return [x["source"] for x in r.json()["items"]]

    assert sources() == ["/zeta", "/alpha"]
    assert sources(draft="true") == ["/draft-one"]
    assert sources(search="ALP") == ["/alpha"]
    assert sources(orderBy="source") == ["/alpha", "/zeta"]
    assert_error(c.get(url, params={"orderBy": "size"}), 400, "orderBy")
    page = c.get(url, params={"limit": 1}).json()
    assert page["count"] == 2 and "next" in page
    assert_error(c.get(f"{base(world, site)}/redirect", params={"source": "/draft-one"}), 404)


def test_redirect_lookup_share_key(world: World, spaces: dict) -> None:
    site = make_site(world, visibility="share-link")
    section = add_section(world, site, spaces["guide"]["id"])
    world.client().post(
        f"{base(world, site)}/redirects",
        json=redirect_body("/old", kind="site-section", siteSectionId=section["id"]),
    )
    world.client().post(f"{base(world, site)}/publish")
    with world.storage.read() as tx:
        key = tx.get("site", site["id"])["shareKey"]
    url = f"{base(world, site)}/redirect"
    assert_error(world.client("otto").get(url, params={"source": "/old"}), 404)
    r = world.client("otto").get(url, params={"source": "/old", "shareKey": key})
    assert r.status_code == 200 and r.json()["target"] == "https://acme.gitbook.io/handbook"
    assert_error(
        world.client().get(url, params={"source": "/old", "shareKey": "nope"}), 403, "shareKey"
    )
