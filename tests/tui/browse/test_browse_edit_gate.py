"""The browse view's ``e`` (suggest an edit) is dimmed in advance where the caller may not
edit — a reader, or a locked space — and says why when pressed; an editor sees it as usual."""

from __future__ import annotations

from typing import Any

import pytest

from gitbook_tui.tui.browse.page_viewer import PageViewer
from gitbook_tui.tui.common.hint_footer import HintFooter
from support.edit_rights import REFUSALS, app_as
from support.notes import notes_of
from support.review_world import editor, open_page
from support.waits import until


def footer_keys(screen: Any) -> dict[str, bool]:
    """Each key the footer shows → whether it is dimmed."""
    footer = screen.query_one(HintFooter)
    return {k.key: k.has_class("-disabled") for k in footer.children if hasattr(k, "key")}


@pytest.mark.parametrize(
    ("who", "why"),
    [
        ("rhea", REFUSALS["rhea"]),  # a reader
        ("locked", REFUSALS["locked"]),  # alice (admin) on a locked space
        ("alice", None),  # may edit
    ],
)
async def test_e_is_dimmed_in_advance_where_the_caller_may_not_edit(
    world, desk, tmp_path, monkeypatch, who, why
):
    seen = editor(tmp_path, monkeypatch, "true")
    app = app_as(world, tmp_path, desk, who)
    notes = notes_of(app)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await open_page(app, pilot, desk["space"]["id"], desk["page"])
        viewer = browser.query_one(PageViewer)
        viewer.focus()
        await until(pilot, lambda: viewer.has_focus)
        try:
            await until(pilot, lambda: "e" in footer_keys(browser), timeout=20)
        except AssertionError:
            raise AssertionError(f"footer: {footer_keys(browser)}") from None
        if why is None:
            assert footer_keys(browser)["e"] is False
            assert browser.denial_reason("suggest_edit") is None
            return
        await until(pilot, lambda: footer_keys(browser)["e"] is True)
        reason = browser.denial_reason("suggest_edit")
        assert reason is not None and why in reason
        await pilot.press("e")
        await until(pilot, lambda: any(why in n for n in notes))
        await pilot.pause()
        assert app.screen is browser  # nothing opened
    assert not seen.exists()
