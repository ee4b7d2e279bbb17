"""Review desk polish (QA #2, #5): review rows cut with "…" to the pane's width and every
review readable in full (``i``); the inbox's section bar fitted to the width."""

from __future__ import annotations

import pytest

from gitbook_tui.tui.common.help_screen import HelpScreen
from gitbook_tui.tui.review.inbox_data import SECTIONS
from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen
from gitbook_tui.tui.review.review_lines import review_lines
from gitbook_tui.tui.review.reviews_screen import ReviewsScreen
from gitbook_tui.tui.review.section_bar import Tab, tab_row
from support.review_world import HOSTILE, LONG, SECOND, make_app, open_inbox, open_review, review
from support.waits import until, until_screen


def rows_of(widget) -> list[str]:
    return str(widget.render()).splitlines()


@pytest.mark.parametrize("width", [80, 120])
async def test_review_rows_fit_the_width_and_cut_with_an_ellipsis(world, desk, tmp_path, width):
    """QA #2: a message was cut at 60 characters, without "…", whatever the width."""
    review(world, desk, "rita", "changes-requested", LONG + "\n\n" + SECOND)
    review(world, desk, "alice", "approved", "Fine by me.")
    app = make_app(world, tmp_path)
    async with app.run_test(size=(width, 30)) as pilot:
        screen = await open_review(app, pilot, "Update partition sizing")
        summary = screen.query_one("#cr-reviews")
        await until(pilot, lambda: len(rows_of(summary)) == 2)
        first, second = rows_of(summary)
        # newest first; the long one is cut to the pane (wider pane, more of it) with "…"
        assert first.startswith("✓ Alice approved: Fine by me.")
        assert first.rstrip().endswith("i: all reviews")
        assert second.startswith("✗ Rita requested changes: The first paragraph is right")
        assert second.rstrip().endswith("…") and len(second) == summary.content_size.width
        assert "recompact" in second and "until then" not in second
        assert (len(second) > 100) == (width == 120)


async def test_i_lists_every_review_in_full(world, desk, tmp_path):
    """QA #2: no place showed a review's whole message; ``i`` lists them, newest first,
    with verdict, age, outdated mark and every line of the message; escape closes it."""
    review(world, desk, "rita", "changes-requested", LONG + "\n\n" + SECOND)
    review(world, desk, "rita", "approved", None)
    review(world, desk, "alice", "approved", HOSTILE)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(app, pilot, "Update partition sizing")
        await pilot.press("i")
        modal = await until_screen(pilot, ReviewsScreen)
        heads = [str(w.render()) for w in modal.query(".review-head")]
        bodies = [str(w.render()) for w in modal.query(".review-body")]
        assert len(heads) == 3 and "3 reviews" in str(
            modal.query_one("#reviews-dialog").border_title
        )
        assert heads[0].startswith("✓ Alice approved · ")
        assert heads[1].startswith("✓ Rita approved") and bodies[1] == "(no message)"
        assert heads[2].startswith("✗ Rita requested changes · ") and " ago" in heads[2]
        assert bodies[2] == LONG + "\n\n" + SECOND
        # untrusted text stays inert: the markup is shown as typed, the escape is gone
        assert "[bold red]pwn[/]" in bodies[0] and "[@click=app.quit]" in bodies[0]
        assert "\x1b" not in bodies[0] and "\x07" not in bodies[0]
        scroll = modal.query_one("#reviews-list")
        assert scroll.has_focus
        await pilot.press("G")
        await until(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)


async def test_i_without_reviews_says_so_and_is_listed_in_help(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(app, pilot, "Update partition sizing")
        assert not screen.query_one("#cr-reviews").display
        await pilot.press("i")
        await until(pilot, lambda: any("No reviews" in n.message for n in app._notifications))
        assert app.screen is screen
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)
        text = "\n".join(str(w.render()) for w in app.screen.query("Static"))
        assert "review.reviews" in text


