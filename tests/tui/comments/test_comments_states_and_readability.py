"""Comments view: the QA findings fixed (#15, #16, #8, #28, #6, #23, #7)."""

from __future__ import annotations

from typing import Any

from gitbook_tui.drafts.keys import COMMENT, REPLY
from gitbook_tui.tui.comments.comment_actions import READ_ONLY
from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from support.comments_world import (
    build_space,
    comments_run,
    make_app,
    merge_pages,
    newest_thread,
    select_thread,
)
from support.notes import notes_of
from support.waits import until, until_screen


async def test_reply_to_a_deleted_thread_becomes_a_new_thread_draft(world: Any, tmp_path) -> None:
    """#15: the text of a reply whose thread went away stays reachable (and postable)."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["first"]) as (pilot, screen, _, notes, *_):
        await pilot.press("enter", "c")
        await until(pilot, lambda: screen.composer.is_open)
        world.client("alice").delete(f"/spaces/{ids['space']}/comments/{ids['first']}")
        await pilot.press(*"Too late", "ctrl+s")
        composer = screen.composer
        await until(pilot, lambda: composer.key is not None and composer.key.kind == COMMENT)
        assert composer.is_open and composer.text == "Too late"
        assert composer.key.target == ids["Welcome"]
        assert "new thread" in composer.title
        assert any("new-thread draft" in n for n in notes)
        store = composer.debouncer.store
        assert store.load(screen.actions.key(REPLY, ids["first"])) is None
        # escape keeps it; c on the list reaches it again
        await pilot.press("escape")
        await until(pilot, lambda: not composer.is_open)
        saved = store.load(screen.actions.key(COMMENT, ids["Welcome"]))
        assert saved is not None and saved.text == "Too late"
        await until(pilot, lambda: screen.thread_list.has_focus)
        await pilot.press("c")
        await until(pilot, lambda: composer.is_open and composer.text == "Too late")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not composer.is_open)
        newest = newest_thread(world, ids)
        assert newest["body"]["markdown"] == "Too late"
        assert newest["target"]["page"]["id"] == ids["Welcome"]


async def test_open_page_then_capital_c_shows_the_thread(world: Any, tmp_path) -> None:
    """#16: ``p`` then ``C``: the highlighted thread is shown, not "Loading threads…"."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["second"]) as (pilot, screen, app, *_):
        await until(pilot, lambda: screen.pane.thread is not None and not screen.busy)
        await pilot.press("p")
        await until(pilot, lambda: app.screen is not screen)
        browser = app.screen
        await until(pilot, lambda: (browser.current_page or ("", ""))[1] == ids["Install"])  # type: ignore[attr-defined]
        await pilot.press("C")
        await until(pilot, lambda: app.screen is screen and screen.loaded)
        await until(pilot, lambda: screen.thread_list.ids == [ids["second"]] and not screen.busy)
        await until(
            pilot, lambda: screen.pane.thread is not None and screen.pane.thread.id == ids["second"]
        )


async def test_no_space_open_says_what_to_do(world: Any, tmp_path) -> None:
    """#8: with no space open the title is not "loading…" and every key says why."""
    build_space(world)
    app, _ = make_app(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        notes = notes_of(app)
        await until(pilot, lambda: app.screen.__class__.__name__ == "BrowserScreen")
        await pilot.press("3")
        screen = await until_screen(pilot, CommentsScreen)
        await until(pilot, lambda: screen.loaded and not screen.busy)
        title = str(screen.query_one("#comments-title").render())
        assert "loading" not in title and "no space open" in title
        for key in ("F", "d", "x", "colon", "e", "c"):
            before = len(notes)
            await pilot.press(key)
            await until(pilot, lambda before=before: len(notes) > before)  # type: ignore[misc]
            assert "press 1" in notes[-1], (key, notes[-1])


async def test_empty_list_at_80x24_says_how_to_start_a_thread(world: Any, tmp_path) -> None:
    """#28: an empty thread list is not a blank screen at narrow widths."""
    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, size=(80, 24), key="C") as (pilot, screen, *_):
        await pilot.press("f")  # resolved threads of this page: none
        await until(
            pilot, lambda: screen.loaded and not screen.busy and screen.state.status == "resolved"
        )
        lst = screen.thread_list
        await until(pilot, lambda: lst.option_count == 1)
        text = lst.get_option_at_index(0).prompt
        assert "No resolved threads on this page — c starts one" in str(text)
        assert lst.region.width > 0 and lst.highlighted is None
        await pilot.press("c")  # still starts a thread
        await until(pilot, lambda: screen.composer.is_open)
        assert "New thread" in screen.composer.title


