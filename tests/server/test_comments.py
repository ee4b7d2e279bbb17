"""Comments, replies, reactions and commenters of spaces and change requests.

Every operation runs against both thread scopes through the parametrised ``thread`` fixture.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest

from gitbook_tui.server.content import store as content_store
from gitbook_tui.server.content.space_revision import set_space_revision
from gitbook_tui.server.core.clock import iso
from support.asserts import assert_error
from support.worlds import World

PAGES = {"intro": "# Intro\n\nWelcome.\n", "setup": "# Setup\n\nInstall it.\n"}


def _page(tx: Any, page_id: str, markdown: str, now: str) -> dict[str, Any]:
    return {
        "id": page_id,
        "title": page_id.capitalize(),
        "type": "document",
        "slug": page_id,
        "emoji": "📘",
        "icon": None,
        "description": None,
        "hidden": False,
        "noIndex": False,
        "createdAt": now,
        "updatedAt": now,
        "document": tx.put_blob(markdown),
        "pages": [],
    }


@dataclass
class Thread:
    """A thread scope under test: its comments URL and how to change its current content."""

    kind: str
    world: World
    space: str
    cr: str | None

    @property
    def base(self) -> str:
        if self.cr:
            return f"/spaces/{self.space}/change-requests/{self.cr}/comments"
        return f"/spaces/{self.space}/comments"

    @property
    def commenters(self) -> str:
        return self.base.removesuffix("/comments") + "/commenters"

    def set_pages(self, pages: dict[str, str]) -> str:
        """Write a new current revision with ``pages`` (space main or the CR's revision)."""
        storage = self.world.storage
        now = iso(self.world.clock.now())
        with storage.transaction() as tx:
            space = tx.get("space", self.space)
            assert space is not None
            revision_id = storage.new_id()
            content_store.create_revision(
                tx,
                revision_id=revision_id,
                space_id=self.space,
                parents=[space["revision"]],
                pages=[_page(tx, pid, md, now) for pid, md in pages.items()],
                files=[],
                type="edits",
                created_at=now,
                change_request=self.cr,
            )
            if self.cr:
                cr = tx.get("change-request", self.cr)
                assert cr is not None
                cr["revision"] = revision_id
                tx.put("change-request", self.cr, cr)
            else:
                set_space_revision(tx, space, revision_id, now)
        return revision_id

    def set_cr_status(self, status: str) -> None:
        with self.world.storage.transaction() as tx:
            cr = tx.get("change-request", self.cr or "")
            assert cr is not None
            cr["status"] = status
            tx.put("change-request", cr["id"], cr)


def _add_change_request(world: World, space_id: str) -> str:
    storage = world.storage
    now = iso(world.clock.now())
    with storage.transaction() as tx:
        space = tx.get("space", space_id)
        assert space is not None
        cr_id = storage.new_id()
        tx.put(
            "change-request",
            cr_id,
            {
                "id": cr_id,
                "number": 1,
                "space": space_id,
                "status": "open",
                "subject": "Rework",
                "revision": space["revision"],
                "revisionInitial": space["revision"],
                "createdBy": world.users["eve"],
                "createdAt": now,
                "updatedAt": now,
            },
            scope=space_id,
        )
    return cr_id


@pytest.fixture(params=["space", "change-request"])
def thread(request: pytest.FixtureRequest, world: World, make_space: Callable[..., dict]) -> Thread:
    space_id = make_space("Handbook")["id"]
    t = Thread(kind=request.param, world=world, space=space_id, cr=None)
    t.set_pages(PAGES)  # main content first, so the change request starts from it
    if request.param == "change-request":
        t.cr = _add_change_request(world, space_id)
    return t


def tick(world: World, minutes: int = 1) -> None:
    world.clock.advance(timedelta(minutes=minutes))


def post(t: Thread, user: str = "cody", markdown: str = "Hello", **fields: Any) -> dict:
    r = t.world.client(user).post(t.base, json={"body": {"markdown": markdown}, **fields})
    assert r.status_code == 200, r.text
    return r.json()


def reply(t: Thread, comment_id: str, user: str = "rita", markdown: str = "Agreed") -> dict:
    r = t.world.client(user).post(
        f"{t.base}/{comment_id}/replies", json={"body": {"markdown": markdown}}
    )
    assert r.status_code == 200, r.text
    return r.json()


# -- comments ---------------------------------------------------------------------------------
def test_post_comment_and_read_it_back(thread: Thread) -> None:
    w = thread.world
    body = post(thread, "cody", "Is this *right*?", page="intro", node="node-1")
    assert body["object"] == "comment"
    assert body["postedBy"]["id"] == w.users["cody"]
    assert body["postedBy"]["object"] == "user"
    assert body["postedAt"].startswith("2026-11-01T09:00")
    assert "editedAt" not in body
    assert body["replies"] == 0 and body["repliers"] == [] and body["reactions"] == []
    assert body["body"] == {"markdown": "Is this *right*?"}
    assert body["status"] == "open" and "resolvedAt" not in body and "resolvedBy" not in body
    target = body["target"]
    assert target["space"] == thread.space
    assert target["revision"]
    assert target.get("changeRequest") == thread.cr
    assert target["node"] == {"id": "node-1", "preview": None}
    page = target["page"]
    assert page["id"] == "intro" and page["title"] == "Intro" and page["emoji"] == "📘"
    assert page["path"] == "intro" and page["outdated"] is False
    assert set(page) == {
        "id",
        "title",
        "emoji",
        "icon",
        "createdAt",
        "updatedAt",
        "path",
        "outdated",
    }
    assert body["urls"]["location"] == f"http://testserver/v1{thread.base}/{body['id']}"
    assert body["permissions"] == {"view": True, "edit": True, "reply": True, "delete": True}

    again = w.client("rhea").get(f"{thread.base}/{body['id']}").json()
    assert again["body"] == body["body"] and again["target"] == target
    assert again["permissions"] == {"view": True, "edit": False, "reply": False, "delete": False}
    admin = w.client("alice").get(f"{thread.base}/{body['id']}").json()
    assert admin["permissions"]["delete"] is True and admin["permissions"]["edit"] is False


def test_comment_revision_is_the_current_one(thread: Thread) -> None:
    with thread.world.storage.transaction() as tx:
        if thread.cr:
            expected = tx.get("change-request", thread.cr)["revision"]  # type: ignore[index]
        else:
            expected = tx.get("space", thread.space)["revision"]  # type: ignore[index]
    assert post(thread)["target"]["revision"] == expected
    assert "page" not in post(thread)["target"]


def test_post_comment_validation(thread: Thread) -> None:
    c = thread.world.client("cody")
    assert_error(c.post(thread.base, json={}), 400, "body")
    assert_error(c.post(thread.base, json={"body": {"markdown": "  \n"}}), 400, "body.markdown")
    too_long = {"body": {"markdown": "x" * 100_001}}
    assert_error(c.post(thread.base, json=too_long), 400, "body.markdown")
    assert_error(
        c.post(thread.base, json={"body": {"markdown": "hi"}, "page": "nope"}), 400, "page"
    )
    assert c.get(thread.base).json()["count"] == 0


def test_post_comment_accepts_a_json_document(thread: Thread) -> None:
    doc = {
        "object": "document",
        "data": {},
        "nodes": [
            {
                "object": "block",
                "type": "paragraph",
                "data": {},
                "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": "From doc"}]}],
            }
        ],
    }
    r = thread.world.client("cody").post(thread.base, json={"body": {"document": doc}})
    assert r.status_code == 200 and r.json()["body"]["markdown"] == "From doc"


