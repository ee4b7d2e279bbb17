"""AppNavigation: the app's side of navigation — ``navigate(intent)`` routed by the registry,
the numbered views (one Textual mode each), back/forward, and the modal screens (help,
search, outline), each imported when first shown."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on
from textual.app import App
from textual.screen import ModalScreen, Screen

from ..api import AsyncGitBook
from .browse.browser_screen import BrowserScreen
from .browse.feature import browser_of
from .common.intents import (
    Intent,
    OpenPage,
    OpenSpace,
    PickOrganization,
    RefreshSpace,
    SearchServer,
    ShowView,
)
from .common.registry import REGISTRY
from .common.session_info import SessionInfo
from .views import BROWSE, view_named

if TYPE_CHECKING:
    from .search.search_screen import SearchResult

__all__ = ["AppNavigation"]


class AppNavigation(App[str | None]):
    """Navigation for :class:`~.app.GitBookApp` (which sets the state below).

    Every numbered view is a mode (:mod:`.views`): switching views switches stacks, so a
    review pane or a site editor is where it was when its view is shown again."""

    DEFAULT_MODE: ClassVar[str] = BROWSE

    client: AsyncGitBook
    session: SessionInfo
    organization_id: str | None
    space_id: str | None

    def __init__(self) -> None:
        super().__init__()
        self._view_scope = ""
        self._view_modes: set[str] = set()
        """The views added as modes (each when first shown)."""

    @on(events.Mount)
    def _add_browse_mode(self) -> None:
        # Browse's stack starts on Textual's default screen (the start screens and the browser
        # go over it), and Browse becomes a mode (to switch back to) only now that it has that
        # stack: a mode known at start has its first screen made by Textual's mode path, which
        # re-parses every stylesheet of the app once more (tens of ms of a start's CPU).
        self.add_mode(BROWSE, Screen)

    async def reset_views(self) -> None:
        """Forget every view's screens but Browse's (another organization): each is built
        afresh when next shown."""
        for name in self._view_modes:
            await self.remove_mode(name)
        self._view_modes.clear()

    def _apply_scope(self, screen: Screen[Any]) -> None:
        set_scope = getattr(screen, "set_scope", None)
        if callable(set_scope):
            set_scope(self._view_scope)

    @property
    def browser(self) -> BrowserScreen | None:
        return browser_of(self)

    # -- navigation: one entry, routed by the registry ----------------------------------------
    def navigate(self, intent: Intent) -> None:
        """Go where ``intent`` says, once the current message is handled (the Navigator
        protocol): see :meth:`route`."""
        self.call_later(self.route, intent)

    async def route(self, intent: Intent) -> None:
        """The app's own intents (``ShowView``, ``PickOrganization``) it handles; any other
        goes to the feature registered for it, after its view is shown (a feature's
        screens land in its own view)."""
        if isinstance(intent, ShowView):
            await self.action_show_view(intent.name, intent.scope)
            return
        if isinstance(intent, PickOrganization):
            self.action_switch_org()
            return
        if isinstance(intent, SearchServer):
            self.action_search(intent.query)
            return
        route = REGISTRY.route(intent)
        if route is None:
            self.log.warning(f"no feature handles {intent!r}")
            return
        if route.view is not None:
            await self.action_show_view(route.view)
            if self.current_mode != route.view:
                return  # the view could not be shown (no browser yet)
        result = route.handler(self, intent)
        if inspect.isawaitable(result):
            await result

    def open_page(self, space_id: str, page_id: str, anchor: str | None = None) -> None:
        """Open a page in the browser and show Browse (``navigate(OpenPage(…))``)."""
        self.navigate(OpenPage(space_id, page_id, anchor))

    def open_space(self, space_id: str) -> None:
        self.navigate(OpenSpace(space_id))

    def refresh_space(self, space_id: str) -> None:
        """Reload a space's pages in the browser from the server (after a merge)."""
        self.navigate(RefreshSpace(space_id))

    def action_switch_org(self) -> None:
        """Choose another organization (:class:`~.app.GitBookApp` shows the picker)."""

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
        """Show the numbered view ``name`` (see :mod:`.views`) as it was left: its whole
        stack, e.g. the review pane over the inbox; ``scope`` (e.g. ``"page"``; ``""`` the
        view's default) goes to a view's first screen that has ``set_scope``."""
        view = view_named(name)
        if view is None or self.browser is None:
            return
        while len(self.screen_stack) > 1 and isinstance(self.screen, ModalScreen):
            await self.pop_screen()  # dialogs (help, search, palette) close; views stay
        page = self.browser.current_page
        if scope == "page" and page is not None:  # the open page's space, whatever tree row
            self.space_id = page[0]
        self._view_scope = scope
        first = view.factory is not None and view.name not in self._view_modes
        if first:  # its stack starts blank (Textual resumes a mode's first screen twice)
            self.add_mode(view.name, Screen)
            self._view_modes.add(view.name)
        else:  # (applied when it resumes, or at once when shown already)
            self._apply_scope(self._view_root(view.name))
        if view.name != self.current_mode:
            await self.switch_mode(view.name)
        if first and view.factory is not None:
            root = view.factory(self)
            self._apply_scope(root)
            await self.push_screen(root)

    def _view_root(self, name: str) -> Screen[Any]:
        """A view's own first screen (over its blank base; Browse: the blank base)."""
        stack = self.get_screen_stack(name)
        return stack[1] if name != BROWSE and len(stack) > 1 else stack[0]

    # -- modal screens ------------------------------------------------------------------------------
    def action_help(self) -> None:
        from .common.help_screen import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_search(self, query: str = "") -> None:
        from .search.search_screen import SearchScreen

        if self.browser is None or isinstance(self.screen, SearchScreen):
            return
        self.push_screen(SearchScreen(query), self._search_chosen)

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
        from .browse.outline_screen import OutlineScreen

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
