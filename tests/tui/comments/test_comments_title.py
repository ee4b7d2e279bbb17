"""Comments view title: the page scope names its page, the author filter its author (even
with none of their threads in scope), and the line is cut with "…" to fit, keeping the count."""

from __future__ import annotations

from typing import Any

from gitbook_tui.tui.comments.comments_screen import CommentsScreen
from gitbook_tui.tui.comments.comments_title import MIN_CELLS, TitleParts, title_line
from gitbook_tui.tui.common.text import cell_width
from support.comments_world import (
    HOSTILE,
    build_space,
    comments_run,
    merge_pages,
    thread_on_new_page,
)
from support.waits import until

LONG_PAGE = "Configuring the retention and compaction of partitions in production clusters"


def drawn(screen: CommentsScreen) -> str:
    """The title line as painted (padding included), trailing blanks dropped."""
    title = screen.query_one("#comments-title")
    return title.render_line(0).text.rstrip()


async def pick_author(pilot: Any, screen: CommentsScreen, row: int) -> None:
    """``F`` and choose the picker's row ``row`` (anyone, Alice, Cody, …)."""
    app = pilot.app
    await pilot.press("F")
    await until(pilot, lambda: app.screen.__class__.__name__ == "AuthorPicker")
    await pilot.press("home", *["j"] * row, "enter")
    await until(pilot, lambda: app.screen is screen and screen.loaded and not screen.busy)


def test_title_line_cuts_the_names_and_keeps_the_count() -> None:
    parts = TitleParts(
        space="A space with a rather long title",
        status="resolved",
        where="page",
        named=LONG_PAGE,
        quoted=True,
        author="Bartholomew Featherstonehaugh-Smythe",
        count=" · 12 threads",
    )
    wide = title_line(parts, 300).plain
    assert f"page “{LONG_PAGE}”" in wide and "Bartholomew Featherstonehaugh-Smythe" in wide
    line = title_line(parts, 78).plain
    assert cell_width(line) <= 78
    assert line.startswith("Comments · A space") and line.endswith(" · 12 threads")
    assert " · resolved · page “Configur" in line and "…” · Barth" in line
    # the space title goes before the names get shorter than MIN_CELLS
    narrow = title_line(parts, 60).plain
    assert cell_width(narrow) <= 60 and narrow.endswith(" · 12 threads")
    assert "A space" not in narrow and narrow.startswith("Comments · resolved · page “")
    assert "page “Config…” · Bartho… · 12 threads" in narrow
    offline = TitleParts(**{**parts.__dict__, "offline": " · offline, cached 5m"})
    cut = title_line(offline, 78).plain
    assert cell_width(cut) <= 78 and cut.endswith(" · 12 threads · offline, cached 5m")
    assert MIN_CELLS >= 4


def test_title_line_is_inert_and_one_line() -> None:
    parts = TitleParts(space=HOSTILE, where="page", named="Two\nlines\tand " + HOSTILE, quoted=True)
    content = title_line(parts, 78)
    text = content.plain
    assert "\n" not in text and "\t" not in text
    assert not any(ch in text for ch in ("\x1b", "\x07", "\u202e"))
    assert "[b]bold[/b]" in title_line(parts, 400).plain  # shown as typed, never applied
    assert all("click" not in str(span.style) for span in content.spans)


async def test_page_scope_names_the_page_and_fits_at_80_columns(world: Any, tmp_path) -> None:
    ids = build_space(world)
    page, _ = thread_on_new_page(world, ids, LONG_PAGE, "Too long a title?")
    async with comments_run(world, tmp_path, ids, page=page, size=(160, 40), key="C") as run:
        pilot, screen, *_ = run
        assert screen.state.page_scope == page
        await until(pilot, lambda: f"page “{LONG_PAGE}”" in drawn(screen))
        assert drawn(screen).endswith(" · anyone · 1 thread")
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: "…”" in drawn(screen))
        line = drawn(screen)
        assert cell_width(line) <= 79 and line.endswith(" · anyone · 1 thread")
        assert " · open · page “Configuring" in line
        # author filter and status on top: still fits, the count still shown
        await pick_author(pilot, screen, 1)  # Alice
        await pilot.press("f")
        await until(
            pilot, lambda: screen.loaded and not screen.busy and screen.state.status == "resolved"
        )
        await until(pilot, lambda: drawn(screen).endswith(" · Alice · 0 threads"))
        line = drawn(screen)
        assert cell_width(line) <= 79 and " · resolved · page “" in line and "…" in line


async def test_page_scope_with_no_thread_still_names_the_page(world: Any, tmp_path) -> None:
    ids = build_space(world)
    page = merge_pages(world, ids["space"], ["Quiet page"])["Quiet page"]
    async with comments_run(world, tmp_path, ids, page=page, size=(80, 24), key="C") as run:
        pilot, screen, _, _, transport = run
        await until(pilot, lambda: "page “Quiet page”" in drawn(screen))
        assert drawn(screen).endswith(" · open · page “Quiet page” · anyone · 0 threads")
        asked = [r for r in transport.requests if r.endswith(f"/content/page/{page}")]
        await pilot.press("r")  # a refresh does not ask for the title again
        await until(pilot, lambda: not screen.busy)
        assert [r for r in transport.requests if r.endswith(f"/content/page/{page}")] == asked


async def test_hostile_page_title_is_inert_in_the_title(world: Any, tmp_path) -> None:
    ids = build_space(world)
    page = merge_pages(world, ids["space"], [HOSTILE])
    page_id = next(v for k, v in page.items() if "evil" in k)
    async with comments_run(world, tmp_path, ids, page=page_id, size=(80, 24), key="C") as run:
        pilot, screen, app, *_ = run
        await until(pilot, lambda: "page “[b]bold[/b]" in drawn(screen))
        line = drawn(screen)
        assert not any(ch in line for ch in ("\x1b", "\x07", "\u202e"))
        assert line.endswith(" · anyone · 0 threads") and "…" in line
        assert app.is_running  # [@click=app.quit] was not a link


async def test_author_with_no_thread_in_scope_is_named(world: Any, tmp_path) -> None:
    """Over 5 s under load: the app, the Comments view and the author picker, with its server round trips."""
    ids = build_space(world)
    # Welcome: Alice's thread only
    async with comments_run(world, tmp_path, ids, key="C") as (pilot, screen, *_):
        await pick_author(pilot, screen, 2)  # anyone, Alice, Cody: Cody
        await until(pilot, lambda: screen.thread_list.ids == [] and screen.state.author is not None)
        await until(pilot, lambda: drawn(screen).endswith(" · Cody · 0 threads"))
        assert "one author" not in drawn(screen)
        empty = "No open threads on this page by Cody — c starts one, f shows resolved ones."
        prompt = screen.thread_list.get_option_at_index(0).prompt
        assert str(prompt) == empty
        await until(pilot, lambda: screen.pane.query("#thread-empty"))
        shown = screen.pane.query_one("#thread-empty").render()
        assert str(shown) == empty
        await pilot.press("ctrl+o")  # the whole space: Cody's thread, his name from it
        await until(pilot, lambda: screen.thread_list.ids == [ids["second"]])
        assert drawn(screen).endswith(" · whole space · Cody · 1 thread")
        await pick_author(pilot, screen, 0)  # anyone again
        await until(pilot, lambda: len(screen.thread_list.ids) == 2)
        assert drawn(screen).endswith(" · whole space · anyone · 2 threads")
