"""SpaceListScreen: the spaces of the first organization, as a first view of a workspace."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from ...api import AsyncGitBook, GitBookError
from ..text import inert


class SpaceListScreen(Screen[None]):
    """Lists every space the token can see in its first organization."""

    BINDINGS = [Binding("r", "reload", "Reload", id="space_list.reload")]

    def __init__(self, client: AsyncGitBook) -> None:
        super().__init__()
        self.client = client

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Loading…", id="space-list-title", markup=False)
        yield OptionList(id="space-list")
        yield Footer()

    def on_mount(self) -> None:
        self.load_spaces()

    def action_reload(self) -> None:
        self.load_spaces()

    @work(exclusive=True, exit_on_error=False)
    async def load_spaces(self) -> None:
        title = self.query_one("#space-list-title", Static)
        options = self.query_one("#space-list", OptionList)
        try:
            orgs = await self.client.orgs.list()
            if not orgs.items:
                title.update("This token belongs to no organization.")
                return
            org = orgs.items[0]
            title.update(inert(f"{org.title} — spaces"))
            from ...api.pagination import AsyncPager
            from ...models import Space

            pager: AsyncPager[Space] = AsyncPager(self.client, f"/orgs/{org.id}/spaces", Space)
            spaces = [s async for s in pager]
        except GitBookError as exc:
            self.notify(inert(str(exc)), title="Could not load spaces", severity="error")
            return
        options.clear_options()
        options.add_options([Option(inert(f"{s.emoji or '•'} {s.title}"), id=s.id) for s in spaces])
