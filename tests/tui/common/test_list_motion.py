"""The kit's list motion keys: every list and table moves its cursor with j/k, ctrl+d/u,
ctrl+f/b, g/G and home/end, and stops at the edges."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import OptionList

from gitbook_tui.tui.common.pager import PagerDataTable, PagerOptionList
from gitbook_tui.tui.sites.redirects_pane import RedirectsTable
from gitbook_tui.tui.sites.sites_screen import SitesTable
from gitbook_tui.tui.sites.structure_pane import StructureList
from support.waits import until

ROWS = 100


class _Lists(App[None]):
    def __init__(self, widget: Any) -> None:
        super().__init__()
        self.widget = widget

    def compose(self) -> ComposeResult:
        yield self.widget

    def on_mount(self) -> None:
        if isinstance(self.widget, OptionList):
            self.widget.add_options([f"row {n}" for n in range(ROWS)])
        else:
            self.widget.add_column("row")
            self.widget.add_rows([[f"row {n}"] for n in range(ROWS)])
        self.widget.focus()


def _cursor(widget: Any) -> int:
    return widget.highlighted if isinstance(widget, OptionList) else widget.cursor_row


@pytest.mark.parametrize(
    "make",
    [
        lambda: PagerOptionList(),
        lambda: PagerDataTable(cursor_type="row"),
        lambda: SitesTable(cursor_type="row"),
        lambda: RedirectsTable(cursor_type="row"),
    ],
    ids=["option-list", "table", "sites", "redirects"],
)
async def test_every_list_moves_with_the_kit_keys(make: Any) -> None:
    app = _Lists(make())
    async with app.run_test(size=(40, 12)) as pilot:
        widget = app.widget
        if isinstance(widget, OptionList):
            widget.highlighted = 0
        await until(pilot, lambda: _cursor(widget) == 0, "the cursor on the first row")
        seen = []
        for key in ("j", "j", "k", "ctrl+d", "ctrl+f", "ctrl+u", "ctrl+b", "G", "j", "g", "k"):
            await pilot.press(key)
            seen.append(_cursor(widget))
        half = max(1, (seen[3] - seen[2]))
        page = seen[4] - seen[3]
        assert seen[:3] == [1, 2, 1]
        assert page >= half >= 1 and page > 1  # a page is a screenful, half is half of it
        assert seen[5] == seen[4] - half and seen[6] == seen[5] - page
        assert seen[7:] == [ROWS - 1, ROWS - 1, 0, 0]  # ends, and nothing past the edges


def test_list_keys_leave_the_action_letters_to_the_views() -> None:
    """``d`` deletes and ``space`` grabs in lists: only readers page with those letters."""
    for cls in (PagerOptionList, PagerDataTable, SitesTable, RedirectsTable, StructureList):
        keys = set(cls._merge_bindings().key_to_bindings)
        assert {"ctrl+d", "ctrl+u", "ctrl+f", "ctrl+b", "g", "G"} <= keys, cls
        assert not keys & {"d", "u", "space", "b"}, cls
