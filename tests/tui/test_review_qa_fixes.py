"""Review desk fixes for the QA findings (numbers refer to the QA report): each test
reproduces one finding."""

from __future__ import annotations

from review_world import desk, make_app, open_inbox

from gitbook_tui.tui.review.review_inbox_screen import ReviewInboxScreen

__all__ = ["desk"]  # the fixture, used by name


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