async def test_empty_states_offer_a_reader_only_what_they_may_do(world: Any, tmp_path) -> None:
    """#21 readers: a reader (c refused: read access) is not told "c starts one" by the
    empty list or the empty thread pane; the next step they may take is still offered."""
    ids = build_space(world)
    page = merge_pages(world, ids["space"], ["Quiet page"])["Quiet page"]
    async with comments_run(world, tmp_path, ids, token="tok-rhea", page=page, key="C") as run:
        pilot, screen, *_ = run
        assert screen.denial_reason("compose") == READ_ONLY
        empty = "No open threads on this page — f shows resolved ones."
        lst = screen.thread_list
        await until(pilot, lambda: lst.option_count == 1 and not lst.ids)
        assert str(lst.get_option_at_index(0).prompt) == empty
        # drawn whole in the list beside the pane (wrapped, not cut like a row)
        drawn = " ".join(lst.render_line(y).text.strip() for y in range(lst.size.height))
        assert empty in " ".join(drawn.split())
        await until(pilot, lambda: screen.pane.query("#thread-empty"))
        assert str(screen.pane.query_one("#thread-empty").render()) == empty
        await pilot.press("f")  # resolved threads: none, and nothing more to offer
        await until(pilot, lambda: screen.state.status == "resolved" and screen.loaded)
        await until(
            pilot,
            lambda: str(lst.get_option_at_index(0).prompt) == "No resolved threads on this page.",
        )


