"""AppNavigation: the app's side of navigation — the Navigator protocol (open a page or a
space, back/forward), the numbered views, and the modal screens (help, search, outline)."""

from __future__ import annotations

from textual.app import App

from ..api import AsyncGitBook
from .browse.browser_screen import BrowserScreen
from .browse.outline_screen import OutlineScreen
from .browse.tree.workspace_tree import space_key
from .common.help_screen import HelpScreen
from .search.search_screen import SearchResult, SearchScreen
from .views import view_named

__all__ = ["AppNavigation"]


class AppNavigation(App[str | None]):
    """Navigation for :class:`~.app.GitBookApp` (which sets the state below)."""

    client: AsyncGitBook
    organization_id: str | None
    space_id: str | None

    @property
    def browser(self) -> BrowserScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, BrowserScreen):
                return screen
        return None

    # -- navigation (the Navigator protocol) ----------------------------------------------------
    def open_page(self, space_id: str, page_id: str, anchor: str | None = None) -> None:
        browser = self.browser
        if browser is not None:
            browser.open_page(space_id, page_id, anchor)

    def open_space(self, space_id: str) -> None:
        browser = self.browser
        if browser is not None:
            browser.open_space(space_id)

    def refresh_space(self, space_id: str) -> None:
        """Reload a space's pages in the browser from the server (after a merge)."""
        browser = self.browser
        if browser is not None:
            browser.workspace_tree.load(space_key(space_id), read="network")

    async def action_back(self) -> None:
        # (overrides Textual's async App.action_back: the browser's page history instead)
        if self.browser is not None:
            self.browser.action_back()

    def action_forward(self) -> None:
        if self.browser is not None:
            self.browser.action_forward()

    def action_toggle_hidden(self) -> None:
        if self.browser is not None:
            self.browser.workspace_tree.action_toggle_hidden()

    @property
    def page_id(self) -> str | None:
        """The page open in the browser, if any."""
        browser = self.browser
        current = browser.current_page if browser is not None else None
        return current[1] if current is not None else None

    # -- views ----------------------------------------------------------------------------------
    async def action_show_view(self, name: str, scope: str = "") -> None:
        """Show the numbered view ``name`` (see :mod:`.views`) over the browser; ``scope``
        (e.g. ``"page"``; ``""`` the view's default) goes to a view that has ``set_scope``."""
        view = view_named(name)
        browser = self.browser
        if view is None or browser is None:
            return
        while self.screen is not browser:  # leave modal screens and the view shown now
            await self.pop_screen()
        if view.factory is None:
            return
        screen_name = f"view-{view.name}"
        if not self.is_screen_installed(screen_name):
            self.install_screen(view.factory(self), screen_name)
        set_scope = getattr(self.get_screen(screen_name), "set_scope", None)
        if callable(set_scope):
            set_scope(scope)
        await self.push_screen(screen_name)

    # -- modal screens ------------------------------------------------------------------------------
    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_search(self) -> None:
        if self.browser is None or isinstance(self.screen, SearchScreen):
            return
        self.push_screen(
            SearchScreen(scope="space" if self.space_id else "org"), self._search_chosen
        )

    def _search_chosen(self, result: SearchResult | None) -> None:
        if result is not None:
            self.open_page(result.space_id, result.page_id, result.anchor)

    def action_outline(self) -> None:
        browser = self.browser
        if browser is None or browser.page is None:
            self.notify("Open a page to see its outline.", timeout=3)
            return
        headings = browser.viewer.headings()
        if not headings:
            self.notify("This page has no headings.", timeout=3)
            return
        current = browser.viewer.current_heading()
        self.push_screen(OutlineScreen(headings, current=current), self._outline_chosen)

    def _outline_chosen(self, anchor: str | None) -> None:
        if anchor is not None and self.browser is not None:
            self.browser.viewer.scroll_to_anchor(anchor)

    def action_reload(self) -> None:
        """Reload the open page from the server (the tree reloads a node with r)."""
        browser = self.browser
        if browser is not None and browser.current_page is not None:
            space_id, page_id = browser.current_page
            browser.open_page(space_id, page_id, record=False)
