"""The offline queue is app-wide: counted in every view's status bar, replayed from any view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Static

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.drafts import ReplayLoop
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.common.state import StartTarget, account_key
from gitbook_tui.tui.common.status_bar import StatusBar
from support.comments_world import (
    BASE,
    build_space,
    comments_at,
    comments_run,
    make_app,
    reply_offline,
    select_thread,
)
from support.notes import notes_of
from support.waits import until, until_screen

FAST = (0.2, 1.0)  # probe waits: first and longest (the app's are 5 s and 5 min)


def _replies(world: Any, ids: dict[str, str], thread: str) -> list[str]:
    r = world.client("alice").get(f"/spaces/{ids['space']}/comments/{thread}/replies")
    return [item["body"]["markdown"] for item in r.json()["items"]]


def _bar(app: Any) -> StatusBar:
    return app.screen.query_one(StatusBar)


def _shown(app: Any) -> str:
    """What the status bar on screen draws for the queue ("" when hidden)."""
    part = _bar(app).query_one("#status-queue", Static)
    return str(part.render()) if part.display else ""


async def _queue_two(pilot: Any, screen: CommentsScreen, transport: Any, thread: str) -> None:
    await select_thread(pilot, screen, thread)
    transport.offline = True
    await pilot.press("x")  # resolve: queued
    await until(pilot, lambda: screen.queued == 1)
    await reply_offline(pilot, screen, transport, "Written on a train")


async def test_queued_in_comments_replayed_from_browse_by_the_probe(
    world: Any, tmp_path: Path
) -> None:
    """Replies queued in Comments are replayed by the probe while Browse is shown. Slow: waits for
    the probe's (shortened) interval in a two-view app."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, outbox_probe_seconds=FAST) as run:
        pilot, screen, app, notes, transport = run
        await _queue_two(pilot, screen, transport, ids["second"])
        assert _shown(app) == "2 queued"
        await pilot.press("1")  # Browse
        await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: _shown(app) == "2 queued")
        loop = app.outbox_replay
        assert isinstance(loop, ReplayLoop)
        probes = loop.probes
        await until(pilot, lambda: loop.probes >= probes + 2)  # still offline: probing…
        assert loop.queued == 2 and _replies(world, ids, ids["second"]) == []
        transport.offline = False  # …until the server is back: nothing pressed
        await until(pilot, lambda: _shown(app) == "" and loop.queued == 0)
        assert isinstance(app.screen, BrowserScreen)
        assert _replies(world, ids, ids["second"]) == ["Written on a train"]
        r = world.client("alice").get(f"/spaces/{ids['space']}/comments/{ids['second']}")
        assert r.json()["status"] == "resolved"
        await until(pilot, lambda: any("Sent 2 queued" in n for n in notes))
        # the Comments view shows the server's copies when it is shown again
        await pilot.press("3")
        await until(pilot, lambda: app.screen is screen)
        # (the view may still show its own copies a moment, until it reads the thread again)
        await until(
            pilot,
            lambda: (
                len(screen.pane.posts) == 2
                and not screen.busy
                and not any(v.post.id.startswith("local-") for v in screen.pane.posts)
            ),
            "the server's copies of both replies in the thread",
        )
        # my own reply, sent by the replay, is never "new" to me (QA2 #9)
        assert not any(v.new for v in screen.pane.posts)


async def test_any_successful_request_replays_at_once(world: Any, tmp_path: Path) -> None:
    """Any successful request (here a page reload in Browse) replays the queue at once. Slow: two
    views and an outage in one app."""
    ids = build_space(world)
    idle_probe = (600.0, 600.0)  # no probe during the test: an answer does it
    async with comments_run(world, tmp_path, ids, outbox_probe_seconds=idle_probe) as run:
        pilot, screen, app, _, transport = run
        await _queue_two(pilot, screen, transport, ids["second"])
        await pilot.press("1")
        await until_screen(pilot, BrowserScreen)
        transport.offline = False
        await pilot.press("R")  # reload the page: the server answers, the queue goes
        await until(pilot, lambda: _shown(app) == "")
        assert _replies(world, ids, ids["second"]) == ["Written on a train"]
        loop = app.outbox_replay
        assert loop is not None and loop.queued == 0


