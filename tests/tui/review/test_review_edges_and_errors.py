"""Review desk fixes for the QA findings (numbers refer to the QA report): each test
reproduces one finding."""

from __future__ import annotations

from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen
from support.review_world import EDITED, edited_cr, make_app, open_inbox, open_review
from support.waits import until, until_screen


async def test_keys_on_an_empty_inbox_never_crash(world, desk, tmp_path):
    """QA #27: `↑` on an empty list raised AttributeError (row_key None)."""
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        inbox = await open_inbox(app, pilot)
        await pilot.press("slash", *"zzz", "enter")
        assert inbox.shown == []
        keys = [
            "up",
            "down",
            "up",
            "home",
            "end",
            "pageup",
            "pagedown",
            "j",
            "k",
            "enter",
            "p",
            "p",
        ]
        for section in range(5):
            assert inbox.section == section
            await pilot.press(*keys)
            assert isinstance(app.screen, ReviewInboxScreen)
            await pilot.press("l")
        await pilot.press("escape")  # no filter: "Mine" etc. may be empty too
        for _ in range(5):
            await pilot.press(*keys[:8], "l")
        assert app.is_running and isinstance(app.screen, ReviewInboxScreen)


async def test_a_review_that_fails_to_load_shows_the_error(world, desk, tmp_path, monkeypatch):
    """QA #12: the panes said "Loading…" forever and the footer keys did nothing silently."""
    from gitbook_tui.api.errors import APIConnectionError
    from gitbook_tui.tui.review import review_loader as module

    real = module.load_review_state
    failing = [True]

    async def flaky(*args, **kwargs):
        if failing[0]:
            raise APIConnectionError("GET", "/spaces/x/change-requests/y")
        return await real(*args, **kwargs)

    monkeypatch.setattr(module, "load_review_state", flaky)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        inbox = await open_inbox(app, pilot)
        await until(pilot, lambda: bool(inbox.shown))
        await pilot.press("enter")
        review = await until_screen(pilot, ChangeRequestReviewScreen)
        banner = review.query_one("#cr-error")
        await until(pilot, lambda: banner.has_class("-showing"))
        text = str(banner.render())
        assert "http://testserver/v1" in text and "Could not reach the server" in text
        assert "r retry" in text
        assert "Loading" not in str(review.query_one("#cr-header").render())
        assert not any("Loading" in line for line in review.diff.all_text())
        for key in ("v", "m", "J", "space"):
            app.clear_notifications()
            await pilot.press(key)
            await until(pilot, lambda: bool(app._notifications))
            assert "could not be loaded" in next(iter(app._notifications)).message
        failing[0] = False
        await pilot.press("r")
        await until(pilot, lambda: review.state is not None and review.diff_ready.is_set())
        assert not banner.has_class("-showing")


async def test_f6_never_focuses_the_hidden_pages_list(world, desk, tmp_path):
    """QA #14: at 80x24 f6 focused the hidden changed-pages list; n and ctrl+d then did nothing."""
    app = make_app(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        assert not review.pages.display or review.pages.region.width == 0
        await pilot.press("f6")
        focused = app.focused
        assert focused is review.diff
        assert focused.region.width > 0
        assert any("hidden" in n.message for n in app._notifications)
        before = review.diff.current
        await pilot.press("n")
        assert review.diff.current != before


async def test_status_filter_is_named_and_explains_itself(world, desk, tmp_path):
    """QA #18: `f` in "All open" listed merged CRs under "All open"; elsewhere it said nothing."""
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        inbox = await open_inbox(app, pilot)
        tabs = inbox.query_one("#inbox-tabs")
        assert inbox.section == 0
        await pilot.press("f")
        assert inbox.status_index == 0
        assert any("fixed statuses" in n.message for n in app._notifications)
        await pilot.press("l", "l", "l", "l")
        assert "All open" in str(tabs.render())
        await pilot.press("f", "f", "f")  # merged
        await until(pilot, lambda: "All merged" in str(tabs.render()))
        assert "All open" not in str(tabs.render())
        assert all(r.cr.status == "merged" for r in inbox.shown)


async def test_tabs_in_code_are_expanded_in_the_diff(world, desk, tmp_path):
    """QA #3: tab characters from code blocks reached the terminal raw (split columns shifted)."""

    code = "```go\nfunc main() {\n\tlog.Fatal(err)\n}\n```\n"
    edited_cr(world, desk, "Tabbed code", EDITED + code)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Tabbed code")
        rows = review.diff.all_text()
        assert not any("\t" in row for row in rows)
        assert any("    log.Fatal(err)" in row for row in rows)
        assert len({len(row) for row in rows if "│" in row}) <= 2  # aligned split columns


async def test_a_failed_review_keeps_the_dialog_open(world, desk, tmp_path, monkeypatch):
    """QA #19: a failed approve/request-changes closed the dialog (only a toast said why)."""
    from gitbook_tui.api.change_requests import ChangeRequests
    from gitbook_tui.api.errors import APIConnectionError
    from gitbook_tui.tui.review.review_message_screen import ReviewMessageScreen

    async def down(self, *args, **kwargs):
        raise APIConnectionError("POST", "/spaces/x/change-requests/y/reviews")

    app = make_app(world, tmp_path, who="rita")
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        monkeypatch.setattr(ChangeRequests, "submit_review", down)
        for key, message in (("V", "please split this"), ("v", "")):
            await pilot.press(key)
            dialog = await until_screen(pilot, ReviewMessageScreen)
            await pilot.press(*message, "ctrl+s")
            await until(pilot, lambda d=dialog: "Could not reach" in (d.composer.error or ""))
            assert app.screen is dialog
            assert dialog.composer.text == message
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is review)


