"""Comments view flows against the in-process server: every action, denials, 404s."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from support.comments_world import (
    at_welcome,
    build_space,
    comments_run,
    make_app,
    newest_thread,
    open_comments,
    select_thread,
)
from support.waits import until, until_screen


def _thread(world: Any, ids: dict[str, str], thread: str, user: str = "alice") -> dict:
    r = world.client(user).get(f"/spaces/{ids['space']}/comments/{thread}")
    return r.json() if r.status_code == 200 else {"status_code": r.status_code}


def _post_mine(world: Any, ids: dict[str, str]) -> str:
    """A thread by eve (the app's user) in the space: hers to delete."""
    r = world.client("eve").post(
        f"/spaces/{ids['space']}/comments", json={"body": {"markdown": "Mine, to delete"}}
    )
    return str(r.json()["id"])


def _post_my_reply(world: Any, ids: dict[str, str]) -> str:
    """Eve's reply to cody's thread ("second"): hers to delete."""
    r = world.client("eve").post(
        f"/spaces/{ids['space']}/comments/{ids['second']}/replies",
        json={"body": {"markdown": "My reply"}},
    )
    return str(r.json()["id"])


def _replies(world: Any, ids: dict[str, str], thread: str) -> list[dict]:
    r = world.client("alice").get(f"/spaces/{ids['space']}/comments/{thread}/replies")
    return r.json()["items"]


async def test_lists_threads_and_shows_the_selected_one(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids) as (pilot, screen, *_):
        assert screen.thread_list.ids == [ids["second"], ids["first"]]
        await select_thread(pilot, screen, ids["first"])
        await until(pilot, lambda: len(screen.pane.posts) == 2)
        post = screen.pane.posts[0]
        # drawn with the post (not a frame later)
        assert "👍1" in post.query_one(".post--reactions").render().plain  # type: ignore[attr-defined]


async def test_reply_new_thread_and_edit(world: Any, tmp_path) -> None:
    """Reply, start a new thread and edit one's own post, each saved on the server. Slow: three
    composer sessions and their server writes."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["first"]) as (pilot, screen, *_):
        await pilot.press("enter", "c")
        await until(pilot, lambda: screen.composer.is_open)
        await pilot.press(*"Agreed, adding it.", "ctrl+s")
        await until(pilot, lambda: not screen.composer.is_open)
        assert [r["body"]["markdown"] for r in _replies(world, ids, ids["first"])][-1] == (
            "Agreed, adding it."
        )
        await until(pilot, lambda: len(screen.pane.posts) == 3 and not screen.selected.pending)
        # the closed composer gives the thread its focus back (a call later): keys sent
        # before would reach the list, where e edits the thread's first comment
        await until(pilot, lambda: screen.pane.has_focus, "the thread to have focus again")
        # e on my own reply (the cursor on it), change it, send
        await pilot.press("G", "e")
        # (the composer opens and takes keys before it has read its draft or the reply)
        await until(
            pilot,
            lambda: screen.composer.is_open and screen.composer.text == "Agreed, adding it.",
            "the composer open on my reply",
        )
        await pilot.press("end", *" Done.", "ctrl+s")
        await until(pilot, lambda: not screen.composer.is_open)
        last = _replies(world, ids, ids["first"])[-1]
        assert last["body"]["markdown"] == "Agreed, adding it. Done."
        assert last.get("editedAt")
        # c from the list starts a new thread on the page open in the browser
        await pilot.press("escape")
        await until(pilot, lambda: screen.thread_list.has_focus)
        await pilot.press("c")
        await until(pilot, lambda: screen.composer.is_open)
        assert "New thread" in screen.composer.title
        await pilot.press(*"A new question", "ctrl+s")
        await until(pilot, lambda: len(screen.thread_list.ids) == 3)
        newest = newest_thread(world, ids)
        assert newest["body"]["markdown"] == "A new question"
        assert newest["target"]["page"]["id"] == ids["Welcome"]


async def test_denied_actions_say_why(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids) as (pilot, screen, app, notes, *_):
        await select_thread(pilot, screen, ids["first"])  # alice's: eve may not edit/delete
        await pilot.press("e")
        await until(pilot, lambda: any("Only the author can edit" in n for n in notes))
        assert not screen.composer.is_open
        await pilot.press("d")
        await until(pilot, lambda: any("space admin can delete" in n for n in notes))
        assert not isinstance(app.screen, ConfirmScreen)


async def test_reader_may_not_comment_react_or_resolve(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["first"], token="tok-rhea") as run:
        pilot, screen, app, notes, *_ = run
        for key in ("c", "x", "colon"):
            notes.clear()
            await pilot.press(key)
            await until(pilot, lambda: any("read access" in n for n in notes))
        assert not screen.composer.is_open
        assert isinstance(app.screen, CommentsScreen)
        assert _thread(world, ids, ids["first"])["status"] == "open"


async def test_delete_own_thread_after_confirming(world: Any, tmp_path) -> None:
    ids = build_space(world)
    mine = _post_mine(world, ids)
    async with comments_run(world, tmp_path, ids, mine) as (pilot, screen, _app, *_):
        await pilot.press("d")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("escape")  # cancelled: nothing deleted
        await until_screen(pilot, CommentsScreen)
        assert _thread(world, ids, mine).get("id") == mine
        await pilot.press("d")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("enter")
        await until(pilot, lambda: mine not in screen.thread_list.ids)
        assert _thread(world, ids, mine) == {"status_code": 404}


class HeldListReads(httpx.AsyncBaseTransport):
    """Reads of lists ending in ``listing`` (threads, or a thread's replies) are answered
    by the server at once but handed back only on ``release``; a DELETE waits until such
    a read was answered (so the read predates it)."""

    def __init__(self, inner: httpx.AsyncBaseTransport, listing: str = "/comments") -> None:
        self.inner, self.listing = inner, listing
        self.release = asyncio.Event()
        self.read = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "DELETE":
            await self.read.wait()
        response = await self.inner.handle_async_request(request)
        if request.method != "GET" or not request.url.path.endswith(self.listing):
            return response
        body = await response.aread()
        self.read.set()
        await self.release.wait()
        return httpx.Response(response.status_code, headers=response.headers, content=body)


async def confirm_delete(pilot: Any) -> None:
    """``d`` on what is selected, then confirm."""
    await pilot.press("d")
    await until_screen(pilot, ConfirmScreen)
    await pilot.press("enter")


async def hand_back(pilot: Any, screen: CommentsScreen, held: HeldListReads) -> None:
    """Hand the held read's answer to the view and let it apply it."""
    held.release.set()
    await until(pilot, lambda: not screen.busy)
    await pilot.pause()


async def test_a_list_read_from_before_the_delete_does_not_bring_the_thread_back(
    world: Any, tmp_path
) -> None:
    ids = build_space(world)
    mine = _post_mine(world, ids)
    async with comments_run(world, tmp_path, ids, mine) as (pilot, screen, _, _, transport):
        held = HeldListReads(transport.inner)
        transport.inner = held
        await confirm_delete(pilot)  # back in the view, it re-reads its list: that answer waits
        await until(pilot, lambda: mine not in screen.thread_list.ids)
        assert _thread(world, ids, mine) == {"status_code": 404}
        await hand_back(pilot, screen, held)  # the list as it was before the delete
        assert mine not in screen.thread_list.ids and mine not in screen.state.threads
        assert ids["first"] in screen.thread_list.ids  # (the list answer was applied)


async def test_resolve_and_reopen(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["second"]) as (pilot, screen, *_):
        await pilot.press("x")
        assert screen.selected.comment.is_resolved  # optimistic, at once
        await until(pilot, lambda: not screen.selected.pending)
        assert _thread(world, ids, ids["second"])["status"] == "resolved"
        await pilot.press("x")
        await until(pilot, lambda: not screen.selected.pending)
        assert _thread(world, ids, ids["second"])["status"] == "open"


async def test_react_toggles_my_reaction(world: Any, tmp_path) -> None:
    """Reactions toggle: one not mine is added, one of mine removed, each written to the server.
    Slow: four reaction round trips through the picker."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["first"]) as (pilot, screen, app, *_):

        def emoji() -> set[str]:
            return {r["emoji"] for r in _thread(world, ids, ids["first"])["reactions"]}

        await pilot.press("colon", "6")  # 🚀: not mine yet, added
        await until(pilot, lambda: "🚀" in emoji() and not screen.selected.pending)
        await pilot.press("colon", "1")  # 👍: mine already, removed
        await until(pilot, lambda: "👍" not in emoji() and not screen.selected.pending)
        await pilot.press("colon", *":tada:", "enter")  # a shortcode
        await until(pilot, lambda: "🎉" in emoji() and not screen.selected.pending)
        # a reply's reaction, from the thread pane
        await pilot.press("enter", "j")
        await until(pilot, lambda: screen.pane.cursor == 1)
        await pilot.press("colon")
        await until(pilot, lambda: app.screen.__class__.__name__ == "ReactionPicker")
        await pilot.press("2")
        await until_screen(pilot, CommentsScreen)
        await until(pilot, lambda: not screen.selected.pending and not screen.busy)
        reply = _replies(world, ids, ids["first"])[0]
        assert [r["emoji"] for r in reply["reactions"]] == ["❤️"]


async def test_thread_deleted_meanwhile(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["second"]) as (pilot, screen, _, notes, *_):
        r = world.client("alice").delete(f"/spaces/{ids['space']}/comments/{ids['second']}")
        assert r.status_code < 300
        await pilot.press("x")  # optimistic resolve, refused with 404: rolled back, dropped
        await until(pilot, lambda: ids["second"] not in screen.thread_list.ids)
        assert any("deleted meanwhile" in n for n in notes)
        # a reply to a thread deleted meanwhile: the composer keeps the text (as a new
        # thread's draft: test_comments_qa_fixes)
        await select_thread(pilot, screen, ids["first"])
        await pilot.press("enter", "c")
        await until(pilot, lambda: screen.composer.is_open)
        world.client("alice").delete(f"/spaces/{ids['space']}/comments/{ids['first']}")
        await pilot.press(*"Too late", "ctrl+s")
        await until(pilot, lambda: "deleted" in screen.composer.title)
        assert screen.composer.is_open and screen.composer.text == "Too late"


async def test_filters_scope_and_author(world: Any, tmp_path) -> None:
    ids = build_space(world)
    world.client("alice").put(
        f"/spaces/{ids['space']}/comments/{ids['second']}", json={"resolved": True}
    )
    async with comments_run(world, tmp_path, ids) as (pilot, screen, app, *_):
        assert screen.thread_list.ids == [ids["first"]]  # open threads first
        await pilot.press("f")
        await until(pilot, lambda: screen.loaded and screen.thread_list.ids == [ids["second"]])
        await pilot.press("f")
        await until(pilot, lambda: screen.loaded and len(screen.thread_list.ids) == 2)
        await pilot.press("ctrl+o")  # this page (Welcome) only
        await until(pilot, lambda: screen.loaded and screen.thread_list.ids == [ids["first"]])
        await pilot.press("ctrl+o")
        await until(pilot, lambda: screen.loaded and len(screen.thread_list.ids) == 2)
        await pilot.press("F")
        await until(pilot, lambda: app.screen.__class__.__name__ == "AuthorPicker")
        await pilot.press("j", "j", "enter")  # anyone, Alice, Cody (first post first)
        await until(pilot, lambda: screen.loaded and screen.thread_list.ids == [ids["second"]])
        assert "Cody" in str(screen.query_one("#comments-title").render())


async def test_capital_c_opens_the_page_threads(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, key="C") as (pilot, screen, *_):
        assert screen.state.page_scope == ids["Welcome"]
        assert screen.thread_list.ids == [ids["first"]]
        await pilot.press("1")  # back to Browse, then 3: the whole space
        await pilot.press("3")
        await until(pilot, lambda: screen.loaded and len(screen.thread_list.ids) == 2)


async def test_new_replies_are_marked_without_moving_the_cursor(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["first"]) as (pilot, screen, *_):
        world.client("alice").post(
            f"/spaces/{ids['space']}/comments", json={"body": {"markdown": "Brand new"}}
        )
        world.client("cody").post(
            f"/spaces/{ids['space']}/comments/{ids['first']}/replies",
            json={"body": {"markdown": "One more"}},
        )
        screen.action_reload()  # what the 15 s timer does
        await until(pilot, lambda: len(screen.thread_list.ids) == 3 and not screen.busy)
        assert screen.state.selected_id == ids["first"]
        assert screen.thread_list.highlighted == screen.thread_list.ids.index(ids["first"])
        newest = screen.state.threads[screen.thread_list.ids[0]]
        assert newest.new and screen.state.threads[ids["first"]].new
        assert "● new" in screen.thread_list.get_option_at_index(0).prompt.plain  # type: ignore[union-attr]
        await until(pilot, lambda: [view.new for view in screen.pane.posts] == [False, False, True])
        await pilot.press("k")  # leaving the thread: its marks go
        await until(pilot, lambda: screen.state.selected_id != ids["first"])
        assert not screen.state.threads[ids["first"]].new


async def test_only_replies_by_others_make_a_row_new(world: Any, tmp_path) -> None:
    """My own reply from elsewhere (another terminal, the web) is not "● new" in the list,
    as it is not in the thread; someone else's reply after it is."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["first"]) as (pilot, screen, *_):
        replies = f"/spaces/{ids['space']}/comments/{ids['second']}/replies"
        world.client("eve").post(replies, json={"body": {"markdown": "Mine, from the web"}})
        screen.action_reload()
        second = screen.state.threads[ids["second"]]
        await until(pilot, lambda: (second.comment.replies or 0) == 1 and not screen.busy)
        row = screen.thread_list.ids.index(ids["second"])
        assert not second.new
        assert "● new" not in screen.thread_list.get_option_at_index(row).prompt.plain  # type: ignore[union-attr]
        world.client("cody").post(replies, json={"body": {"markdown": "Cody's answer"}})
        screen.action_reload()
        await until(pilot, lambda: (second.comment.replies or 0) == 2 and not screen.busy)
        assert second.new
        assert "● new" in screen.thread_list.get_option_at_index(row).prompt.plain  # type: ignore[union-attr]
        await select_thread(pilot, screen, ids["second"])
        await until(pilot, lambda: len(screen.pane.posts) == 3)
        assert [view.new for view in screen.pane.posts] == [False, False, True]


async def test_narrow_layout_opens_the_thread_full_width(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, size=(80, 24)) as (pilot, screen, *_):
        side = screen.query_one("#thread-side")
        assert screen.has_class("-narrow") and not side.display
        await until(pilot, lambda: screen.thread_list.outer_size.width == 80, "the list laid out")
        await select_thread(pilot, screen, ids["first"])
        await pilot.press("enter")
        # (a pane's size follows its display a layout later)
        await until(
            pilot,
            lambda: side.display and not screen.thread_list.display and side.outer_size.width == 80,
            "the thread alone, the whole width",
        )
        await pilot.press("c")  # a reply: the composer is a bottom panel of the thread
        await until(
            pilot,
            lambda: screen.composer.is_open and 0 < screen.composer.region.bottom <= 23,
            "the composer open at the thread's bottom",
        )
        await pilot.press("escape")  # hides the composer, back in the thread
        await until(pilot, lambda: not screen.composer.is_open and screen.pane.has_focus)
        await pilot.press("escape")  # back to the list
        await until(pilot, lambda: screen.thread_list.display and not side.display)
        await pilot.press("c")  # a new thread from the list
        await until(pilot, lambda: screen.composer.is_open and side.display)
        await pilot.press("escape")
        await until(pilot, lambda: screen.thread_list.display and not side.display)


async def test_offline_list_comes_from_the_cache(world: Any, tmp_path) -> None:
    from gitbook_tui.cache import ResponseCache

    ids = build_space(world)
    app, transport = make_app(world, tmp_path, start=at_welcome(ids))
    app.client.cache = ResponseCache(tmp_path / "cache.sqlite")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_comments(pilot)
        assert len(screen.thread_list.ids) == 2
        transport.offline = True
        screen.action_reload()
        await until(pilot, lambda: screen.state.offline and not screen.busy)
        assert len(screen.thread_list.ids) == 2
        assert "offline" in str(screen.query_one("#comments-title").render())


async def test_enter_in_a_thread_opens_its_page(world: Any, tmp_path) -> None:
    from gitbook_tui.tui.browse.browser_screen import BrowserScreen

    ids = build_space(world)
    async with comments_run(world, tmp_path, ids) as (pilot, screen, app, *_):
        await select_thread(pilot, screen, ids["second"])  # on Install
        await pilot.press("enter", "enter")
        await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: app.screen.current_page == (ids["space"], ids["Install"]))


async def test_unreachable_server_is_named_and_retried(world: Any, tmp_path) -> None:
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids) as (pilot, screen, _, _, transport):
        transport.offline = True
        await pilot.press("f")  # resolved threads: never loaded, so not in any cache
        await until(pilot, lambda: screen.state.error is not None and not screen.busy)
        assert "testserver" in screen.state.error and "r retries" in screen.state.error
        assert screen.query_one("#comments-error").display
        transport.offline = False
        await pilot.press("r")
        await until(pilot, lambda: screen.state.error is None and not screen.busy)
        assert not screen.query_one("#comments-error").display


