"""The review pane's ``/`` filter of the changed pages (QA pass 2, #1): typing is filter text,
never commands; enter keeps the match's diff, escape goes back; narrow widths show the list."""

from __future__ import annotations

from gitbook_tui.tui.common.filter_box import FilterBox
from gitbook_tui.tui.common.help_screen import HelpScreen
from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen
from support.review_world import EDITED, _cr, _post, make_app, open_inbox, open_review
from support.waits import until, until_screen

SUBJECT = "Two pages at once"


def two_page_cr(world, desk) -> None:
    _, path = _cr(world, desk["space"], SUBJECT)
    edit = {"operation": "update_page", "page": desk["page"], "document": {"markdown": EDITED}}
    new = {
        "operation": "insert_page",
        "title": "Compaction notes",
        "document": {"markdown": "# Compaction notes\n\nOld segments merge.\n"},
    }
    _post(world, "eve", f"{path}/content", changes=[edit, new])


def titles(screen: ChangeRequestReviewScreen) -> list[str]:
    return [c.page.title or "" for c in screen.pages.listed if c.page is not None]


async def test_typing_in_the_filter_never_fires_commands(world, desk, tmp_path):
    """Letters typed in the inbox filter are text, never commands. Slow: types letter by letter,
    checking the inbox after each step."""
    two_page_cr(world, desk)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(app, pilot, SUBJECT)
        assert len(screen.pages.changes) == 2
        await pilot.press("slash")
        box = screen.query_one(FilterBox)
        assert box.has_focus and box.display
        typed = "quick m a u v V x W E i J K A R C c o Y"
        await pilot.press(*["space" if ch == " " else ch for ch in typed])
        assert app.screen is screen  # nothing quit, merged, or opened a dialog
        assert box.value == typed
        assert screen.pages.listed == []
        assert "No page matches" in str(screen.pages.get_option_at_index(0).prompt)
        await pilot.press("enter")  # nothing to open: it says so and keeps the filter
        await until(pilot, lambda: any("No changed page" in n.message for n in app._notifications))
        assert box.has_focus
        await pilot.press("escape")
        assert not box.display
        assert screen.diff.has_focus
        assert len(screen.pages.listed) == 2
        assert app.screen is screen


async def test_enter_opens_the_match_and_escape_goes_back(world, desk, tmp_path):
    """/ then enter opens the highlighted change request; escape comes back to the inbox. Slow: the
    inbox and a review built."""
    two_page_cr(world, desk)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(app, pilot, SUBJECT)
        first = screen.pages.selected
        other = next(t for t in titles(screen) if t != first.page.title)
        await pilot.press("slash", *other[:5].lower())
        assert titles(screen) == [other]
        await pilot.press("enter")
        await until(pilot, lambda: screen.diff_ready.is_set())
        assert screen.pages.selected.page.title == other
        assert screen.diff.has_focus and not screen.filter_box.display
        assert len(screen.pages.listed) == 2  # the whole list again, the match kept
        assert other in "\n".join(screen.diff.all_text())
        # escape: back to the page shown before the filter
        await pilot.press("slash", *first.page.title[:4].lower())
        await pilot.press("backspace", "backspace", "backspace", "backspace", *"compac")
        assert titles(screen) == ["Compaction notes"]
        await pilot.press("escape")
        assert screen.pages.selected.page.title == other
        assert screen.diff.has_focus


async def test_narrow_shows_the_list_while_filtering(world, desk, tmp_path):
    two_page_cr(world, desk)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(app, pilot, SUBJECT)
        await pilot.pause()
        assert screen.pages.region.width == 0
        await pilot.press("slash")
        await until(pilot, lambda: screen.pages.region.width > 0)
        await pilot.press(*"quick")
        assert app.screen is screen
        await pilot.pause()
        box = screen.filter_box
        assert box.region.height == 1  # one row, the text readable (no focused tall border)
        shot = app.export_screenshot().replace("&#160;", " ")
        assert ">quick" in shot or " quick" in shot
        await pilot.press("escape")
        await until(pilot, lambda: screen.pages.region.width == 0)
        assert screen.diff.has_focus


async def test_the_filter_is_in_the_help(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_review(app, pilot, "Update partition sizing")
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)
        text = "\n".join(str(w.render()) for w in app.screen.query("Static"))
        assert "review.filter" in text
        await pilot.press("escape", "slash", "question_mark")
        assert app.screen.__class__ is ChangeRequestReviewScreen  # ? is filter text here


async def test_the_inbox_uses_the_same_filter_box(world, desk, tmp_path):
    app = make_app(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        inbox = await open_inbox(app, pilot)
        await pilot.press("slash", *"quick")
        assert app.screen is inbox and inbox.filter_text == "quick" and inbox.shown == []
        await pilot.press("escape")  # clears at once
        assert inbox.filter_text == "" and not inbox.query_one(FilterBox).display
        await pilot.press("slash", *"conflicting")
        assert inbox.query_one("#inbox-state").render().plain.startswith("1 of ")  # listed
        await pilot.press("enter")  # opens the match, the filter kept
        review = await until_screen(pilot, ChangeRequestReviewScreen)
        await until(pilot, lambda: review.state is not None, "the review loaded")
        assert review.state is not None and review.state.cr.subject == "Conflicting edit"
        await pilot.press("escape")
        await until_screen(pilot, ReviewInboxScreen)
        assert [r.cr.subject for r in inbox.shown] == ["Conflicting edit"]
        assert inbox.query_one("#inbox-table").has_focus
        await pilot.press("escape")  # on the table: clears it
        assert inbox.filter_text == "" and inbox.shown