def test_post_comment_with_a_rich_document_and_the_empty_body(thread: Thread) -> None:
    def text(value: str, *marks: str) -> dict:
        leaf = {
            "object": "leaf",
            "text": value,
            "marks": [{"object": "mark", "type": m} for m in marks],
        }
        return {"object": "text", "leaves": [leaf]}

    link = {
        "object": "inline",
        "type": "link",
        "data": {"ref": {"kind": "url", "url": "https://x.example"}},
        "nodes": [text("site")],
    }
    item = {"object": "block", "type": "list-item", "nodes": [
        {"object": "block", "type": "paragraph", "nodes": [text("one")]}
    ]}  # fmt: skip
    doc = {
        "object": "document",
        "nodes": [
            {"object": "block", "type": "paragraph", "nodes": [text("Bold", "bold"), link]},
            {"object": "block", "type": "list-unordered", "nodes": [item]},
        ],
    }
    c = thread.world.client("cody")
    r = c.post(thread.base, json={"body": {"document": doc}})
    assert r.status_code == 200, r.text
    assert r.json()["body"]["markdown"] == "**Bold**[site](https://x.example)\n\n- one"
    # the empty document is a body too (the seed names the empty-object form)
    empty = c.post(thread.base, json={"body": {}})
    assert empty.status_code == 200 and empty.json()["body"] == {"markdown": ""}