async def test_reviews_beyond_the_rows_are_counted(world, desk, tmp_path):
    review(world, desk, "rita", "approved", "ok")
    review(world, desk, "alice", "approved", "ok")
    review(world, desk, "carol", "changes-requested", "no")
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(app, pilot, "Update partition sizing")
        summary = screen.query_one("#cr-reviews")
        await until(pilot, lambda: len(rows_of(summary)) == 3)
        assert not any("…" in row or "i: all" in row for row in rows_of(summary))
        assert screen.state is not None
        rows = review_lines(screen.state, 60, rows=2).plain.splitlines()
        assert rows[0].startswith("✗ Carol requested changes: no")
        assert rows[0].endswith("i: all reviews") and len(rows[0]) == 60
        assert rows[1] == "+2 more reviews"
        assert review_lines(screen.state, 60, rows=2).plain.count("\n") == 1


def test_tab_row_levels_and_window() -> None:
    tabs = [Tab(s.labels, n) for s, n in zip(SECTIONS, [8, 1, 3, 2, 12], strict=True)]
    tabs[-1] = Tab(("All open", "All open", "All"), 12)
    full = tab_row(tabs, 0, 118).plain
    assert "Review requested 8" in full and "Outdated or conflicting 3" in full
    short = tab_row(tabs, 0, 78).plain
    assert "Requested 8" in short and "Outdated/conflict 3" in short and "All open 12" in short
    narrow = tab_row(tabs, 4, 58).plain
    assert all(f" {n} " in narrow for n in (8, 1, 3, 2, 12)) and "…" not in narrow
    window = tab_row(tabs, 4, 30).plain
    assert window.startswith("…") and "All 12" in window and len(window) <= 30
    assert tab_row(tabs, 0, 30).plain.rstrip().endswith("…")
    tiny = tab_row(tabs, 0, 8).plain
    assert len(tiny) == 8 and tiny.endswith("…")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_section_bar_fits_and_keeps_every_count(world, desk, tmp_path, size):
    """QA #5: at 80×24 "All open 12" lost its count (no "…"); at 60×20 two sections were gone."""
    app = make_app(world, tmp_path)
    async with app.run_test(size=size) as pilot:
        inbox = await open_inbox(app, pilot)
        bar = inbox.query_one("#inbox-tabs")
        for step in range(len(SECTIONS)):
            assert inbox.section == step
            text = str(bar.render())
            assert len(text) <= size[0] - 2 and "…" not in text
            counts = [int(word) for word in text.split() if word.isdigit()]
            assert len(counts) == len(SECTIONS), text
            await pilot.press("l")
        await pilot.press("h", "f", "f", "f")  # the last section, merged ones
        await until(pilot, lambda: "Merged" in str(bar.render()) or "merged" in str(bar.render()))
        text = str(bar.render())
        assert len([w for w in text.split() if w.isdigit()]) == len(SECTIONS), text


async def test_section_bar_follows_a_resize(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        inbox = await open_inbox(app, pilot)
        bar = inbox.query_one("#inbox-tabs")
        assert "Review requested" in str(bar.render())
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: "Review requested" not in str(bar.render()))
        assert "Requested" in str(bar.render())
        await pilot.resize_terminal(36, 20)
        await until(pilot, lambda: "…" in str(bar.render()))
        assert isinstance(app.screen, ReviewInboxScreen)
        selected = str(bar.render())
        assert "Requested" in selected  # the selected section stays in view


async def test_space_only_bar_is_cut_with_an_ellipsis(world, desk, tmp_path):
    from gitbook_tui.tui.browse.browser_screen import BrowserScreen

    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: app.organization_id is not None)
        app.space_id = desk["space"]["id"]
        inbox = await open_inbox(app, pilot)
        assert inbox.space_only
        bar = inbox.query_one("#inbox-tabs")
        assert str(bar.render()).endswith("a: all spaces")
        await pilot.resize_terminal(50, 20)
        await until(pilot, lambda: str(bar.render()).endswith("…"))
        assert str(bar.render()).startswith("Change requests of this space")
        assert len(str(bar.render())) == 48


async def test_the_pages_list_footer_names_i_at_120_columns(world, desk, tmp_path):
    from gitbook_tui.tui.review.review_footer import ReviewFooter

    review(world, desk, "rita", "approved", "ok")
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(app, pilot, "Update partition sizing")
        await pilot.press("f6")
        await until(pilot, lambda: screen.pages.has_focus)
        footer = screen.query_one(ReviewFooter)
        await until(pilot, lambda: "review.reviews" in [a.binding.id for a in footer.chosen(120)])