async def test_pager_keys_in_the_thread_list_and_pane(world: Any, tmp_path) -> None:
    """#6 and the kit: the thread list moves its cursor with the list keys (ctrl+d/u,
    ctrl+f/b, g/G; j/k stop at the edges, never wrap) and leaves space/b alone (reader keys);
    l/→ open the thread, h/← go back; the thread pane, a reader, scrolls with ctrl+d/u,
    ctrl+f/b and space/b. Slow: 32 threads and a 31-post thread."""
    ids = build_space(world)
    alice = world.client("alice")
    for n in range(30):
        r = alice.post(
            f"/spaces/{ids['space']}/comments", json={"body": {"markdown": f"Thread {n}"}}
        )
        assert r.status_code in (200, 201), r.text
    for n in range(30):
        r = alice.post(
            f"/spaces/{ids['space']}/comments/{ids['first']}/replies",
            json={"body": {"markdown": f"Reply {n}\n\nwith a second paragraph"}},
        )
        assert r.status_code in (200, 201), r.text
    async with comments_run(world, tmp_path, ids) as (pilot, screen, *_):
        lst = screen.thread_list
        await until(pilot, lambda: len(lst.ids) == 32 and lst.highlighted == 0)
        rows = lst.scrollable_content_region.height // 2  # a thread is two lines
        await pilot.press("k")  # at the top: nothing moves (no wrap to the bottom)
        await pilot.press("space", "b")  # reader keys: not a list's
        await pilot.pause()
        assert lst.highlighted == 0
        for key, row in (
            ("ctrl+d", rows // 2),
            ("ctrl+u", 0),
            ("ctrl+f", rows),
            ("ctrl+b", 0),
            ("G", 31),
            ("j", 31),  # at the bottom: nothing moves (no wrap to the top)
            ("g", 0),
            ("j", 1),
        ):
            await pilot.press(key)
            await until(pilot, lambda row=row: lst.highlighted == row, f"{key}: row {row}")  # type: ignore[misc]
        await pilot.press("space", "b")
        await pilot.pause()
        assert lst.highlighted == 1
        await select_thread(pilot, screen, ids["first"])
        pane = screen.pane
        await pilot.press("l")  # open / drill: the thread, focus in its pane
        await until(pilot, lambda: pane.has_focus)
        await pilot.press("h")  # back: the list
        await until(pilot, lambda: lst.has_focus)
        await pilot.press("right")
        await until(pilot, lambda: pane.has_focus)
        await until(pilot, lambda: len(pane.posts) == 32 and pane.max_scroll_y > 0)
        for key, down in (("ctrl+d", True), ("ctrl+u", False), ("space", True), ("b", False)):
            await pilot.press(key)
            await until(pilot, lambda down=down: pane.scroll_y > 0 if down else pane.scroll_y == 0)  # type: ignore[misc]
        await pilot.press("ctrl+f", "g")
        await until(pilot, lambda: pane.scroll_y == 0 and pane.cursor == 0)
        await pilot.press("left")
        await until(pilot, lambda: lst.has_focus)


async def test_marks_readable_in_light_themes(world: Any, tmp_path) -> None:
    """#23: my reaction counts and "page changed" read at 4.5:1 in light themes."""
    from rich.color import Color as RichColor
    from textual.color import Color

    from gitbook_tui.tui.common.contrast import contrast

    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["first"]) as (pilot, screen, app, *_):
        thread = screen.selected
        assert thread is not None and thread.comment.target is not None
        page = thread.comment.target.page
        assert page is not None
        page.outdated = True
        screen.state.me = None
        lst = screen.thread_list
        eve = next(u.user.id for r in thread.comment.reactions for u in r.users if u.user)
        lst.me = screen.pane.me = eve  # the reactions are eve's: "mine"
        await pilot.press("k")  # off the row (j stays on the last): measure it unhighlighted

        def _c(color: RichColor | None) -> Color:
            assert color is not None and color.triplet is not None
            return Color(*color.triplet)

        def measure() -> dict[str, float]:
            found: dict[str, float] = {}
            for y in range(lst.size.height):
                for seg in lst.render_line(y):
                    for mark in ("page changed", "👍1"):
                        if mark in seg.text and seg.style is not None:
                            found[mark] = contrast(_c(seg.style.color), _c(seg.style.bgcolor))
            return found

        for theme in ("textual-light", "solarized-light"):
            app.theme = theme
            await pilot.pause()
            await pilot.pause()
            await until(pilot, lambda: len(measure()) == 2 and min(measure().values()) >= 4.5)


async def test_post_marks_readable_in_light_themes(world: Any, tmp_path) -> None:
    """#23, the thread pane: "⧗ sending", "● new" and my reactions inside a post read at
    4.5:1 on the post's background, in the theme chosen now."""
    from textual.color import Color

    from gitbook_tui.tui.comments.post_view import PostView
    from gitbook_tui.tui.common.contrast import contrast

    ids = build_space(world)
    async with comments_run(world, tmp_path, ids, ids["first"]) as (pilot, screen, app, *_):
        await until(pilot, lambda: bool(screen.query(PostView)))
        for theme in ("textual-light", "solarized-light", "textual-dark"):
            app.theme = theme
            await pilot.pause()
            post = screen.query(PostView).first()
            ground = post.background_colors[1]
            marks = post._mark_colours()
            assert all(not m.startswith("$") for m in marks), (theme, marks)
            for mark in marks:
                assert contrast(Color.parse(mark), ground) >= 4.5, (theme, mark)