async def test_without_a_space_the_view_says_what_to_do(world: Any, tmp_path) -> None:
    from gitbook_tui.tui.browse.browser_screen import BrowserScreen
    from gitbook_tui.tui.common.help_screen import HelpScreen

    build_space(world)
    app, _ = make_app(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, BrowserScreen)
        await pilot.press("3")
        screen = await until_screen(pilot, CommentsScreen)
        await until(pilot, lambda: screen.loaded and not screen.busy)
        assert screen.thread_list.ids == []
        await pilot.press("question_mark")  # the help lists this view's keys
        await until_screen(pilot, HelpScreen)
        text = "\n".join(str(s.render()) for s in app.screen.query("Static"))
        assert "comments.react" in text and "comments.resolve" in text


async def test_delete_own_reply_and_unknown_shortcode(world: Any, tmp_path) -> None:
    """Deleting one's own reply (confirmed) and an unknown :shortcode: named in the picker. Slow:
    three dialogs and two server writes."""
    ids = build_space(world)
    reply = _post_my_reply(world, ids)
    async with comments_run(world, tmp_path, ids, ids["second"]) as (pilot, screen, app, *_):
        await until(pilot, lambda: len(screen.pane.posts) == 2)
        await pilot.press("enter", "j", "colon", *":no-such-emoji:", "enter")
        await until(
            pilot, lambda: "No emoji called" in str(app.screen.query_one("#picker-error").render())
        )
        await pilot.press("escape")
        await until_screen(pilot, CommentsScreen)
        await pilot.press("d")
        await until_screen(pilot, ConfirmScreen)
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.pane.posts) == 1)
        assert _replies(world, ids, ids["second"]) == []
        assert _thread(world, ids, ids["second"])["id"] == ids["second"]  # the thread stays
        assert reply not in [p.post.id for p in screen.pane.posts]


async def test_a_replies_read_from_before_the_delete_does_not_bring_the_reply_back(
    world: Any, tmp_path
) -> None:
    ids = build_space(world)
    reply = _post_my_reply(world, ids)
    async with comments_run(world, tmp_path, ids, ids["second"]) as run:
        pilot, screen, _, _, transport = run
        await until(pilot, lambda: len(screen.pane.posts) == 2)
        await pilot.press("enter", "j")  # the reply
        held = HeldListReads(transport.inner, listing="/replies")
        transport.inner = held
        screen.loader.load_replies(ids["second"])  # a refresh of the replies, answered late
        await confirm_delete(pilot)
        await until(pilot, lambda: len(screen.pane.posts) == 1)
        assert _replies(world, ids, ids["second"]) == []
        await hand_back(pilot, screen, held)  # the replies as they were before the delete
        assert reply not in [p.id for p in screen.state.threads[ids["second"]].replies or []]
        assert reply not in [p.post.id for p in screen.pane.posts]
