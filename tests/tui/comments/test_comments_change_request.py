"""Comments on a change request from its review pane: ``C`` its threads, ``c`` a new thread
quoting the block under the diff's cursor."""

from __future__ import annotations

from typing import Any

import pytest

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.comments.comment_actions import READ_ONLY
from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import AccountState, StateStore, account_key
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from gitbook_tui.tui.review.thread_quote import block_quote
from support.comments_world import BASE, Transport, reply_offline
from support.review_world import make_app, open_review
from support.waits import until, until_screen

SUBJECT = "Update partition sizing"


def _cr_path(desk: dict) -> str:
    return f"/spaces/{desk['space']['id']}/change-requests/{desk['cr']['id']}/comments"


def _seed(world: Any, desk: dict) -> tuple[str, str]:
    """A thread on the change request (by eve) and one on the space (by cody)."""
    r = world.client("eve").post(
        _cr_path(desk), json={"body": {"markdown": "Is 50 GB the new limit?"}}
    )
    assert r.status_code in (200, 201), r.text
    s = world.client("cody").post(
        f"/spaces/{desk['space']['id']}/comments",
        json={"body": {"markdown": "A thread on main, not on the CR"}},
    )
    assert s.status_code in (200, 201), s.text
    return str(r.json()["id"]), str(s.json()["id"])


async def _threads(app: Any, pilot: Any, review: ChangeRequestReviewScreen) -> CommentsScreen:
    await pilot.press("C")
    screen = await until_screen(pilot, CommentsScreen)
    await until(pilot, lambda: screen.loaded and not screen.busy, timeout=20)
    return screen


def test_block_quote_is_a_markdown_blockquote() -> None:
    assert block_quote("one\ntwo") == "> one\n> two\n\n"
    assert block_quote("[b]x[/b] \x1b]8;;http://evil\x07") == "> [b]x[/b]\n\n"
    assert "\x1b" not in block_quote("a\x1b[31mred")


async def test_cr_threads_reply_resolve_and_back(world: Any, desk: dict, tmp_path) -> None:
    """A change request's threads: reply, resolve and back to the review (escape clears a kept
    filter before it leaves). Slow: review and Comments views both built, several server
    writes."""
    thread, space_thread = _seed(world, desk)
    app = make_app(world, tmp_path, "alice")
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, SUBJECT)
        screen = await _threads(app, pilot, review)
        assert screen.change_request == desk["cr"]["id"]
        assert screen.thread_list.ids == [thread]  # the CR's threads, not the space's
        assert space_thread not in screen.state.threads
        title = str(screen.query_one("#comments-title").render())
        assert "change request #" in title and SUBJECT in title
        await until(pilot, lambda: screen.pane.thread is not None and not screen.busy)
        await pilot.press("enter", "c")
        await until(pilot, lambda: screen.composer.is_open)
        await pilot.press(*"Yes, 50 GB.", "ctrl+s")
        await until(pilot, lambda: not screen.composer.is_open and not screen.busy)
        r = world.client("alice").get(f"{_cr_path(desk)}/{thread}/replies")
        assert [i["body"]["markdown"] for i in r.json()["items"]] == ["Yes, 50 GB."]
        await pilot.press("x")  # resolve, same key as the Comments view
        await until(
            pilot, lambda: screen.state.threads[thread].comment.is_resolved and not screen.busy
        )
        await until(pilot, lambda: not screen.state.threads[thread].pending)
        r = world.client("alice").get(f"{_cr_path(desk)}/{thread}")
        assert r.json()["status"] == "resolved"
        # the space's thread was not touched
        s = world.client("alice").get(f"/spaces/{desk['space']['id']}/comments/{space_thread}")
        assert s.json()["status"] == "open" and s.json().get("replies", 0) == 0
        await pilot.press("escape")  # the thread: back to the list
        await until(pilot, lambda: screen.thread_list.has_focus)
        await pilot.press("slash", *"zzz", "enter")  # a filter kept on the list
        await until(pilot, lambda: screen.thread_list.has_focus)
        assert screen.thread_list.needle == "zzz"
        await pilot.press("escape")  # the innermost thing first: the filter, not the screen
        await until(pilot, lambda: not screen.thread_list.needle)
        assert app.screen is screen
        await pilot.press("escape")  # then back to the review pane
        await until(pilot, lambda: app.screen is review)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["split", "inline"])
