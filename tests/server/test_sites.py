"""Sites: list/create/read/update/delete, adaptive schema, publishing and the published profile."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from support.asserts import assert_error
from support.worlds import START, World


def sites_url(world: World) -> str:
    return f"/orgs/{world.org}/sites"


def make_site(world: World, as_user: str = "alice", **body: Any) -> dict:
    body.setdefault("title", "Handbook")
    r = world.client(as_user).post(sites_url(world), json=body)
    assert r.status_code == 201, r.text
    return r.json()


def site_url(world: World, site: dict) -> str:
    return f"{sites_url(world)}/{site['id']}"


def stored_site(world: World, site_id: str) -> dict:
    with world.storage.read() as tx:
        record = tx.get("site", site_id)
    assert record is not None
    return record


# -- create -------------------------------------------------------------------------------


def test_create_site_defaults_location_and_root_site_spaces(
    world: World, make_space: Callable[..., dict]
) -> None:
    guide, api = make_space("Guide"), make_space("API")
    r = world.client("carol").post(
        sites_url(world), json={"title": "Handbook", "spaces": [guide["id"], api["id"]]}
    )
    assert r.status_code == 201
    site = r.json()
    assert r.headers["location"].endswith(f"/v1/orgs/{world.org}/sites/{site['id']}")
    assert site["object"] == "site"
    assert site["type"] == "basic" and site["appliedType"] == "basic"
    assert site["title"] == "Handbook"
    assert site["basename"] == "handbook"
    assert site["visibility"] == "public"
    assert site["published"] is False
    assert site["siteSpaces"] == 2
    assert site["createdAt"].startswith("2026-11-01T09:00:00")
    assert site["adaptiveContent"] == {"enabled": False}
    assert site["agentsContext"] == "included"
    assert site["features"] == []
    assert site["urls"]["location"].endswith(f"/v1/orgs/{world.org}/sites/{site['id']}")
    assert site["urls"]["app"].endswith(f"/app/o/{world.org}/sites/{site['id']}")
    assert "published" not in site["urls"]  # only defined once published
    assert site["permissions"]["create"] is True and site["permissions"]["admin"] is False
    listed = world.client().get(f"{site_url(world, site)}/site-spaces").json()
    assert [ss["space"]["id"] for ss in listed["items"]] == [guide["id"], api["id"]]
    assert [ss["default"] for ss in listed["items"]] == [True, False]
    assert all("section" not in ss for ss in listed["items"])  # at the root
    assert world.client().get(site_url(world, site)).json()["title"] == "Handbook"


def test_create_site_type_visibility_and_unique_basename(world: World) -> None:
    first = make_site(world, title="Handbook", type="premium", visibility="unlisted")
    assert (first["type"], first["visibility"]) == ("premium", "unlisted")
    second = make_site(world, title="Handbook")
    assert second["basename"] == "handbook-2"
    untitled = world.client().post(sites_url(world), json={})
    assert untitled.status_code == 201 and untitled.json()["title"] == "Untitled site"


def test_create_site_validation(world: World, make_space: Callable[..., dict]) -> None:
    c = world.client()
    assert_error(c.post(sites_url(world), json={"title": "x"}), 400, "title")
    assert_error(c.post(sites_url(world), json={"title": "x" * 129}), 400, "title")
    assert_error(c.post(sites_url(world), json={"visibility": "private"}), 400, "visibility")
    assert_error(c.post(sites_url(world), json={"type": "gold"}), 400, "type")
    assert_error(c.post(sites_url(world), json={"spaces": "abc"}), 400, "spaces")
    assert_error(c.post(sites_url(world), json={"spaces": ["nope"]}), 400, "spaces", "'nope'")
    other = c.post(f"/orgs/{world.other_org}/spaces", json={"title": "Elsewhere"}).json()
    assert_error(c.post(sites_url(world), json={"spaces": [other["id"]]}), 400, other["id"])
    gone = make_space("Gone")
    assert c.delete(f"/spaces/{gone['id']}").status_code == 205
    assert_error(c.post(sites_url(world), json={"spaces": [gone["id"]]}), 400, gone["id"])
    twice = make_space("Twice")
    assert_error(
        c.post(sites_url(world), json={"spaces": [twice["id"], twice["id"]]}), 400, "spaces"
    )
    # nothing was stored by the failed attempts
    assert c.get(sites_url(world)).json()["count"] == 0


@pytest.mark.parametrize("where", ["query", "body"])
def test_create_site_with_a_new_space(world: World, where: str) -> None:
    c = world.client()
    if where == "query":
        r = c.post(sites_url(world), params={"createSpace": "true"}, json={"title": "Fresh docs"})
    else:
        r = c.post(sites_url(world), json={"title": "Fresh docs", "createSpace": True})
    assert r.status_code == 201
    site = r.json()
    assert site["siteSpaces"] == 1
    ss = c.get(f"{site_url(world, site)}/site-spaces").json()["items"][0]
    assert ss["space"]["title"] == "Fresh docs" and ss["default"] is True
    space = c.get(f"/spaces/{ss['space']['id']}")
    assert space.status_code == 200 and space.json()["organization"] == world.org


def test_create_site_permissions(world: World) -> None:
    assert_error(world.client("eve").post(sites_url(world), json={"title": "No"}), 403, "create")
    assert_error(world.client("otto").post(sites_url(world), json={"title": "No"}), 404)
    assert_error(world.anonymous().post(sites_url(world), json={"title": "No"}), 401)


# -- list / get ---------------------------------------------------------------------------


def test_list_sites_filters_and_paging(world: World, make_space: Callable[..., dict]) -> None:
    guide = make_space("Guide")
    a = make_site(world, title="Alpha docs", spaces=[guide["id"]])
    b = make_site(world, title="Beta docs", type="premium")
    c = make_site(world, title="Gamma")
    world.client().post(f"{site_url(world, b)}/publish")
    client = world.client("rhea")

    def ids(**params: Any) -> list[str]:
        r = client.get(sites_url(world), params=params)
        assert r.status_code == 200, r.text
        return [s["id"] for s in r.json()["items"]]

    assert ids() == [a["id"], b["id"], c["id"]]
    assert ids(space=guide["id"]) == [a["id"]]
    assert ids(title="DOCS") == [a["id"], b["id"]]
    assert ids(published="true") == [b["id"]]
    assert ids(published="false") == [a["id"], c["id"]]
    assert ids(type="premium") == [b["id"]]
    assert ids(type=["basic", "premium"]) == [a["id"], b["id"], c["id"]]
    page = client.get(sites_url(world), params={"limit": 2}).json()
    assert page["count"] == 3 and len(page["items"]) == 2
    rest = client.get(sites_url(world), params={"limit": 2, "page": page["next"]["page"]}).json()
    assert [s["id"] for s in rest["items"]] == [c["id"]] and "next" not in rest
    assert_error(client.get(sites_url(world), params={"type": "gold"}), 400, "type")
    assert_error(client.get(sites_url(world), params={"limit": 1001}), 400, "limit")
    assert_error(world.client("otto").get(sites_url(world)), 404, "organization")
    assert_error(world.anonymous().get(sites_url(world)), 401)


def test_get_site_shape_and_access(world: World) -> None:
    site = make_site(world)
    body = world.client("rhea").get(site_url(world, site)).json()
    assert body["id"] == site["id"] and body["object"] == "site"
    assert body["defaultLevel"] == "inherit"
    assert body["permissions"] == {
        "view": True,
        "access": True,
        "edit": False,
        "create": False,
        "admin": False,
        "installIntegration": False,
        "viewAdaptiveSchema": True,
        "editAdaptiveSchema": False,
    }
    assert world.client().get(site_url(world, site)).json()["permissions"]["admin"] is True
    assert_error(world.client("otto").get(site_url(world, site)), 404)
    assert_error(world.client().get(f"{sites_url(world)}/nope"), 404, "site", "nope")
    # the site is not reachable through another organization
    assert_error(world.client().get(f"/orgs/{world.other_org}/sites/{site['id']}"), 404, "site")


# -- update -------------------------------------------------------------------------------


def test_patch_site_fields_persist(world: World) -> None:
    site = make_site(world)
    c = world.client("carol")
    r = c.patch(
        site_url(world, site),
        json={
            "title": "Developer handbook",
            "visibility": "share-link",
            "basename": "dev",
            "adaptiveContent": {"enabled": True},
            "agentsContext": "excluded",
            "defaultLevel": "read",
        },
    )
    assert r.status_code == 200, r.text
    body = c.get(site_url(world, site)).json()
    assert body["title"] == "Developer handbook"
    assert body["visibility"] == "share-link"
    assert body["basename"] == "dev"
    assert body["adaptiveContent"] == {"enabled": True}
    assert body["agentsContext"] == "excluded"
    assert body["defaultLevel"] == "read"
    assert r.json() == body


def test_patch_site_validation(world: World) -> None:
    site = make_site(world)
    other = make_site(world, title="Other")
    c = world.client()
    url = site_url(world, site)
    assert_error(c.patch(url, json={}), 400, "body")
    assert_error(c.patch(url, json={"title": "x"}), 400, "title")
    assert_error(c.patch(url, json={"title": None}), 400, "title")
    assert_error(c.patch(url, json={"visibility": "private"}), 400, "visibility")
    assert_error(c.patch(url, json={"visibility": None}), 400, "visibility")
    assert_error(c.patch(url, json={"basename": "has space"}), 400, "basename")
    assert_error(c.patch(url, json={"basename": ""}), 400, "basename")
    assert_error(c.patch(url, json={"basename": "b" * 101}), 400, "basename")
    assert_error(c.patch(url, json={"adaptiveContent": {}}), 400, "adaptiveContent")
    assert_error(c.patch(url, json={"agentsContext": "maybe"}), 400, "agentsContext")
    assert_error(c.patch(url, json={"defaultLevel": "boss"}), 400, "defaultLevel")
    assert_error(c.patch(url, json={"defaultSiteSpace": "nope"}), 400, "defaultSiteSpace")
    assert_error(c.patch(url, json={"defaultSiteSection": "nope"}), 400, "defaultSiteSection")
    assert_error(c.patch(url, json={"basename": other["basename"]}), 409, "basename")
    assert c.get(url).json()["title"] == "Handbook"  # nothing changed
    assert_error(world.client("eve").patch(url, json={"title": "Nope"}), 403)
    assert_error(world.client("otto").patch(url, json={"title": "Nope"}), 404)


@pytest.mark.parametrize(
    "origin", ["company.com/docs", "www.company.co.uk/developer/docs", "my-co.io/a_b/c-d"]
)
def test_patch_proxy_accepts_the_pattern(world: World, origin: str) -> None:
    site = make_site(world)
    r = world.client().patch(site_url(world, site), json={"proxy": origin})
    assert r.status_code == 200, r.text
    proxy = world.client().get(site_url(world, site)).json()["proxy"]
    assert proxy["origin"] == origin
    assert proxy["target"].startswith("https://") and site["id"] in proxy["target"]


@pytest.mark.parametrize(
    "origin",
    ["https://company.com/docs", "company.com", "company.com/", "company/docs", "a.b/docs x"],
)
def test_patch_proxy_rejects_other_values(world: World, origin: str) -> None:
    site = make_site(world)
    assert_error(world.client().patch(site_url(world, site), json={"proxy": origin}), 400, "proxy")


def test_patch_proxy_null_removes_it_and_drives_the_published_url(world: World) -> None:
    site = make_site(world)
    c = world.client()
    c.patch(site_url(world, site), json={"proxy": "company.com/docs"})
    published = c.post(f"{site_url(world, site)}/publish").json()
    assert published["urls"]["published"] == "https://company.com/docs"
    r = c.patch(site_url(world, site), json={"proxy": None})
    assert r.status_code == 200 and "proxy" not in r.json()
    assert "proxy" not in c.get(site_url(world, site)).json()
    assert c.get(site_url(world, site)).json()["urls"]["published"] == (
        "https://acme.gitbook.io/handbook"
    )


def test_hostname_is_not_settable_through_the_update(world: World) -> None:
    # The openapi's site update has no `hostname`: unknown fields are ignored.
    site = make_site(world)
    r = world.client().patch(site_url(world, site), json={"title": "Docs", "hostname": "x.y.z"})
    assert r.status_code == 200 and "hostname" not in r.json()
    assert_error(world.client().patch(site_url(world, site), json={"hostname": "a.b.c"}), 400)


# -- delete -------------------------------------------------------------------------------


def test_delete_site_needs_admin_and_removes_its_structure(
    world: World, make_space: Callable[..., dict]
) -> None:
    guide = make_space("Guide")
    site = make_site(world, spaces=[guide["id"]])
    base = site_url(world, site)
    section = world.client().post(f"{base}/sections", json={"spaceId": guide["id"]}).json()
    world.client().post(
        f"{base}/redirects",
        json={
            "source": "/old",
            "destination": {"kind": "site-section", "siteSectionId": section["id"]},
        },
    )
    assert_error(world.client("carol").delete(base), 403, "admin")
    assert_error(world.client("otto").delete(base), 404)
    r = world.client().delete(base)
    assert r.status_code == 204 and r.content == b""
    assert_error(world.client().get(base), 404, "site")
    assert world.client().get(sites_url(world)).json()["count"] == 0
    with world.storage.read() as tx:
        for kind in ("site-section", "site-space", "site-redirect"):
            assert tx.count(kind, site["id"]) == 0
    assert world.client().get(f"/spaces/{guide['id']}").status_code == 200  # spaces stay
    assert world.client().delete(base).status_code == 204  # nothing left to delete


# -- adaptive schema ----------------------------------------------------------------------


def adaptive_schema(**claims: Any) -> dict:
    unsigned = claims.pop("unsigned", {})
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "unsigned": {
                "type": "object",
                "description": "Unsigned claims of the site visitor.",
                "properties": unsigned,
                "additionalProperties": False,
            },
            **claims,
        },
        "additionalProperties": False,
    }


def test_adaptive_schema_default_before_any_put(world: World) -> None:
    site = make_site(world)
    body = world.client("rhea").get(f"{site_url(world, site)}/adaptive-schema").json()
    assert body["object"] == "site-adaptive-schema"
    schema = body["jsonSchema"]
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema["$id"]
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["properties"]["unsigned"]["properties"] == {}
    assert body["updatedAt"] == site["createdAt"]
    conditions = world.client().get(f"{site_url(world, site)}/adaptive-schema/template-conditions")
    assert conditions.json() == {"items": []}


def test_adaptive_schema_put_persists_and_derives_template_conditions(world: World) -> None:
    site = make_site(world)
    url = f"{site_url(world, site)}/adaptive-schema"
    schema = adaptive_schema(
        unsigned={
            "beta": {"type": "boolean", "description": "Beta tester"},
            "isAdmin": {"type": "boolean"},
        },
        paying={"type": "boolean", "description": "Paying customer"},
    )
    world.clock.advance(timedelta(hours=1))
    r = world.client("carol").put(url, json={"jsonSchema": schema})
    assert r.status_code == 200, r.text
    assert r.json()["jsonSchema"] == schema
    assert r.json()["updatedAt"].startswith("2026-11-01T10:00")
    assert world.client("rhea").get(url).json() == r.json()
    items = world.client("rhea").get(f"{url}/template-conditions").json()["items"]
    assert items == [
        {"description": "Beta tester", "condition": "visitor.claims.unsigned.beta == true"},
        {
            "description": "The visitor's unsigned claim 'isAdmin' is true",
            "condition": "visitor.claims.unsigned.isAdmin == true",
        },
        {"description": "Paying customer", "condition": "visitor.claims.paying == true"},
    ]


def _bad(schema_change: Callable[[dict], None]) -> dict:
    schema = adaptive_schema(unsigned={"beta": {"type": "boolean"}})
    schema_change(schema)
    return schema


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        (lambda s: s.update(type=12), ["json schema", "draft-07"]),
        (lambda s: s.update(type="array"), ["jsonSchema.type", "object"]),
        (lambda s: s.pop("additionalProperties"), ["jsonSchema.additionalProperties", "false"]),
        (lambda s: s.update(additionalProperties=True), ["jsonSchema.additionalProperties"]),
        (lambda s: s.pop("properties"), ["jsonSchema.properties", "required"]),
        (lambda s: s["properties"].pop("unsigned"), ["jsonSchema.properties.unsigned"]),
        (
            lambda s: s["properties"]["unsigned"].update(type="string"),
            ["jsonSchema.properties.unsigned.type"],
        ),
        (
            lambda s: s["properties"]["unsigned"].pop("additionalProperties"),
            ["jsonSchema.properties.unsigned.additionalProperties"],
        ),
        (
            lambda s: s["properties"]["unsigned"]["properties"].update(
                plan={"type": "string", "description": "Plan"}
            ),
            ["jsonSchema.properties.unsigned.properties.plan", "boolean"],
        ),
        (
            lambda s: s["properties"].update(country={"type": "string"}),
            ["jsonSchema.properties.country", "boolean"],
        ),
        (
            lambda s: s["properties"]["unsigned"]["properties"].update(
                {"my claim": {"type": "boolean"}}
            ),
            ["my claim", "identifier"],
        ),
        (
            lambda s: s["properties"]["unsigned"]["properties"]["beta"].update(default=True),
            ["beta", "unexpected", "default"],
        ),
        (lambda s: s.update(required=["beta"]), ["jsonSchema", "unexpected", "required"]),
        (
            lambda s: s.update({"$schema": "http://json-schema.org/draft-04/schema#"}),
            ["jsonSchema.$schema", "draft-07"],
        ),
    ],
)
def test_adaptive_schema_put_rejects_each_violation(
    world: World, change: Callable[[dict], None], fragments: list[str]
) -> None:
    site = make_site(world)
    url = f"{site_url(world, site)}/adaptive-schema"
    assert_error(world.client().put(url, json={"jsonSchema": _bad(change)}), 400, *fragments)
    assert (
        world.client().get(url).json()["jsonSchema"]["properties"]["unsigned"]["properties"] == {}
    )


def test_adaptive_schema_put_reports_every_violation_and_needs_a_body(world: World) -> None:
    site = make_site(world)
    url = f"{site_url(world, site)}/adaptive-schema"
    both = _bad(lambda s: s.update(type="array", additionalProperties=True))
    assert_error(
        world.client().put(url, json={"jsonSchema": both}),
        400,
        "jsonSchema.type",
        "jsonSchema.additionalProperties",
    )
    assert_error(world.client().put(url, json={}), 400, "jsonSchema", "required")
    assert_error(world.client().put(url, json={"jsonSchema": [1]}), 400, "jsonSchema")


def test_adaptive_schema_permissions(world: World) -> None:
    site = make_site(world)
    url = f"{site_url(world, site)}/adaptive-schema"
    good = {"jsonSchema": adaptive_schema()}
    assert_error(world.client("eve").put(url, json=good), 403)
    assert_error(world.client("rhea").put(url, json=good), 403)
    assert_error(world.client("otto").get(url), 404)
    assert_error(world.client("otto").get(f"{url}/template-conditions"), 404)
    assert_error(world.anonymous().get(url), 401)


# -- publishing ---------------------------------------------------------------------------


def test_publish_and_unpublish(world: World) -> None:
    site = make_site(world)
    base = site_url(world, site)
    assert_error(world.client("carol").post(f"{base}/publish"), 403, "admin")
    assert_error(world.client("otto").post(f"{base}/publish"), 404)
    r = world.client().post(f"{base}/publish")
    assert r.status_code == 200
    assert r.json()["object"] == "site" and r.json()["published"] is True
    assert r.json()["urls"]["published"] == "https://acme.gitbook.io/handbook"
    assert world.client("rhea").get(base).json()["published"] is True
    assert world.client().post(f"{base}/publish").json()["published"] is True  # idempotent
    assert_error(world.client("carol").post(f"{base}/unpublish"), 403, "admin")
    r = world.client().post(f"{base}/unpublish")
    assert r.status_code == 200
    assert r.json()["object"] == "site" and r.json()["published"] is False
    assert "published" not in r.json()["urls"]
    assert world.client().get(base).json()["published"] is False


def test_published_profile_only_for_published_sites(
    world: World, make_space: Callable[..., dict]
) -> None:
    guide, api = make_space("Guide"), make_space("API")
    site = make_site(world, spaces=[guide["id"], api["id"]])
    base = site_url(world, site)
    assert_error(world.client().get(f"{base}/published"), 404, "not published")
    world.client().post(f"{base}/publish")
    r = world.client("rhea").get(f"{base}/published")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["object"] == "published-content-site"
    assert body["site"]["id"] == site["id"] and body["site"]["published"] is True
    assert body["structure"]["type"] == "siteSpaces"
    spaces = body["structure"]["structure"]
    assert [ss["space"]["id"] for ss in spaces] == [guide["id"], api["id"]]
    assert spaces[0]["urls"]["published"] == "https://acme.gitbook.io/handbook"
    assert spaces[1]["urls"]["published"] == "https://acme.gitbook.io/handbook/api"
    assert set(body["customizations"]) == {"site", "siteSpaces"}
    assert body["customizations"]["site"]["title"] == "Handbook"
    assert set(body["customizations"]["siteSpaces"]) == {ss["id"] for ss in spaces}
    assert body["scripts"] == []
    world.client().post(f"{base}/unpublish")
    assert_error(world.client().get(f"{base}/published"), 404, "not published")


def test_published_profile_with_sections(world: World, make_space: Callable[..., dict]) -> None:
    guide, api = make_space("Guide"), make_space("API")
    site = make_site(world)
    base = site_url(world, site)
    first = world.client().post(f"{base}/sections", json={"spaceId": guide["id"]}).json()
    second = world.client().post(f"{base}/sections", json={"spaceId": api["id"]}).json()
    world.client().post(f"{base}/publish")
    body = world.client().get(f"{base}/published").json()
    assert body["structure"]["type"] == "sections"
    sections = body["structure"]["structure"]
    assert [s["id"] for s in sections] == [first["id"], second["id"]]
    assert sections[0]["object"] == "site-section" and sections[0]["default"] is True
    assert sections[0]["urls"]["published"] == "https://acme.gitbook.io/handbook"
    assert sections[1]["urls"]["published"] == "https://acme.gitbook.io/handbook/api"
    assert sections[1]["siteSpaces"][0]["space"]["id"] == api["id"]


def test_published_profile_share_key(world: World, make_space: Callable[..., dict]) -> None:
    guide = make_space("Guide")
    site = make_site(world, visibility="share-link", spaces=[guide["id"]])
    base = f"{site_url(world, site)}/published"
    world.client().post(f"{site_url(world, site)}/publish")
    key = stored_site(world, site["id"])["shareKey"]
    assert key
    outsider = world.client("otto")
    assert_error(outsider.get(base), 404)
    assert_error(outsider.get(base, params={"shareKey": "wrong"}), 404)
    r = outsider.get(base, params={"shareKey": key})
    assert r.status_code == 200 and r.json()["site"]["id"] == site["id"]
    assert r.json()["site"]["permissions"]["view"] is False
    assert_error(world.client().get(base, params={"shareKey": "wrong"}), 403, "shareKey")
    assert world.client("rhea").get(base).status_code == 200  # members need no key
    # once unpublished, the key no longer opens it
    world.client().post(f"{site_url(world, site)}/unpublish")
    assert_error(outsider.get(base, params={"shareKey": key}), 404)


def test_published_profile_visibility_for_non_members(world: World) -> None:
    public = make_site(world, title="Public docs")
    private = make_site(world, title="Members docs", visibility="visitor-auth")
    for site in (public, private):
        world.client().post(f"{site_url(world, site)}/publish")
    assert world.client("otto").get(f"{site_url(world, public)}/published").status_code == 200
    assert_error(world.client("otto").get(f"{site_url(world, private)}/published"), 404)
    assert_error(world.anonymous().get(f"{site_url(world, public)}/published"), 401)


def test_site_json_created_at_uses_the_clock(world: World) -> None:
    site = make_site(world)
    assert site["createdAt"].startswith(START.strftime("%Y-%m-%dT%H:%M"))