def test_post_comment_access(thread: Thread) -> None:
    w = thread.world
    payload = {"body": {"markdown": "hi"}}
    assert_error(w.anonymous().post(thread.base, json=payload), 401)
    assert_error(w.client("rhea").post(thread.base, json=payload), 403, "comment")
    assert_error(w.client("otto").post(thread.base, json=payload), 404, "space")
    assert_error(w.client("otto").get(thread.base), 404, "space")
    assert w.client("rhea").get(thread.base).json()["count"] == 0


def test_unknown_space_or_change_request_is_404(thread: Thread) -> None:
    c = thread.world.client("alice")
    assert_error(c.get("/spaces/nope/comments"), 404, "space")
    assert_error(c.get(f"/spaces/{thread.space}/change-requests/nope/comments"), 404, "change")


def test_change_request_by_number_and_after_merge(
    world: World, make_space: Callable[..., dict]
) -> None:
    space_id = make_space("Numbers")["id"]
    t = Thread("change-request", world, space_id, _add_change_request(world, space_id))
    c = world.client("cody")
    first = post(t)
    by_number = c.get(f"/spaces/{space_id}/change-requests/1/comments").json()
    assert [x["id"] for x in by_number["items"]] == [first["id"]]
    assert c.get(f"/spaces/{space_id}/change-requests/1/comments/{first['id']}").status_code == 200
    t.set_cr_status("merged")
    assert c.get(f"{t.base}/{first['id']}").status_code == 200
    second = post(t, markdown="After merge")
    assert second["target"]["changeRequest"] == t.cr
    assert c.get(t.commenters).json()["count"] == 1


def test_space_and_change_request_threads_are_separate(
    world: World, make_space: Callable[..., dict]
) -> None:
    space_id = make_space("Split")["id"]
    cr_id = _add_change_request(world, space_id)
    space_t = Thread("space", world, space_id, None)
    cr_t = Thread("change-request", world, space_id, cr_id)
    in_space, in_cr = post(space_t), post(cr_t)
    c = world.client("cody")
    assert [x["id"] for x in c.get(space_t.base).json()["items"]] == [in_space["id"]]
    assert [x["id"] for x in c.get(cr_t.base).json()["items"]] == [in_cr["id"]]
    assert_error(c.get(f"{space_t.base}/{in_cr['id']}"), 404, "comment")
    assert_error(c.get(f"{cr_t.base}/{in_space['id']}"), 404, "comment")
    assert c.get(f"/spaces/{space_id}").json()["comments"] == 1


def test_get_comment_formats_and_404(thread: Thread) -> None:
    c = thread.world.client("rhea")
    comment = post(thread, markdown="# Title\n\nSome text")
    doc = c.get(f"{thread.base}/{comment['id']}", params={"format": "document"}).json()["body"]
    assert set(doc) == {"document"}  # one form of the official Document, never both
    assert doc["document"]["object"] == "document"
    assert [n["type"] for n in doc["document"]["nodes"]] == ["heading-1", "paragraph"]
    plain = c.get(f"{thread.base}/{comment['id']}", params={"format": "markdown"}).json()
    assert plain["body"] == {"markdown": "# Title\n\nSome text"}
    assert_error(c.get(f"{thread.base}/{comment['id']}", params={"format": "html"}), 400, "format")
    assert_error(c.get(f"{thread.base}/nope"), 404, "comment")


