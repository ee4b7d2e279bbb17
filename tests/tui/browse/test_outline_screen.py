"""OutlineScreen: indented headings, type-to-filter, enter dismisses with the anchor."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from textual.app import App
from textual.widgets import Input, OptionList, Static

from gitbook_tui.tui.browse.outline_screen import OutlineScreen

SIZE = (100, 30)

HEADINGS = [
    (1, "Install", "install"),
    (2, "Linux", "linux"),
    (3, "Debian packages", "debian-packages"),
    (2, "macOS", "macos"),
    (3, "Homebrew", "homebrew"),
    (2, "Windows", "windows"),
]


def shown(app: App[Any]) -> list[str]:
    listing = app.screen.query_one("#outline-list", OptionList)
    return [listing.get_option_at_index(i).prompt.plain for i in range(listing.option_count)]  # type: ignore[union-attr]


@asynccontextmanager
async def outline_open(
    headings: Any = HEADINGS,
) -> AsyncIterator[tuple[App[None], Any, list[str | None]]]:
    """Run a bare app with the outline of ``headings`` pushed; yield (app, pilot, the
    anchors it was dismissed with)."""
    app: App[None] = App()
    chosen: list[str | None] = []
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(OutlineScreen(headings), chosen.append)
        await pilot.pause()
        yield app, pilot, chosen


async def test_indented_by_level() -> None:
    async with outline_open() as (app, _, _):
        assert shown(app) == [
            "Install",
            "  Linux",
            "    Debian packages",
            "  macOS",
            "    Homebrew",
            "  Windows",
        ]
        assert isinstance(app.focused, Input)


async def test_filter_then_enter() -> None:
    async with outline_open() as (app, pilot, chosen):
        await pilot.press(*"brew")
        await pilot.pause()
        assert shown(app) == ["    Homebrew"]
        await pilot.press("enter")
        await pilot.pause()
    assert chosen == ["homebrew"]


async def test_arrows_move_while_typing() -> None:
    async with outline_open() as (app, pilot, chosen):
        await pilot.press(*"n")  # Install, Linux, Debian packages, Windows
        await pilot.pause()
        assert [line.strip() for line in shown(app)] == [
            "Install",
            "Linux",
            "Debian packages",
            "Windows",
        ]
        await pilot.press("down", "down", "up", "down", "enter")
        await pilot.pause()
    assert chosen == ["debian-packages"]


async def test_enter_on_list_and_no_match() -> None:
    async with outline_open() as (app, pilot, chosen):
        await pilot.press(*"zzz")
        await pilot.pause()
        assert shown(app) == []
        status = str(app.screen.query_one("#outline-status", Static).content)
        assert status == "No headings match “zzz”"
        await pilot.press("enter")  # nothing to pick: stays open
        await pilot.pause()
        assert isinstance(app.screen, OutlineScreen)
        await pilot.press("backspace", "backspace", "backspace", "tab")
        await pilot.pause()
        assert isinstance(app.focused, OptionList)
        await pilot.press("end", "enter")
        await pilot.pause()
    assert chosen == ["windows"]


async def test_escape_and_empty_outline() -> None:
    async with outline_open([]) as (app, pilot, chosen):
        status = str(app.screen.query_one("#outline-status", Static).content)
        assert status == "This page has no headings."
        await pilot.press("enter", "escape")
        await pilot.pause()
    assert chosen == [None]


async def test_hostile_headings_are_literal() -> None:
    hostile = [(2, "[@click=app.quit]Boom[/] \x1b[31mRed\u202eevil", "boom")]
    async with outline_open(hostile) as (app, pilot, chosen):
        assert shown(app) == ["[@click=app.quit]Boom[/] Redevil"]
        await pilot.press(*"click")
        await pilot.pause()
        assert shown(app) == ["[@click=app.quit]Boom[/] Redevil"]
        listing = app.screen.query_one("#outline-list", OptionList)
        await pilot.click(listing, offset=(4, 1))
        await pilot.pause()
        assert app.is_running
    assert chosen == ["boom"]
