"""The organization-wide change request list: filters, access, paging, team reviewers."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from support.asserts import assert_error
from support.worlds import World


def _cr(world: World, space: dict, subject: str, as_user: str = "eve") -> dict:
    world.clock.advance(timedelta(seconds=10))
    r = world.client(as_user).post(
        f"/spaces/{space['id']}/change-requests", json={"subject": subject}
    )
    assert r.status_code == 201, r.text
    return r.json()


def _ask(world: World, space: dict, cr: dict, *users: str, as_user: str = "eve") -> None:
    r = world.client(as_user).post(
        f"/spaces/{space['id']}/change-requests/{cr['id']}/requested-reviewers",
        json={"users": [world.users[u] for u in users]},
    )
    assert r.status_code == 200, r.text


@pytest.fixture
def setup(world: World, make_space: Callable[..., dict]) -> dict:
    guide, api = make_space("Guide"), make_space("API")
    a = _cr(world, guide, "Guide draft")
    b = _cr(world, api, "API open")
    _ask(world, api, b, "rita")
    c = _cr(world, guide, "Guide by carol", as_user="carol")
    _ask(world, guide, c, "rita", as_user="carol")
    return {"guide": guide, "api": api, "a": a, "b": b, "c": c}


def _subjects(world: World, as_user: str = "alice", **params: object) -> list[str]:
    r = world.client(as_user).get(f"/orgs/{world.org}/change-requests", params=params)
    assert r.status_code == 200, r.text
    body = r.json()
    assert all(item["object"] == "change-request" for item in body["items"])
    return [item["subject"] for item in body["items"]]


def test_default_is_open_across_spaces_newest_first(world: World, setup: dict) -> None:
    assert _subjects(world) == ["Guide by carol", "API open"]
    assert _subjects(world, status=["draft", "open"]) == [
        "Guide by carol",
        "API open",
        "Guide draft",
    ]


def test_filters(world: World, setup: dict) -> None:
    users = world.users
    assert _subjects(world, requestedReviewer=users["rita"]) == ["Guide by carol", "API open"]
    assert _subjects(world, creator=users["carol"]) == ["Guide by carol"]
    assert _subjects(world, contributor=users["eve"], status="draft") == ["Guide draft"]
    assert _subjects(world, space=setup["api"]["id"]) == ["API open"]
    assert _subjects(world, topic="t1") == []
    assert _subjects(world, orderBy="createdAt") == ["Guide by carol", "API open"]
    assert _subjects(world, status="draft", orderBy="createdAt") == ["Guide draft"]


def test_bad_filters_are_400(world: World, setup: dict) -> None:
    url = f"/orgs/{world.org}/change-requests"
    assert_error(world.client().get(url, params={"status": "bogus"}), 400)
    assert_error(world.client().get(url, params={"orderBy": "title"}), 400)


def test_site_filter_keeps_the_site_spaces(world: World, setup: dict) -> None:
    r = world.client().post(f"/orgs/{world.org}/sites", json={"title": "Docs"})
    assert r.status_code == 201, r.text
    site = r.json()
    r = world.client().post(
        f"/orgs/{world.org}/sites/{site['id']}/site-spaces", json={"spaceId": setup["api"]["id"]}
    )
    assert r.status_code in (200, 201), r.text
    assert _subjects(world, site=site["id"]) == ["API open"]
    assert _subjects(world, site="nope") == []


def test_only_this_organization_and_its_members(world: World, setup: dict) -> None:
    r = world.client().post(f"/orgs/{world.other_org}/spaces", json={"title": "Elsewhere"})
    assert r.status_code == 201, r.text
    _cr(world, r.json(), "Other org", as_user="alice")
    assert "Other org" not in _subjects(world, status=["draft", "open"])
    assert "Other org" not in _subjects(world, as_user="rhea", status=["draft", "open"])
    assert_error(world.client("otto").get(f"/orgs/{world.org}/change-requests"), 404)


def test_paging(world: World, setup: dict) -> None:
    url = f"/orgs/{world.org}/change-requests"
    first = world.client().get(url, params={"limit": 1, "status": ["draft", "open"]}).json()
    assert len(first["items"]) == 1 and first["next"]["page"]
    second = (
        world.client()
        .get(url, params={"limit": 1, "status": ["draft", "open"], "page": first["next"]["page"]})
        .json()
    )
    assert second["items"][0]["id"] != first["items"][0]["id"]


def test_team_reviewer_counts_for_its_members(world: World, setup: dict) -> None:
    r = world.client().put(
        f"/orgs/{world.org}/teams", json={"title": "Reviewers", "members": [world.users["cody"]]}
    )
    assert r.status_code in (200, 201), r.text
    team = r.json()
    cr = setup["a"]
    with world.storage.transaction() as tx:
        entry = {
            "id": f"{cr['id']}:team:{team['id']}",
            "changeRequest": cr["id"],
            "team": team["id"],
            "revision": cr["revision"],
            "requestedBy": world.users["eve"],
            "createdAt": "2026-11-01T09:00:00Z",
        }
        tx.put("requested-reviewer", entry["id"], entry, scope=cr["id"])
    assert _subjects(world, requestedReviewer=world.users["cody"], status="draft") == [
        "Guide draft"
    ]
    listed = (
        world.client()
        .get(f"/spaces/{setup['guide']['id']}/change-requests/{cr['id']}/requested-reviewers")
        .json()["items"]
    )
    assert listed[0]["kind"] == "team" and listed[0]["team"]["title"] == "Reviewers"


async def test_client_lists_the_organization(world: World, setup: dict, gb) -> None:
    items = [cr async for cr in gb.change_requests.list_for_organization(world.org)]
    assert [cr.subject for cr in items] == ["Guide by carol", "API open"]
    mine = gb.change_requests.list_for_organization(
        world.org, requested_reviewer=world.users["rita"], status=["open"]
    )
    assert len([cr async for cr in mine]) == 2
