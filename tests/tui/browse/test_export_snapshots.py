"""Snapshots (80×24) of the HTML GitBook's editor writes: a table with rich cells, a card
table and ``<pre>`` code, taken from the GitBook-export fixture corpus.

Regenerate after a deliberate change with ``python -m pytest tests/tui/browse/test_export_snapshots.py
--snapshot-update`` and review the SVGs in ``__snapshots__/test_export_snapshots/``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from gitbook_tui.markdown import parse
from gitbook_tui.tui.browse.page_viewer import PageViewer

EXPORT = Path(__file__).resolve().parents[2] / "fixtures" / "gitbook-export"
TITLES = {
    "guides/quickstart.md": "Quickstart",
    "guides/configuration.md": "Configuration",
    "errors/error_001.md": "ERROR_001",
}


def _html_block(path: str, start: str) -> str:
    """The one-line HTML block of a fixture page starting with ``start``."""
    text = (EXPORT / path).read_text("utf-8")
    if start == "<pre":
        match = re.search(r"<pre[\s\S]*?</pre>", text)
        assert match is not None
        return match.group()
    return next(line for line in text.splitlines() if line.startswith(start))


class ViewerApp(App[None]):
    CSS = "PageViewer { height: 1fr; }"

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        yield PageViewer()

    def on_mount(self) -> None:
        viewer = self.query_one(PageViewer)
        viewer.show(parse(self.markdown), titles=TITLES.get)
        viewer.focus()


async def _painted(pilot: Pilot[None]) -> None:
    viewer = pilot.app.query_one(PageViewer)
    for _ in range(50):
        if viewer.has_painted:
            break
        await pilot.pause()
    await pilot.pause()


CASES = {
    "html-table": ("guides/configuration.md", "<table>"),
    "card-table": ("README.md", '<table data-view="cards">'),
    "pre-code": ("guides/configuration.md", "<pre"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_export_block(snap_compare: Callable[..., bool], case: str) -> None:
    path, start = CASES[case]
    markdown = f"## {case}\n\n" + _html_block(path, start)
    assert snap_compare(ViewerApp(markdown), terminal_size=(80, 24), run_before=_painted)
