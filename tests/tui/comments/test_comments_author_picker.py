"""The author picker (``F``): its list moves with the kit's list keys, enter picks, escape
cancels."""

from __future__ import annotations

from textual.app import App

from gitbook_tui.models import User
from gitbook_tui.tui.comments.author_picker import ANYONE, AuthorPicker
from gitbook_tui.tui.common.pager import PagerOptionList
from support.waits import until, until_screen

USERS = [User(id=f"u{n}", displayName=f"Commenter {n}") for n in range(40)]


class _Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.results: list[str | None] = []

    def on_mount(self) -> None:
        self.push_screen(AuthorPicker(USERS, "u5"), self.results.append)


async def test_the_author_list_moves_with_the_kit_keys() -> None:
    """#21: ``g`` was ignored (only j/k were bound); every list key moves the cursor, and
    it stops at the edges."""
    app = _Host()
    async with app.run_test(size=(80, 30)) as pilot:
        picker = await until_screen(pilot, AuthorPicker)
        options = picker.query_one("#author-options", PagerOptionList)
        assert options.highlighted == 6  # anyone, then u0…: on the current author
        rows = options.scrollable_content_region.height
        for key, row in (
            ("g", 0),
            ("k", 0),  # at the top: nothing moves
            ("j", 1),
            ("ctrl+d", 1 + rows // 2),
            ("ctrl+u", 1),
            ("ctrl+f", 1 + rows),
            ("ctrl+b", 1),
            ("G", 40),
            ("j", 40),  # at the bottom: nothing moves (no wrap)
            ("home", 0),
            ("end", 40),
        ):
            await pilot.press(key)
            await until(pilot, lambda row=row: options.highlighted == row, f"{key}: row {row}")  # type: ignore[misc]
        await pilot.press("g", "enter")
        await until(pilot, lambda: app.results == [ANYONE])


async def test_enter_picks_the_author_and_escape_cancels() -> None:
    app = _Host()
    async with app.run_test(size=(80, 30)) as pilot:
        await until_screen(pilot, AuthorPicker)
        await pilot.press("j", "enter")
        await until(pilot, lambda: app.results == ["u6"])
        app.push_screen(AuthorPicker(USERS, None), app.results.append)
        await until_screen(pilot, AuthorPicker)
        await pilot.press("escape")
        await until(pilot, lambda: app.results == ["u6", None])
