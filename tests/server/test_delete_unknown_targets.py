"""Deleting what the caller cannot see, or a child under the wrong parent: 404, nothing deleted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.asserts import assert_error
from support.worlds import World


@dataclass
class Case:
    """A DELETE that must answer 404: ``who`` deletes ``path``; ``there`` (if any) still reads
    200 afterwards, or lists the target among its items when ``listed`` names its id."""

    who: str
    path: str
    there: str | None
    what: str
    listed: str | None = None


def made(response: Any) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    return response.json()


def site_with_children(c: TestClient, org: str, space_ids: list[str]) -> dict[str, str]:
    """A site of ``org`` with a section, a site space, a section group and a redirect."""
    site = made(c.post(f"/orgs/{org}/sites", json={"title": "Docs"}))
    base = f"/orgs/{org}/sites/{site['id']}"
    section = made(c.post(f"{base}/sections", json={"spaceId": space_ids[0]}))
    ss = made(c.post(f"{base}/site-spaces", json={"spaceId": space_ids[1]}))
    group = made(c.post(f"{base}/section-groups", json={"title": "Group"}))
    destination = {"kind": "external", "url": "https://example.com/"}
    redirect = made(
        c.post(f"{base}/redirects", json={"source": "/old", "destination": destination})
    )
    ids = {"sections": section, "site-spaces": ss, "section-groups": group, "redirects": redirect}
    return {"base": base} | {child: item["id"] for child, item in ids.items()}


def outsider_collection(world: World, _: Callable[..., dict]) -> Case:
    coll = made(world.client().post(f"/orgs/{world.org}/collections", json={"title": "Mine"}))
    return Case("otto", f"/collections/{coll['id']}", f"/collections/{coll['id']}", "collection")


def outsider_space(world: World, make_space: Callable[..., dict]) -> Case:
    space = make_space()
    return Case("otto", f"/spaces/{space['id']}", f"/spaces/{space['id']}", "space")


def outsider_deleted_space(world: World, make_space: Callable[..., dict]) -> Case:
    space = make_space()
    assert world.client().delete(f"/spaces/{space['id']}").status_code == 205
    return Case("otto", f"/spaces/{space['id']}", None, "space")  # no read of a deleted space


def site_of_other_org(world: World, make_space: Callable[..., dict]) -> Case:
    site = made(world.client().post(f"/orgs/{world.other_org}/sites", json={"title": "Theirs"}))
    there = f"/orgs/{world.other_org}/sites/{site['id']}"
    return Case("alice", f"/orgs/{world.org}/sites/{site['id']}", there, "site")


def site_child(child: str, what: str) -> Callable[[World, Callable[..., dict]], Case]:
    """A section, site space, group or redirect of site B deleted under site A."""

    def build(world: World, make_space: Callable[..., dict]) -> Case:
        c, spaces = world.client(), [make_space("One")["id"], make_space("Two")["id"]]
        owner = site_with_children(c, world.org, spaces)
        other = made(c.post(f"/orgs/{world.org}/sites", json={"title": "Other"}))
        wrong = f"/orgs/{world.org}/sites/{other['id']}/{child}/{owner[child]}"
        return Case("alice", wrong, f"{owner['base']}/{child}", what, listed=owner[child])

    return build


def org_child(listing: str, what: str, create: str, body: dict[str, Any]) -> Callable[..., Case]:
    """A team, translation or link invite of the other organization deleted under this one
    by an admin of both."""

    def build(world: World, _: Callable[..., dict]) -> Case:
        c = world.client()
        item = made(c.request(create, f"/orgs/{world.other_org}/{listing}", json=body))
        there = f"/orgs/{world.other_org}/{listing}/{item['id']}"
        return Case("alice", f"/orgs/{world.org}/{listing}/{item['id']}", there, what)

    return build


def comment_of_other_space(world: World, make_space: Callable[..., dict]) -> Case:
    c, first, second = world.client(), make_space("One"), make_space("Two")
    thread = made(c.post(f"/spaces/{first['id']}/comments", json={"body": {"markdown": "hi"}}))
    there = f"/spaces/{first['id']}/comments/{thread['id']}"
    return Case("alice", f"/spaces/{second['id']}/comments/{thread['id']}", there, "comment")


def comment_of_other_change_request(world: World, make_space: Callable[..., dict]) -> Case:
    c, space = world.client(), make_space()
    crs = [made(c.post(f"/spaces/{space['id']}/change-requests", json={})) for _ in range(2)]
    mine, other = (f"/spaces/{space['id']}/change-requests/{cr['id']}" for cr in crs)
    thread = made(c.post(f"{mine}/comments", json={"body": {"markdown": "hi"}}))
    there = f"{mine}/comments/{thread['id']}"
    return Case("alice", f"{other}/comments/{thread['id']}", there, "comment")


def replies_setup(world: World, make_space: Callable[..., dict]) -> tuple[str, str, str]:
    """(the thread's URL, another thread's URL, a reply's id) in one space."""
    c, space = world.client("cody"), make_space()
    url = f"/spaces/{space['id']}/comments"
    first, second = (made(c.post(url, json={"body": {"markdown": t}})) for t in ("a", "b"))
    reply = made(c.post(f"{url}/{first['id']}/replies", json={"body": {"markdown": "re"}}))
    return f"{url}/{first['id']}", f"{url}/{second['id']}", reply["id"]


def reply_under_other_thread(world: World, make_space: Callable[..., dict]) -> Case:
    thread, other, reply = replies_setup(world, make_space)
    return Case("cody", f"{other}/replies/{reply}", f"{thread}/replies/{reply}", "reply")


def reply_under_missing_thread(world: World, make_space: Callable[..., dict]) -> Case:
    thread, _, reply = replies_setup(world, make_space)
    missing = thread.rsplit("/", 1)[0] + "/nope"
    return Case("cody", f"{missing}/replies/{reply}", f"{thread}/replies/{reply}", "comment")


def private_integration(world: World, _: Callable[..., dict]) -> Case:
    body = {"title": "Hidden", "organization": world.other_org, "script": "export default {}"}
    made(world.client("otto").post("/integrations/hidden", json=body))
    return Case("rhea", "/integrations/hidden", "/integrations/hidden", "integration")


CASES: dict[str, Callable[[World, Callable[..., dict]], Case]] = {
    "outsider-collection": outsider_collection,
    "outsider-space": outsider_space,
    "outsider-deleted-space": outsider_deleted_space,
    "site-of-other-org": site_of_other_org,
    "section-of-other-site": site_child("sections", "section"),
    "site-space-of-other-site": site_child("site-spaces", "site space"),
    "group-of-other-site": site_child("section-groups", "group"),
    "redirect-of-other-site": site_child("redirects", "redirect"),
    "team-of-other-org": org_child("teams", "team", "PUT", {"title": "Theirs"}),
    "translation-of-other-org": org_child("translations", "translation", "POST", {"title": "T"}),
    "invite-of-other-org": org_child("link-invites", "invite", "POST", {"role": "read"}),
    "comment-of-other-space": comment_of_other_space,
    "comment-of-other-change-request": comment_of_other_change_request,
    "reply-under-other-thread": reply_under_other_thread,
    "reply-under-missing-thread": reply_under_missing_thread,
    "private-integration": private_integration,
}

# The owner of each case's target, who reads it back afterwards.
READER = {"private-integration": "otto"}


@pytest.mark.parametrize("name", CASES)
def test_deleting_what_the_caller_cannot_see_is_404_and_deletes_nothing(
    world: World, make_space: Callable[..., dict], name: str
) -> None:
    case = CASES[name](world, make_space)
    assert_error(world.client(case.who).delete(case.path), 404, case.what)
    if case.there is not None:
        read = world.client(READER.get(name, "alice")).get(case.there)
        assert read.status_code == 200, read.text
        if case.listed is not None:
            assert case.listed in [item["id"] for item in read.json()["items"]]


def test_a_reply_that_existed_and_is_gone_is_still_204(
    world: World, make_space: Callable[..., dict]
) -> None:
    thread, _, reply = replies_setup(world, make_space)
    c = world.client("cody")
    assert c.delete(f"{thread}/replies/{reply}").status_code == 205
    assert c.delete(f"{thread}/replies/{reply}").status_code == 204
    assert world.client().get(f"{thread}/replies/{reply}").status_code == 404