def test_list_comments_order_filters_and_pages(thread: Thread) -> None:
    w = thread.world
    c = w.client("rhea")
    a = post(thread, "cody", "a", page="intro")
    tick(w)
    b = post(thread, "eve", "b", page="setup")
    tick(w)
    d = post(thread, "rita", "d", page="intro")
    w.client("eve").put(f"{thread.base}/{b['id']}", json={"resolved": True})

    ids = lambda r: [x["id"] for x in r.json()["items"]]  # noqa: E731
    assert ids(c.get(thread.base)) == [d["id"], b["id"], a["id"]]
    assert ids(c.get(thread.base, params={"order": "asc"})) == [a["id"], b["id"], d["id"]]
    assert ids(c.get(thread.base, params={"status": "open"})) == [d["id"], a["id"]]
    assert ids(c.get(thread.base, params={"status": "resolved"})) == [b["id"]]
    assert ids(c.get(thread.base, params={"status": "all"})) == [d["id"], b["id"], a["id"]]
    assert ids(c.get(thread.base, params={"targetPage": "intro"})) == [d["id"], a["id"]]
    authors = [("authors", w.users["cody"]), ("authors", w.users["eve"])]
    assert ids(c.get(thread.base, params=authors)) == [b["id"], a["id"]]
    assert ids(c.get(thread.base, params={"authors": w.users["rita"], "targetPage": "setup"})) == []
    assert_error(c.get(thread.base, params={"status": "closed"}), 400, "status")
    assert_error(c.get(thread.base, params={"order": "up"}), 400, "order")

    first = c.get(thread.base, params={"limit": 2, "order": "asc"}).json()
    assert first["count"] == 3 and len(first["items"]) == 2
    second = c.get(
        thread.base, params={"limit": 2, "order": "asc", "page": first["next"]["page"]}
    ).json()
    assert ids_of(first) + ids_of(second) == [a["id"], b["id"], d["id"]]
    assert "next" not in second


def ids_of(page: dict) -> list[str]:
    return [x["id"] for x in page["items"]]


def test_list_ties_keep_creation_order(thread: Thread) -> None:
    made = [post(thread, markdown=str(i))["id"] for i in range(3)]
    c = thread.world.client("cody")
    assert ids_of(c.get(thread.base).json()) == made[::-1]
    assert ids_of(c.get(thread.base, params={"order": "asc"}).json()) == made


def test_edit_comment_body_only_by_author(thread: Thread) -> None:
    w = thread.world
    comment = post(thread, "cody", "First")
    url = f"{thread.base}/{comment['id']}"
    tick(w)
    assert_error(w.client("alice").put(url, json={"body": {"markdown": "Hijack"}}), 403, "author")
    assert_error(w.client("rhea").put(url, json={"body": {"markdown": "x"}}), 403)
    assert_error(w.client("cody").put(url, json={"body": {"markdown": " "}}), 400, "body.markdown")
    r = w.client("cody").put(url, json={"body": {"markdown": "Second"}})
    assert r.status_code == 200
    assert r.json()["body"] == {"markdown": "Second"}
    assert r.json()["editedAt"].startswith("2026-11-01T09:01")
    back = w.client("rhea").get(url).json()
    assert back["body"]["markdown"] == "Second" and back["editedAt"] == r.json()["editedAt"]
    assert back["postedAt"] < back["editedAt"]


def test_empty_update_is_a_no_op(thread: Thread) -> None:
    comment = post(thread)
    r = thread.world.client("rhea").put(f"{thread.base}/{comment['id']}", json={})
    assert r.status_code == 200 and r.json()["body"] == comment["body"]