async def test_queue_count_shows_after_a_restart_before_comments_open(
    world: Any, tmp_path: Path
) -> None:
    """The queued count shows in the status bar after a restart, before Comments is opened. Slow:
    two app runs."""
    ids = build_space(world)
    start = StartTarget(ids["space"], ids["Welcome"])
    app, transport = make_app(world, tmp_path, start=start)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await comments_at(pilot, ids["second"])
        await reply_offline(pilot, screen, transport, "Queued before the restart")
    app, transport = make_app(world, tmp_path, start=start)
    app.OUTBOX_PROBE_SECONDS = FAST
    transport.offline = True  # the app starts where the server is still unreachable
    async with app.run_test(size=(120, 40)) as pilot:
        notes = notes_of(app)
        await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: _shown(app) == "1 queued")
        assert not app.is_screen_installed("view-comments")  # never opened
        transport.offline = False
        await until(pilot, lambda: _shown(app) == "")
        assert _replies(world, ids, ids["second"]) == ["Queued before the restart"]
        await until(pilot, lambda: any("Sent 1 queued" in n for n in notes))


async def test_refused_on_replay_in_another_view_is_notified(world: Any, tmp_path: Path) -> None:
    """A reply refused on replay while another view is shown is notified and kept as a draft. Slow:
    two views, an outage and a replay."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["second"]) as run:
        pilot, screen, app, notes, transport = run
        await reply_offline(pilot, screen, transport, "Too late")
        await pilot.press("1")
        await until_screen(pilot, BrowserScreen)
        world.client("alice").delete(f"/spaces/{ids['space']}/comments/{ids['second']}")
        transport.offline = False
        await pilot.press("R")
        await until(pilot, lambda: any("refused a reply to" in n for n in notes))
        assert _shown(app) == ""
        assert isinstance(app.screen, BrowserScreen)


async def test_a_new_account_gets_its_own_queue_and_an_org_switch_keeps_it(
    world: Any, tmp_path: Path
) -> None:
    ids = build_space(world)
    app, transport = make_app(world, tmp_path, start=StartTarget(ids["space"], ids["Welcome"]))
    async with app.run_test(size=(120, 40)) as pilot:
        await until_screen(pilot, BrowserScreen)
        first, first_task = app.outbox_replay, app.outbox_task
        assert isinstance(first, ReplayLoop) and first_task is not None
        await app.show_browser(world.org)  # an organization switch: the same account
        assert app.outbox_replay is first
        old = app.client
        app.client = AsyncGitBook("tok-cody", base_url=BASE, transport=transport, max_retries=0)
        await app.show_browser(world.org)  # after signing in as someone else
        second = app.outbox_replay
        assert isinstance(second, ReplayLoop) and second is not first
        assert second.account != first.account
        assert second.account == account_key(app.client)
        task = app.outbox_task
        assert task is not None and not task.done()  # one replayer: the old one stopped
        await until(pilot, lambda: first_task.done())
        await old.close()


async def test_my_reply_replayed_in_comments_is_not_new(world: Any, tmp_path: Path) -> None:
    """QA2 #9: a reply of mine sent from the queue while the view is shown is not "● new"."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["second"], outbox_probe_seconds=FAST) as run:
        pilot, screen, app, _, transport = run
        transport.offline = True
        await pilot.press("enter", "c")
        await until(pilot, lambda: screen.composer.is_open)
        await pilot.press(*"Written on a train", "ctrl+s")
        await until(pilot, lambda: screen.queued == 1 and not screen.composer.is_open)
        transport.offline = False
        loop = app.outbox_replay
        assert loop is not None
        await until(pilot, lambda: loop.queued == 0)
        await pilot.press("escape", "r")  # a live refresh after the replay
        await until(pilot, lambda: not screen.busy and len(screen.pane.posts) == 2)
        await until(
            pilot, lambda: not any(v.post.id.startswith("local-") for v in screen.pane.posts)
        )
        assert not any(v.new for v in screen.pane.posts)
        row = screen.thread_list.ids.index(ids["second"])  # and its list row agrees
        assert not screen.state.threads[ids["second"]].new
        assert "● new" not in screen.thread_list.get_option_at_index(row).prompt.plain  # type: ignore[union-attr]