async def test_c_on_a_diff_block_starts_a_thread_quoting_it(
    world: Any, desk: dict, tmp_path, size: tuple[int, int]
) -> None:
    """c on a diff block opens the change request's threads with a composer quoting the block.
    Slow: opens a review, its diff, then the Comments view."""
    app = make_app(world, tmp_path, "alice")
    async with app.run_test(size=size) as pilot:
        review = await open_review(app, pilot, SUBJECT)
        await until(pilot, lambda: review.diff.current is not None)
        await pilot.press("c")
        screen = await until_screen(pilot, CommentsScreen)
        quote = "> Partitions hold up to 50 GB each before they roll over.\n\n"
        # (the composer opens and takes keys before it has read its draft or quote)
        await until(
            pilot,
            lambda: screen.composer.is_open and screen.composer.text == quote,
            "the composer open, quoting the block",
            timeout=20,
        )
        assert screen.composer.title == "New thread quoting a block"
        await pilot.press(*"Why not 100?", "ctrl+s")
        await until(pilot, lambda: not screen.composer.is_open and not screen.busy)
        items = world.client("alice").get(_cr_path(desk)).json()["items"]
        assert len(items) == 1
        assert items[0]["body"]["markdown"] == quote + "Why not 100?"
        assert items[0]["target"]["page"]["id"] == desk["page"]  # anchored to the page
        await until(pilot, lambda: items[0]["id"] in screen.thread_list.ids)
        # nothing of it reached the space's own threads
        space = world.client("alice").get(f"/spaces/{desk['space']['id']}/comments").json()
        assert space["items"] == []


async def test_reader_can_read_cr_threads_but_not_comment(world: Any, desk: dict, tmp_path) -> None:
    thread, _ = _seed(world, desk)
    app = make_app(world, tmp_path, "rhea")
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, SUBJECT)
        await until(pilot, lambda: review.diff.current is not None)
        await pilot.press("c")  # quoting a block: a thread the reader may not start
        screen = await until_screen(pilot, CommentsScreen)
        await until(pilot, lambda: screen.loaded and not screen.busy, timeout=20)
        await until(pilot, lambda: any(n.message == READ_ONLY for n in app._notifications))
        assert not screen.composer.is_open
        assert screen.thread_list.ids == [thread]
        assert screen.denial_reason("resolve") == READ_ONLY
        await pilot.press("x")
        assert not screen.state.threads[thread].pending
        r = world.client("alice").get(f"{_cr_path(desk)}/{thread}")
        assert r.json()["status"] == "open"


async def test_cr_reply_queued_offline_is_replayed_to_the_cr(
    world: Any, desk: dict, tmp_path
) -> None:
    """A change-request reply written offline is queued and replayed to the change request. Slow: a
    review, its threads, an outage and a replay in one app."""
    thread, _ = _seed(world, desk)
    transport = Transport(world.app)
    client = AsyncGitBook("tok-alice", base_url=BASE, transport=transport, max_retries=0)
    store = StateStore(tmp_path / "state.json")
    store.save(account_key(client), AccountState(org_id=world.org))
    app = GitBookApp(client, config=TuiConfig(), state_store=store)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, SUBJECT)
        screen = await _threads(app, pilot, review)
        await until(pilot, lambda: screen.pane.thread is not None and not screen.busy)
        await reply_offline(pilot, screen, transport, "Sent from a tunnel")
        transport.offline = False
        screen.action_reload()  # a successful request: the queue goes
        await until(pilot, lambda: screen.queued == 0)
        r = world.client("alice").get(f"{_cr_path(desk)}/{thread}/replies")
        assert [i["body"]["markdown"] for i in r.json()["items"]] == ["Sent from a tunnel"]