def test_resolve_and_reopen(thread: Thread) -> None:
    w = thread.world
    comment = post(thread, "eve")
    url = f"{thread.base}/{comment['id']}"
    assert_error(w.client("rhea").put(url, json={"resolved": True}), 403, "comment")
    tick(w, 5)
    r = w.client("cody").put(url, json={"resolved": True})
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "resolved"
    assert body["resolvedBy"]["id"] == w.users["cody"]
    assert body["resolvedAt"].startswith("2026-11-01T09:05")
    assert "editedAt" not in body
    assert w.client("rhea").get(url).json()["status"] == "resolved"
    assert w.client("rhea").get(f"/spaces/{thread.space}").json()["comments"] == 0

    reopened = w.client("eve").put(url, json={"resolved": False}).json()
    assert reopened["status"] == "open"
    assert "resolvedAt" not in reopened and "resolvedBy" not in reopened
    assert w.client("rhea").get(url).json()["status"] == "open"
    assert_error(w.client("cody").put(url, json={"resolved": "maybe"}), 400, "resolved")


def test_reactions_across_two_users(thread: Thread) -> None:
    w = thread.world
    comment = post(thread, "eve")
    url = f"{thread.base}/{comment['id']}"
    r = w.client("cody").put(url, json={"addedReactions": ["👍", "🎉"]})
    assert r.status_code == 200
    tick(w)
    w.client("rita").put(url, json={"addedReactions": ["👍"]})
    w.client("rita").put(url, json={"addedReactions": ["👍"]})  # idempotent
    reactions = w.client("rhea").get(url).json()["reactions"]
    assert [(x["emoji"], x["count"]) for x in reactions] == [("👍", 2), ("🎉", 1)]
    thumbs = reactions[0]["users"]
    assert [u["user"]["id"] for u in thumbs] == [w.users["cody"], w.users["rita"]]
    assert thumbs[0]["reactedAt"] < thumbs[1]["reactedAt"]

    w.client("cody").put(url, json={"removedReactions": ["👍", "🎉", "🚀"]})
    reactions = w.client("rhea").get(url).json()["reactions"]
    assert [(x["emoji"], x["count"]) for x in reactions] == [("👍", 1)]
    assert reactions[0]["users"][0]["user"]["id"] == w.users["rita"]
    assert_error(w.client("rhea").put(url, json={"addedReactions": ["👍"]}), 403)


def test_reaction_validation(thread: Thread) -> None:
    comment = post(thread)
    url = f"{thread.base}/{comment['id']}"
    c = thread.world.client("cody")
    assert_error(c.put(url, json={"addedReactions": ["   "]}), 400, "addedReactions")
    assert_error(c.put(url, json={"removedReactions": ["x" * 51]}), 400, "removedReactions")
    assert_error(c.put(url, json={"addedReactions": "👍"}), 400, "addedReactions")
    assert c.get(url).json()["reactions"] == []


def test_delete_comment(thread: Thread) -> None:
    w = thread.world
    comment = post(thread, "cody")
    reply(thread, comment["id"])
    url = f"{thread.base}/{comment['id']}"
    assert_error(w.client("eve").delete(url), 403, "author")
    r = w.client("cody").delete(url)
    assert r.status_code == 205 and r.content == b""
    assert_error(w.client("cody").get(url), 404, "comment")
    assert_error(w.client("cody").get(f"{url}/replies"), 404, "comment")
    with w.storage.read() as tx:
        assert tx.count("reply", comment["id"]) == 0
    assert w.client("cody").delete(url).status_code == 204

    other = post(thread, "eve")
    assert w.client("alice").delete(f"{thread.base}/{other['id']}").status_code == 205
    assert w.client("alice").get(thread.base).json()["count"] == 0


# -- replies ----------------------------------------------------------------------------------
def test_post_reply_and_counts(thread: Thread) -> None:
    w = thread.world
    comment = post(thread, "cody")
    tick(w)
    first = reply(thread, comment["id"], "rita", "Yes")
    assert first["object"] == "comment-reply"
    assert first["postedBy"]["id"] == w.users["rita"]
    assert first["body"] == {"markdown": "Yes"}
    assert first["reactions"] == [] and "editedAt" not in first
    assert first["urls"]["location"] == (
        f"http://testserver/v1{thread.base}/{comment['id']}/replies/{first['id']}"
    )
    assert first["permissions"] == {"view": True, "edit": True, "reply": True, "delete": True}
    tick(w)
    reply(thread, comment["id"], "eve", "No")
    reply(thread, comment["id"], "rita", "Yes again")
    back = w.client("rhea").get(f"{thread.base}/{comment['id']}").json()
    assert back["replies"] == 3
    assert [(r["user"]["id"], r["count"]) for r in back["repliers"]] == [
        (w.users["rita"], 2),
        (w.users["eve"], 1),
    ]
    assert back["repliers"][0]["updatedAt"].startswith("2026-11-01T09:02")


