"""Merge rules: the organization's and each space's setting, their defaults, their checks."""

from __future__ import annotations

from typing import Any

from support.asserts import assert_error
from support.worlds import World


def _cr(world: World, space: dict, as_user: str = "eve") -> dict:
    base = f"/spaces/{space['id']}/change-requests"
    cr = world.client(as_user).post(base, json={"subject": "Edits"}).json()
    change = {"operation": "insert_page", "title": "New", "document": {"markdown": "Hi"}}
    r = world.client(as_user).post(f"{base}/{cr['id']}/content", json={"changes": [change]})
    assert r.status_code == 200, r.text
    return cr


def test_defaults_are_none_for_the_organization_and_inherit_for_spaces(
    world: World, make_space: Any
) -> None:
    c = world.client()
    assert c.get(f"/orgs/{world.org}").json()["mergeRules"] == {"type": "none"}
    assert make_space()["mergeRules"] == {"type": "inherit"}


def test_space_rules_are_enforced_on_merge(world: World, make_space: Any) -> None:
    space = make_space()
    c = world.client()
    rules = {"type": "rules", "rules": [{"rule": "require_at_least_one_approved_review"}]}
    r = c.patch(f"/spaces/{space['id']}", json={"mergeRules": rules})
    assert r.status_code == 200 and r.json()["mergeRules"] == rules
    assert_error(
        world.client("eve").patch(f"/spaces/{space['id']}", json={"mergeRules": rules}), 403
    )
    cr = _cr(world, space)
    url = f"/spaces/{space['id']}/change-requests/{cr['id']}"
    assert_error(world.client("eve").post(f"{url}/merge"), 409, "merge rules", "approving review")
    review = world.client("rita").post(f"{url}/reviews", json={"status": "approved"})
    assert review.status_code == 201, review.text
    assert world.client("eve").post(f"{url}/merge").json()["result"] == "merge"


def test_organization_rules_apply_to_inheriting_spaces_and_bypass(
    world: World, make_space: Any
) -> None:
    c = world.client()
    rules = {
        "type": "rules",
        "rules": [
            {"rule": "require_change_request_description"},
            {"rule": "allow_bypass", "users": [world.users["alice"]]},
        ],
    }
    r = c.patch(f"/orgs/{world.org}", json={"mergeRules": rules})
    assert r.status_code == 200 and r.json()["mergeRules"] == rules
    space = make_space()
    first, second = _cr(world, space), _cr(world, space)
    base = f"/spaces/{space['id']}/change-requests"
    assert_error(world.client("eve").post(f"{base}/{first['id']}/merge"), 409, "description")
    assert c.post(f"{base}/{first['id']}/merge").status_code == 200  # alice may bypass
    # a space with its own rules ignores the organization's
    c.patch(f"/spaces/{space['id']}", json={"mergeRules": {"type": "none"}})
    assert world.client("eve").post(f"{base}/{second['id']}/merge").status_code == 200


def test_rules_are_validated(world: World, make_space: Any) -> None:
    c = world.client()
    space = make_space()
    bad = {"type": "rules", "rules": [{"rule": "require_magic"}]}
    assert_error(c.patch(f"/spaces/{space['id']}", json={"mergeRules": bad}), 400, "mergeRules")
    assert_error(c.patch(f"/orgs/{world.org}", json={"mergeRules": {"type": "inherit"}}), 400)
    assert_error(c.patch(f"/spaces/{space['id']}", json={"mergeRules": None}), 400, "mergeRules")
