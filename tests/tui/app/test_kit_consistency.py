"""The kit's gestures, walked through every registered view on the demo workspace: the same
key does the same thing in each view's first screen — ``?`` explains that screen, ``/``
filters and ``escape`` clears the filter and gives the focus back to the list, ``g``/``G``
and ``ctrl+d`` move the list's cursor, the pane switch never sends the focus nowhere, and
each view key shows its view."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from textual.widgets import DataTable, Input, OptionList, Tree

from gitbook_tui.tui.common.help_screen import HelpScreen
from gitbook_tui.tui.common.registry import REGISTRY
from gitbook_tui.tui.common.status_bar import StatusBar
from support.demo_tui import demo_gitbook_app
from support.waits import until, until_screen, workers_done
from support.worlds import Template
from support.worlds import demo_app as demo_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory, demo_template: Template) -> Iterator[FastAPI]:
    yield demo_server(demo_template, tmp_path_factory.mktemp("demo") / "demo.sqlite")


def _cursor(widget: Any) -> int | None:
    if isinstance(widget, OptionList):
        return widget.highlighted
    if isinstance(widget, DataTable):
        return widget.cursor_row if widget.row_count else None
    if isinstance(widget, Tree):
        return widget.cursor_line
    return None


def _rows(widget: Any) -> int:
    if isinstance(widget, OptionList):
        return widget.option_count
    if isinstance(widget, DataTable):
        return widget.row_count
    if isinstance(widget, Tree):
        return widget.last_line + 1
    return 0


async def test_every_view_answers_the_shared_gestures_alike(demo: FastAPI, tmp_path: Path) -> None:
    """(Over 5 s: it starts the demo app and opens every view, each loading from the
    server, then presses the gestures in each.)"""
    app = demo_gitbook_app(demo, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.browser is not None, "the browser", timeout=30)
        for view in REGISTRY.views:
            await pilot.press(view.key)
            await until(pilot, lambda v=view: app.current_mode == v.name, f"{view.key} shows it")
            await until(pilot, lambda: bool(app.screen.query(StatusBar)), f"{view.name} drawn")
            await until(pilot, lambda: workers_done(app), f"{view.name} loaded", timeout=30)
            screen = app.screen
            assert screen.query_one(StatusBar).view == view.name
            listing = app.focused
            assert listing is not None, f"{view.name}: the focus is nowhere"

            # ? explains this screen; escape comes back to it
            await pilot.press("question_mark")
            helper = await until_screen(pilot, HelpScreen)
            assert helper.listed_screen is screen, view.name
            await pilot.press("escape")
            await until(pilot, lambda s=screen: app.screen is s, f"{view.name} again")

            # the list's motion keys
            if _rows(listing) >= 3:
                await pilot.press("G")
                last = _cursor(listing)
                await pilot.press("g")
                first = _cursor(listing)
                assert first is not None and last is not None and last > first, view.name
                await pilot.press("ctrl+d")
                assert (_cursor(listing) or 0) > first, f"{view.name}: ctrl+d"
                await pilot.press("g")

            # / filters (typing is text), escape clears it and gives the list the focus back
            await pilot.press("slash")
            await until(pilot, lambda: isinstance(app.focused, Input), f"{view.name}: / filters")
            box = app.focused
            assert isinstance(box, Input)
            await pilot.press("q", "z")
            assert app.is_running and box.value.endswith("qz"), view.name
            await pilot.press("escape")
            await until(pilot, lambda b=box: not b.value, f"{view.name}: escape clears")
            await until(pilot, lambda was=listing: app.focused is was, f"{view.name}: focus back")

            # the pane switch moves the focus somewhere, never nowhere
            await pilot.press("w")
            assert app.focused is not None, f"{view.name}: w sent the focus nowhere"