def test_post_reply_validation_and_access(thread: Thread) -> None:
    w = thread.world
    comment = post(thread)
    url = f"{thread.base}/{comment['id']}/replies"
    assert_error(w.client("cody").post(url, json={}), 400, "body")
    assert_error(w.client("cody").post(url, json={"body": {"markdown": ""}}), 400, "body.markdown")
    assert_error(w.client("rhea").post(url, json={"body": {"markdown": "x"}}), 403)
    assert_error(w.client("otto").post(url, json={"body": {"markdown": "x"}}), 404)
    assert_error(w.anonymous().post(url, json={"body": {"markdown": "x"}}), 401)
    assert_error(
        w.client("cody").post(f"{thread.base}/nope/replies", json={"body": {"markdown": "x"}}),
        404,
        "comment",
    )


def test_list_replies_pages_oldest_first(thread: Thread) -> None:
    w = thread.world
    comment = post(thread)
    made = []
    for i in range(3):
        tick(w)
        made.append(reply(thread, comment["id"], markdown=f"r{i}")["id"])
    url = f"{thread.base}/{comment['id']}/replies"
    first = w.client("rhea").get(url, params={"limit": 2}).json()
    assert first["count"] == 3 and len(first["items"]) == 2
    second = w.client("rhea").get(url, params={"limit": 2, "page": first["next"]["page"]}).json()
    assert ids_of(first) + ids_of(second) == made
    assert all(x["object"] == "comment-reply" for x in first["items"])
    doc = w.client("rhea").get(url, params={"format": "document"}).json()["items"][0]["body"]
    assert doc["document"]["nodes"][0]["type"] == "paragraph"


def test_get_reply_and_404s(thread: Thread) -> None:
    w = thread.world
    comment, other = post(thread), post(thread)
    r = reply(thread, comment["id"])
    got = w.client("rhea").get(f"{thread.base}/{comment['id']}/replies/{r['id']}").json()
    assert got["id"] == r["id"] and got["body"] == r["body"]
    assert got["permissions"] == {"view": True, "edit": False, "reply": False, "delete": False}
    assert_error(w.client("rhea").get(f"{thread.base}/{comment['id']}/replies/nope"), 404, "reply")
    assert_error(w.client("rhea").get(f"{thread.base}/{other['id']}/replies/{r['id']}"), 404)


def test_update_reply(thread: Thread) -> None:
    w = thread.world
    comment = post(thread, "cody")
    r = reply(thread, comment["id"], "rita", "Draft")
    url = f"{thread.base}/{comment['id']}/replies/{r['id']}"
    assert_error(w.client("cody").put(url, json={"body": {"markdown": "x"}}), 403, "author")
    tick(w)
    edited = w.client("rita").put(url, json={"body": {"markdown": "Final"}}).json()
    assert edited["body"]["markdown"] == "Final" and edited["editedAt"].startswith(
        "2026-11-01T09:01"
    )
    w.client("cody").put(url, json={"addedReactions": ["❤️"]})
    w.client("eve").put(url, json={"addedReactions": ["❤️"]})
    back = w.client("rhea").get(url).json()
    assert back["body"]["markdown"] == "Final"
    assert back["reactions"][0]["count"] == 2
    w.client("eve").put(url, json={"removedReactions": ["❤️"]})
    assert w.client("rhea").get(url).json()["reactions"][0]["count"] == 1
    assert_error(w.client("cody").put(url, json={"addedReactions": [""]}), 400, "addedReactions")