async def test_folded_code_lines_carry_the_continuation_mark(world, desk, tmp_path):
    """QA #4: wrapped diff code lines started at the left margin with no mark."""
    from gitbook_tui.tui.render.code import CONTINUATION

    long = "x := " + " ".join(f"word{i}" for i in range(40))
    code = f"```go\n{long}\n```\n"
    edited_cr(world, desk, "Long code", EDITED + code)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        review = await open_review(app, pilot, "Long code")
        rows = review.diff.all_text()
        first = next(i for i, row in enumerate(rows) if "x := word0" in row)
        assert "│ x := word0" in rows[first]
        assert "word39" not in rows[first]
        assert f"│{CONTINUATION}" in rows[first + 1]


async def test_changed_words_restyle_on_theme_change_and_stay_readable(world, desk, tmp_path):
    """QA #22: switching theme with a diff open kept the old theme's word colours (1.1-1.4:1)."""
    from textual.color import Color

    from gitbook_tui.tui.common.contrast import TEXT_CONTRAST, contrast

    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        diff = review.diff

        def word_cells() -> list:
            cells = []
            for y in range(diff.size.height):
                for segment in diff.render_line(y):
                    style = segment.style
                    if segment.text.strip() == "50" and style and style.bgcolor:
                        cells.append(style)
            return cells

        for theme in ("textual-light", "textual-dark", "solarized-light"):
            app.theme = theme
            await pilot.pause()
            cells = word_cells()
            assert cells, theme
            want = Color.parse(app.theme_variables["success-muted"])
            for style in cells:
                bg = Color(*style.bgcolor.triplet)
                assert bg == want, theme
                fg = Color(*style.color.triplet)
                assert contrast(fg, bg) >= TEXT_CONTRAST, theme


async def test_page_and_change_keys_say_when_at_an_end(world, desk, tmp_path):
    """QA #26: J on the last page, K on the first said nothing."""
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        review = await open_review(app, pilot, "Update partition sizing")
        app.clear_notifications()
        await pilot.press("K")
        await until(pilot, lambda: bool(app._notifications))
        assert "page" in next(iter(app._notifications)).message
        app.clear_notifications()
        for _ in range(len(review.pages.changes)):
            await pilot.press("J")
        await until(pilot, lambda: bool(app._notifications))
        assert "page" in list(app._notifications)[-1].message


async def test_diff_has_the_pager_keys(world, desk, tmp_path):
    """QA #6 (diff): ctrl+f / ctrl+b did nothing in the diff."""

    long = "\n\n".join(f"Paragraph {i} of a long page." for i in range(80))
    edited_cr(world, desk, "Long page", EDITED + long)
    app = make_app(world, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        review = await open_review(app, pilot, "Long page")
        diff = review.diff
        # the diff is shown a part at a time: the keys are for the whole of it, laid out
        await until(pilot, lambda: not diff.partial and diff.max_scroll_y > 20, "the whole diff")
        top = "at the top"
        await pilot.press("g")
        await until(pilot, lambda: diff.scroll_offset.y == 0, top)
        await pilot.press("ctrl+f")
        await until(pilot, lambda: diff.scroll_offset.y > 1, "a page down")
        page = diff.scroll_offset.y
        await pilot.press("ctrl+b")
        await until(pilot, lambda: diff.scroll_offset.y == 0, top)
        await pilot.press("ctrl+d")
        await until(pilot, lambda: 0 < diff.scroll_offset.y < page, "half a page down")
        await pilot.press("ctrl+u")
        await until(pilot, lambda: diff.scroll_offset.y == 0, top)


async def test_a_failed_send_error_wraps_at_80_columns(world, desk, tmp_path, monkeypatch):
    """QA pass 2 #6: at 80x24 the failed-send error was cut mid-sentence, without "…"."""
    from gitbook_tui.api.change_requests import ChangeRequests
    from gitbook_tui.api.errors import APIConnectionError
    from gitbook_tui.tui.review.review_message_screen import ReviewMessageScreen

    async def down(self, *args, **kwargs):
        raise APIConnectionError("POST", "/spaces/x/change-requests/y/reviews-end-of-message")

    app = make_app(world, tmp_path, who="rita")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_review(app, pilot, "Update partition sizing")
        monkeypatch.setattr(ChangeRequests, "submit_review", down)
        await pilot.press("V")
        dialog = await until_screen(pilot, ReviewMessageScreen)
        await pilot.press(*"split", "ctrl+s")
        await until(pilot, lambda: "Could not reach" in (dialog.composer.error or ""))
        await pilot.pause()
        status = dialog.query_one("#composer-status")
        assert status.region.height >= 2  # wrapped, not cut on one row
        shot = app.export_screenshot().replace("&#160;", " ")
        assert "end-of-message" in shot  # the whole message is on screen
        assert dialog.composer.text == "split"
