"""A bare Textual app that plays the navigator (the ``Navigator`` protocol the palette and
the search screen talk to): it records where it was asked to go instead of going there."""

from __future__ import annotations

from textual.app import App

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.common.intents import Intent, OpenPage, OpenSpace
from gitbook_tui.tui.common.session_info import SessionInfo
from support.worlds import World

HOSTILE = "[@click=app.quit]Boom[/] \x1b[31mRed\u202eevil"
"""A title with markup, an action link, an escape and a bidi control: shown literally."""


def page_id(world: World, space: str, title: str) -> str:
    """The id of the top-level page ``title`` of ``space``."""
    pages = world.client("alice").get(f"/spaces/{space}/content/pages").json()["pages"]
    return next(p["id"] for p in pages if p["title"] == title)


class RecordingNavigator(App[None]):
    """A minimal Navigator app: the pages and spaces it was asked to open, in order."""

    def __init__(self, client: AsyncGitBook, org: str | None, space: str | None) -> None:
        super().__init__()
        self.client = client
        self.organization_id = org
        self.space_id = space
        self.page_id: str | None = None  # (the Navigator protocol asks for it)
        self.session = SessionInfo()
        self.pages: list[tuple[str, str, str | None]] = []
        self.spaces: list[str] = []

    def open_page(self, space_id: str, page_id: str, anchor: str | None = None) -> None:
        self.pages.append((space_id, page_id, anchor))

    def open_space(self, space_id: str) -> None:
        self.spaces.append(space_id)

    def navigate(self, intent: Intent) -> None:
        if isinstance(intent, OpenPage):
            self.open_page(intent.space_id, intent.page_id, intent.anchor)
        elif isinstance(intent, OpenSpace):
            self.open_space(intent.space_id)