def test_reply_resolved_resolves_the_parent_thread(thread: Thread) -> None:
    w = thread.world
    comment = post(thread, "cody")
    r = reply(thread, comment["id"], "rita")
    url = f"{thread.base}/{comment['id']}/replies/{r['id']}"
    assert_error(w.client("rhea").put(url, json={"resolved": True}), 403)
    answer = w.client("eve").put(url, json={"resolved": True})
    assert answer.status_code == 200 and answer.json()["object"] == "comment-reply"
    parent = w.client("rhea").get(f"{thread.base}/{comment['id']}").json()
    assert parent["status"] == "resolved" and parent["resolvedBy"]["id"] == w.users["eve"]
    w.client("rita").put(url, json={"resolved": False})
    assert w.client("rhea").get(f"{thread.base}/{comment['id']}").json()["status"] == "open"


def test_delete_reply(thread: Thread) -> None:
    w = thread.world
    comment = post(thread, "cody")
    r1, r2 = reply(thread, comment["id"], "rita"), reply(thread, comment["id"], "eve")
    base = f"{thread.base}/{comment['id']}/replies"
    assert_error(w.client("cody").delete(f"{base}/{r1['id']}"), 403, "author")
    gone = w.client("rita").delete(f"{base}/{r1['id']}")
    assert gone.status_code == 205 and gone.content == b""
    assert_error(w.client("rita").get(f"{base}/{r1['id']}"), 404)
    assert w.client("alice").delete(f"{base}/{r2['id']}").status_code == 205
    assert w.client("rhea").get(f"{thread.base}/{comment['id']}").json()["replies"] == 0
    assert w.client("rita").delete(f"{base}/{r1['id']}").status_code == 204


# -- commenters and outdated pages ------------------------------------------------------------
def test_commenters(thread: Thread) -> None:
    w = thread.world
    assert w.client("rhea").get(thread.commenters).json() == {"items": [], "count": 0}
    with w.storage.transaction() as tx:  # otto: not a member, but may comment on this space
        tx.put(
            "grant",
            f"{thread.space}:{w.users['otto']}",
            {
                "target": thread.space,
                "targetKind": "space",
                "organization": w.org,
                "user": w.users["otto"],
                "role": "comment",
            },
            scope=thread.space,
        )
    first = post(thread, "cody")
    tick(w)
    reply(thread, first["id"], "otto")
    tick(w)
    post(thread, "eve")
    reply(thread, first["id"], "cody")
    body = w.client("rhea").get(thread.commenters).json()
    assert body["count"] == 3
    assert [m["id"] for m in body["items"]] == [w.users[n] for n in ("cody", "otto", "eve")]
    cody, otto, eve = body["items"]
    assert cody["object"] == "member" and cody["role"] == "comment"
    assert cody["user"]["id"] == w.users["cody"] and eve["role"] == "edit"
    assert otto["role"] is None and otto["user"]["displayName"] == "Otto"
    assert set(otto) == set(cody)
    paged = w.client("rhea").get(thread.commenters, params={"limit": 2}).json()
    assert len(paged["items"]) == 2 and "next" in paged
    assert_error(w.anonymous().get(thread.commenters), 401)
    assert_error(w.client("carol").get("/spaces/nope/commenters"), 404)


def test_page_outdated_after_the_page_changes(thread: Thread) -> None:
    w = thread.world
    on_intro = post(thread, page="intro")
    on_setup = post(thread, page="setup")
    tick(w)
    thread.set_pages({"intro": PAGES["intro"] + "\nMore.\n", "setup": PAGES["setup"]})
    c = w.client("rhea")
    assert c.get(f"{thread.base}/{on_intro['id']}").json()["target"]["page"]["outdated"] is True
    assert c.get(f"{thread.base}/{on_setup['id']}").json()["target"]["page"]["outdated"] is False

    thread.set_pages({"intro": PAGES["intro"] + "\nMore.\n"})
    gone = c.get(f"{thread.base}/{on_setup['id']}").json()["target"]["page"]
    assert gone["outdated"] is True and gone["id"] == "setup" and gone["title"] == "Setup"
    assert_error(
        w.client("cody").post(thread.base, json={"body": {"markdown": "x"}, "page": "setup"}),
        400,
        "page",
    )
    listed = c.get(thread.base, params={"targetPage": "intro"}).json()["items"]
    assert [x["target"]["page"]["outdated"] for x in listed] == [True]
