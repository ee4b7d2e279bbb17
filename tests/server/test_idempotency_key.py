"""Idempotency-Key on comment, reply, reaction/resolve and review creates: a repeat by the same
user answers the first result and creates nothing; kept in the database across restarts."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from gitbook_tui.server.app import create_app
from gitbook_tui.server.core.idempotency import KEEP_DAYS
from support.asserts import assert_error
from support.worlds import World


def key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}


def thread(world: World, make_space: Any) -> tuple[str, str]:
    space = make_space("Talk")["id"]
    r = world.client().post(f"/spaces/{space}/comments", json={"body": {"markdown": "Q?"}})
    assert r.status_code == 200, r.text
    return space, r.json()["id"]


def test_a_repeated_reply_answers_the_first_and_creates_nothing(
    world: World, make_space: Any
) -> None:
    space, comment = thread(world, make_space)
    url = f"/spaces/{space}/comments/{comment}/replies"
    body = {"body": {"markdown": "Yes."}}
    first = world.client().post(url, json=body, headers=key("k-1"))
    again = world.client().post(url, json=body, headers=key("k-1"))
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert [r["id"] for r in world.client().get(url).json()["items"]] == [first.json()["id"]]
    # another key, or none, is another reply; the same key of another user too
    world.client().post(url, json=body, headers=key("k-2"))
    world.client().post(url, json=body)
    world.client("cody").post(url, json=body, headers=key("k-1"))
    assert len(world.client().get(url).json()["items"]) == 4


def test_the_same_key_on_another_request_is_refused(world: World, make_space: Any) -> None:
    space, comment = thread(world, make_space)
    url = f"/spaces/{space}/comments/{comment}/replies"
    world.client().post(url, json={"body": {"markdown": "One"}}, headers=key("k"))
    other = world.client().post(url, json={"body": {"markdown": "Two"}}, headers=key("k"))
    assert_error(other, 422, "Idempotency-Key")
    elsewhere = world.client().post(
        f"/spaces/{space}/comments", json={"body": {"markdown": "One"}}, headers=key("k")
    )
    assert_error(elsewhere, 422, "different request")
    assert [r["body"]["markdown"] for r in world.client().get(url).json()["items"]] == ["One"]
    assert_error(world.client().post(url, json={"body": {"markdown": "x"}}, headers=key("")), 400)


def test_comment_reaction_and_resolve_are_applied_once(world: World, make_space: Any) -> None:
    space, _ = thread(world, make_space)
    c = world.client()
    new = {"body": {"markdown": "Offline thought"}}
    first = c.post(f"/spaces/{space}/comments", json=new, headers=key("c-1"))
    assert c.post(f"/spaces/{space}/comments", json=new, headers=key("c-1")).json() == first.json()
    comments = c.get(f"/spaces/{space}/comments").json()["items"]
    assert [x["body"]["markdown"] for x in comments].count("Offline thought") == 1
    one = f"/spaces/{space}/comments/{first.json()['id']}"
    react = {"addedReactions": ["👍"]}
    assert c.put(one, json=react, headers=key("r-1")).status_code == 200
    c.put(one, json={"removedReactions": ["👍"]})  # taken back meanwhile (no key)
    c.put(one, json=react, headers=key("r-1"))  # the lost answer's repeat: not applied again
    assert c.get(one).json()["reactions"] == []
    reply = c.post(f"{one}/replies", json={"body": {"markdown": "r"}}).json()
    resolve = {"resolved": True}
    c.put(f"{one}/replies/{reply['id']}", json=resolve, headers=key("s-1"))
    c.put(one, json={"resolved": False})
    c.put(f"{one}/replies/{reply['id']}", json=resolve, headers=key("s-1"))
    assert c.get(one).json()["status"] == "open"


def test_a_repeated_review_is_one_review(world: World, make_space: Any) -> None:
    space = make_space()["id"]
    cr = world.client("eve").post(f"/spaces/{space}/change-requests", json={"subject": "E"})
    url = f"/spaces/{space}/change-requests/{cr.json()['id']}/reviews"
    body = {"status": "approved", "comment": {"markdown": "LGTM"}}
    first = world.client("rita").post(url, json=body, headers=key("v-1"))
    again = world.client("rita").post(url, json=body, headers=key("v-1"))
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["location"] == first.headers["location"]
    assert len(world.client().get(url).json()["items"]) == 1


def test_keys_outlive_a_restart_and_expire_after_weeks(
    world: World, make_space: Any, db_path: Path
) -> None:
    space, comment = thread(world, make_space)
    url = f"/spaces/{space}/comments/{comment}/replies"
    body = {"body": {"markdown": "Sent before the crash"}}
    first = world.client().post(url, json=body, headers=key("before-restart")).json()
    restarted = create_app(db_path, clock=world.clock)
    with TestClient(restarted, base_url="http://testserver/v1") as c:
        c.headers["Authorization"] = "Bearer tok-alice"
        assert c.post(url, json=body, headers=key("before-restart")).json() == first
        assert len(c.get(url).json()["items"]) == 1
        world.clock.advance(timedelta(days=KEEP_DAYS + 1))
        c.post(url, json={"body": {"markdown": "later"}}, headers=key("another"))  # prunes
        assert c.post(url, json=body, headers=key("before-restart")).json()["id"] != first["id"]
        assert len(c.get(url).json()["items"]) == 3
