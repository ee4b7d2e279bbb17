"""One length limit (models.limits.MAX_BODY_CHARS) for every typed body the server accepts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from gitbook_tui.models.limits import MAX_BODY_CHARS
from support.asserts import assert_error
from support.worlds import World

LONG = "x" * (MAX_BODY_CHARS + 1)


def document(text: str) -> dict[str, Any]:
    """An official JSON document of one paragraph holding ``text``."""
    leaf = {"object": "leaf", "text": text, "marks": []}
    paragraph = {"object": "text", "leaves": [leaf]}
    return {
        "object": "document",
        "nodes": [{"object": "block", "type": "paragraph", "nodes": [paragraph]}],
    }


@dataclass
class Target:
    """Where typed bodies go: a space thread with a reply, and a change request (by alice)."""

    space: str
    thread: str
    reply: str
    cr: str


@pytest.fixture
def target(world: World, make_space: Callable[..., dict]) -> Target:
    c, space = world.client(), make_space()
    url = f"/spaces/{space['id']}/comments"
    thread = c.post(url, json={"body": {"markdown": "first"}}).json()
    reply = c.post(f"{url}/{thread['id']}/replies", json={"body": {"markdown": "re"}}).json()
    cr = c.post(f"/spaces/{space['id']}/change-requests", json={"subject": "x"}).json()
    return Target(space["id"], f"{url}/{thread['id']}", reply["id"], cr["id"])


def cr_url(t: Target) -> str:
    return f"/spaces/{t.space}/change-requests/{t.cr}"


# name: (who, method, url of the target, the JSON body carrying `text` (given the user ids
# by name), the field the 400 names)
Body = Callable[[str, dict[str, str]], dict[str, Any]]
Send = tuple[str, str, Callable[[Target], str], Body, str]
CASES: dict[str, Send] = {
    "comment": (
        "alice", "POST", lambda t: t.thread.rsplit("/", 1)[0],
        lambda text, users: {"body": {"markdown": text}}, "body.markdown",
    ),
    "comment-as-document": (
        "alice", "POST", lambda t: t.thread.rsplit("/", 1)[0],
        lambda text, users: {"body": {"document": document(text)}}, "body.document",
    ),
    "comment-edit": (
        "alice", "PUT", lambda t: t.thread, lambda text, users: {"body": {"markdown": text}},
        "body.markdown",
    ),
    "reply": (
        "alice", "POST", lambda t: f"{t.thread}/replies",
        lambda text, users: {"body": {"markdown": text}}, "body.markdown",
    ),
    "reply-edit": (
        "alice", "PUT", lambda t: f"{t.thread}/replies/{t.reply}",
        lambda text, users: {"body": {"markdown": text}}, "body.markdown",
    ),
    "change-request-comment": (
        "alice", "POST", lambda t: f"{cr_url(t)}/comments",
        lambda text, users: {"body": {"markdown": text}}, "body.markdown",
    ),
    "review-message": (
        "rita", "POST", lambda t: f"{cr_url(t)}/reviews",
        lambda text, users: {"status": "approved", "comment": {"markdown": text}}, "comment.markdown",
    ),
    "review-message-as-document": (
        "rita", "POST", lambda t: f"{cr_url(t)}/reviews",
        lambda text, users: {"status": "approved", "comment": {"document": document(text)}},
        "comment.document",
    ),
    "description": (
        "alice", "PATCH", cr_url, lambda text, users: {"description": {"markdown": text}},
        "description.markdown",
    ),
    "description-as-document": (
        "alice", "PATCH", cr_url, lambda text, users: {"description": document(text)}, "description",
    ),
    "description-with-reviewers": (
        "alice", "POST", lambda t: f"{cr_url(t)}/requested-reviewers",
        lambda text, users: {"users": [users["rita"]], "description": {"markdown": text}},
        "description.markdown",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", CASES)
def test_a_body_over_the_limit_is_a_400_naming_the_field(
    world: World, target: Target, name: str
) -> None:
    who, method, url, body, field = CASES[name]
    r = world.client(who).request(method, url(target), json=body(LONG, world.users))
    assert_error(r, 400, field, str(MAX_BODY_CHARS))


@pytest.mark.parametrize("name", CASES)
def test_a_body_at_the_limit_is_accepted(world: World, target: Target, name: str) -> None:
    who, method, url, body, _ = CASES[name]
    r = world.client(who).request(method, url(target), json=body("y" * MAX_BODY_CHARS, world.users))
    assert r.status_code in (200, 201), r.text


def test_the_review_message_of_the_finding_is_refused(world: World, target: Target) -> None:
    """The outside run sent a review message of 1,000,000 characters: it was stored."""
    url = f"{cr_url(target)}/reviews"
    body = {"status": "changes-requested", "comment": {"markdown": "m" * 1_000_000}}
    assert_error(world.client("rita").post(url, json=body), 400, "comment.markdown")
    assert world.client().get(url).json()["items"] == []


@pytest.mark.parametrize(
    ("method", "path", "extra"),
    [
        ("POST", "/spaces/{space}/change-requests", {}),
        ("PATCH", "/spaces/{space}/change-requests/{cr}", {}),
        ("POST", "/spaces/{space}/change-requests/{cr}/requested-reviewers", {"users": ["rita"]}),
    ],
)
def test_a_subject_keeps_its_own_shorter_limit(
    world: World, target: Target, method: str, path: str, extra: dict[str, Any]
) -> None:
    """A subject is a title (the official ``ChangeRequestSubject``: at most 100 characters)."""
    body = {**extra, "subject": "s" * 101}
    if "users" in body:
        body["users"] = [world.users[u] for u in body["users"]]
    url = path.format(space=target.space, cr=target.cr)
    assert_error(world.client().request(method, url, json=body), 400, "subject")
