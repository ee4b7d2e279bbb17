"""One rule for deleting what is not there: 204 No Content, for every DELETE operation.

The official description declares only 204 and 205 for its deletions (no 404): a deletion
whose target does not exist (or is already deleted) answers 204 — the state asked for holds.
The resources in the path *above* the target must exist. (A target the caller cannot see, or
one under another parent, is a 404: test_delete_unknown_targets.py.)
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from support.asserts import assert_error
from support.worlds import World


@pytest.fixture
def ids(world: World, make_space: Callable[..., dict]) -> dict[str, str]:
    c = world.client()
    space = make_space()
    cr = c.post(f"/spaces/{space['id']}/change-requests", json={"subject": "x"}).json()
    site = c.post(f"/orgs/{world.org}/sites", json={"title": "Docs"}).json()
    thread = c.post(f"/spaces/{space['id']}/comments", json={"body": {"markdown": "hi"}}).json()
    return {
        "org": world.org,
        "space": space["id"],
        "cr": cr["id"],
        "site": site["id"],
        "comment": thread["id"],
    }


UNKNOWN_TARGETS = [
    "/collections/nope",
    "/spaces/nope",
    "/orgs/{org}/sites/nope",
    "/orgs/{org}/sites/{site}/sections/nope",
    "/orgs/{org}/sites/{site}/site-spaces/nope",
    "/orgs/{org}/sites/{site}/redirects/nope",
    "/orgs/{org}/teams/nope",
    "/orgs/{org}/translations/nope",
    "/orgs/{org}/link-invites/nope",
    "/orgs/{org}/openapi/nope",
    "/spaces/{space}/comments/nope",
    "/spaces/{space}/comments/{comment}/replies/nope",
    "/spaces/{space}/change-requests/{cr}/comments/nope",
    "/spaces/{space}/change-requests/{cr}/requested-reviewers/nope",
    "/spaces/{space}/permissions/users/nope",
]


@pytest.mark.parametrize("path", UNKNOWN_TARGETS)
def test_deleting_an_unknown_target_answers_204(
    world: World, ids: dict[str, str], path: str
) -> None:
    r = world.client().delete(path.format(**ids))
    assert r.status_code == 204, r.text
    assert r.content == b""


def test_the_path_above_the_target_must_exist(world: World, ids: dict[str, str]) -> None:
    c = world.client()
    assert_error(c.delete("/orgs/nope/sites/x"), 404, "organization")
    assert_error(c.delete(f"/orgs/{world.org}/sites/nope/sections/x"), 404, "site")
    assert_error(c.delete("/spaces/nope/comments/x"), 404, "space")


def test_deleting_twice_is_205_then_204(world: World, ids: dict[str, str]) -> None:
    c = world.client()
    coll = c.post(f"/orgs/{world.org}/collections", json={"title": "Gone"}).json()
    assert c.delete(f"/collections/{coll['id']}").status_code == 205
    assert c.delete(f"/collections/{coll['id']}").status_code == 204
    assert c.delete(f"/spaces/{ids['space']}").status_code == 205
    assert c.delete(f"/spaces/{ids['space']}").status_code == 204
    # a deleted space can still be restored: the second deletion changed nothing
    assert c.post(f"/spaces/{ids['space']}/restore").status_code == 200
