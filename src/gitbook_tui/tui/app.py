"""GitBookApp: the Textual application (thin: screens do the work).

Start: without a token the :class:`WelcomeScreen` (sign in, or ask for the demo: the app
then exits with :data:`RESULT_DEMO` and ``cli.run_app`` restarts on the demo server). With
a token: the remembered organization (or the only one) opens in the :class:`BrowserScreen`
at once — from the cache, no request before the first frame — otherwise the
:class:`OrgPickerScreen` lists the organizations.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import httpx
from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.theme import Theme

from ..api import AsyncGitBook, GitBookError
from ..models import Organization
from .account.org_picker_screen import OrgPickerScreen
from .account.starting_screen import StartingScreen
from .account.welcome_screen import WelcomeScreen
from .browse.browser_screen import BrowserScreen
from .browse.outline_screen import OutlineScreen
from .common.config import TuiConfig, load_tui_config, save_theme
from .common.error_banner import ErrorBanner
from .common.help_screen import HelpScreen
from .common.keymap import unknown_keymap_ids
from .common.palette import AppCommands, PageCommands, SpaceCommands
from .common.state import StartTarget, StateStore, account_key
from .common.text import plain
from .search.search_screen import SearchResult, SearchScreen
from .views import VIEWS, view_named

__all__ = ["RESULT_DEMO", "GitBookApp"]

DEMO_ACCOUNT = "demo"
"""The state key of the bundled demo: one demo, whichever port its server got."""

RESULT_DEMO = "demo"
"""Exit result asking ``run_app`` to restart on the bundled demo workspace."""


class GitBookApp(App[str | None]):
    """The gitbook-tui application."""

    CSS_PATH = "app.tcss"
    TITLE = "gitbook-tui"
    COMMANDS = App.COMMANDS | {PageCommands, SpaceCommands, AppCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("question_mark,f1", "help", "Help", id="app.help"),
        Binding("s", "search", "Search", id="app.search"),
        Binding("t", "outline", "Outline", id="app.outline"),
        Binding("R", "reload", "Reload", show=False, id="app.reload"),
        Binding("ctrl+z", "suspend_process", "Suspend", show=False, id="app.suspend"),
        *(
            Binding(view.key, f"show_view('{view.name}')", view.title, id=f"app.view.{view.name}")
            for view in VIEWS
        ),
    ]

    def __init__(
        self,
        client: AsyncGitBook,
        *,
        demo: bool = False,
        config: TuiConfig | None = None,
        start: StartTarget | None = None,
        state_store: StateStore | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        starting: Callable[[], bool] | None = None,
    ) -> None:
        """``starting``: the server is still starting (the bundled demo): polled, True
        once it serves; a progress screen shows meanwhile."""
        super().__init__()
        self.starting = starting
        self.client = client
        self.demo = demo
        self.config = config if config is not None else load_tui_config()
        self.start_target = start
        self.state_store = state_store or StateStore()
        self.transport = transport  # used for the welcome screen's client (tests, demo)
        # what the Navigator protocol exposes to modal screens and palette providers
        self.organization_id: str | None = None
        self.space_id: str | None = None

    # -- start ----------------------------------------------------------------------------------
    async def on_mount(self) -> None:
        config = self.config
        if config.theme:
            if config.theme in self.available_themes:
                self.theme = config.theme
            else:
                config.problems.append(f"ui.theme: no theme named {config.theme!r}")
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        if config.keymap:
            self.set_keymap(config.keymap)
            unknown = unknown_keymap_ids(config.keymap)
            if unknown:
                ids = ", ".join(unknown)
                config.problems.append(f"[keymap]: no binding has the id {ids} (see ? for ids)")
        if config.problems:
            self.notify(
                plain("; ".join(config.problems)),
                title="config.toml",
                severity="warning",
                markup=False,
            )
        starting = self.starting
        if starting is not None and not self._started(starting):
            message = "Preparing the demo workspace (the first run seeds it: a few seconds)…"
            await self.push_screen(StartingScreen(starting, message), self._server_ready)
            return
        await self._open()

    @staticmethod
    def _started(starting: Callable[[], bool]) -> bool:
        try:
            return starting()
        except Exception:
            return False  # (the starting screen shows why)

    def _server_ready(self, _ready: bool | None) -> None:
        # once the starting screen is gone: the browser is then pushed on a settled stack
        self.call_later(self._open)

    async def _open(self) -> None:
        """The welcome screen without a token, else the browser (see :meth:`_begin`)."""
        if not self.client.has_token:
            await self.push_screen(
                WelcomeScreen(
                    self.client.base_url, transport=self.transport, demo_available=not self.demo
                )
            )
            return
        await self._begin()

    def _theme_changed(self, theme: Theme) -> None:
        """A theme chosen (palette: Theme) is kept in config.toml's ``[ui] theme``."""
        if theme.name == self.config.theme:
            return
        self.config.theme = theme.name
        if not save_theme(theme.name, self.config.path):
            self.notify(
                "The theme could not be saved: config.toml is unreadable.",
                severity="warning",
                timeout=5,
            )

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """None of Textual's own palette entries: the app's (common.palette.AppCommands)
        offer quit, help and the theme, once each."""
        return ()

    def action_change_theme(self) -> None:
        """The theme picker (the choice is kept in config.toml)."""
        super().action_change_theme()

    @property
    def account(self) -> str:
        """Whose state is remembered: the account, or the demo (whatever port it got)."""
        return DEMO_ACCOUNT if self.demo else account_key(self.client)

    async def _begin(self) -> None:
        """Open the browser right away when the organization is known (from the cache or
        the remembered state), else decide once the organizations are loaded."""
        state = self.state_store.load(self.account)
        if self.start_target is not None:
            await self.show_browser(None)
            return
        orgs = await self._cached_orgs()
        ids = [o.id for o in orgs] if orgs is not None else None
        if state.org_id and (ids is None or state.org_id in ids):
            await self.show_browser(state.org_id)
        elif orgs is not None and orgs:
            await self._choose(orgs)
        else:
            self._load_orgs()

    async def _cached_orgs(self) -> list[Organization] | None:
        """The organizations as last seen (cache only: no request)."""
        try:
            return [o async for o in self.client.orgs.list(read="cache-only")]
        except GitBookError:
            return None

    @work(exclusive=True, exit_on_error=False, group="app-orgs")
    async def _load_orgs(self) -> None:
        try:
            orgs = [o async for o in self.client.orgs.list(read="prefer-cache")]
        except GitBookError as exc:
            # the browser's tree shows the failure on its root, with r to retry
            self.notify(
                plain(f"Could not list organizations: {exc}"), severity="error", markup=False
            )
            await self.show_browser(None)
            return
        await self._choose(orgs)

    async def _choose(self, orgs: list[Organization]) -> None:
        if len(orgs) == 1:
            await self.show_browser(orgs[0].id)
        elif not orgs:
            self.notify("This token belongs to no organization.", severity="warning")
            await self.show_browser(None)
        else:
            await self.push_screen(OrgPickerScreen(orgs), self._org_chosen)

    async def _org_chosen(self, org_id: str | None) -> None:
        if org_id is not None:
            await self.show_browser(org_id)

    async def show_browser(self, org_id: str | None) -> None:
        """Open (or replace) the browser on ``org_id`` (``None``: every organization)."""
        state = self.state_store.load(self.account)
        if org_id != state.org_id:
            state.expanded, state.selected, state.page = [], None, None
            state.org_id = org_id
        self.organization_id = org_id
        screen = BrowserScreen(
            self.client,
            org_id=org_id,
            store=self.state_store,
            account=self.account,
            state=state,
            start=self.start_target,
            show_hidden=self.config.show_hidden,
        )
        self.start_target = None
        current = self.browser
        if current is None:
            await self.push_screen(screen)
            return
        current.save_state()
        while self.screen is not current:
            await self.pop_screen()
        await self.switch_screen(screen)

    @property
    def browser(self) -> BrowserScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, BrowserScreen):
                return screen
        return None

    def action_switch_org(self) -> None:
        self._pick_org()

    @work(exclusive=True, exit_on_error=False, group="app-orgs")
    async def _pick_org(self) -> None:
        try:
            orgs = [o async for o in self.client.orgs.list(read="prefer-cache")]
        except GitBookError as exc:
            self.notify(
                plain(f"Could not list organizations: {exc}"), severity="error", markup=False
            )
            return
        if len(orgs) < 2:
            self.notify("There is no other organization.", timeout=3)
            return
        await self.push_screen(
            OrgPickerScreen(orgs, current=self.organization_id, cancellable=True),
            self._org_chosen,
        )

    # -- welcome ----------------------------------------------------------------------------------
    @on(WelcomeScreen.DemoRequested)
    def _demo_requested(self) -> None:
        self.exit(RESULT_DEMO)

    @on(ErrorBanner.SignInRequested)
    def _sign_in_again(self) -> None:
        """An error banner's S after a 401: the token entry, then the browser again."""
        if not isinstance(self.screen, WelcomeScreen):
            self.push_screen(
                WelcomeScreen(
                    self.client.base_url,
                    transport=self.transport,
                    demo_available=False,
                    cancellable=True,
                )
            )

    @on(WelcomeScreen.SignedIn)
    async def _signed_in(self, event: WelcomeScreen.SignedIn) -> None:
        old = self.client
        self.client = AsyncGitBook(
            event.token, base_url=event.api_url, transport=self.transport, cache=old.cache
        )
        await old.close()
        name = event.user.displayName or event.user.email or event.user.id
        self.notify(plain(f"Signed in as {name}"), timeout=4, markup=False)
        if isinstance(self.screen, WelcomeScreen):
            self.pop_screen()
        await self._begin()

    # -- navigation (the Navigator protocol) ----------------------------------------------------
    def open_page(self, space_id: str, page_id: str, anchor: str | None = None) -> None:
        browser = self.browser
        if browser is not None:
            browser.open_page(space_id, page_id, anchor)

    def open_space(self, space_id: str) -> None:
        browser = self.browser
        if browser is not None:
            browser.open_space(space_id)

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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # off while the focused widget takes ctrl+p itself (the tree filter): the key goes on
        return not (action == "command_palette" and getattr(self.focused, "OWNS_CTRL_P", False))

    # -- views ----------------------------------------------------------------------------------
    async def action_show_view(self, name: str) -> None:
        """Show the numbered view ``name`` (see :mod:`.views`) over the browser."""
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

    # -- exit ---------------------------------------------------------------------------------------
    async def action_quit(self) -> None:
        browser = self.browser
        if browser is not None:
            browser.save_state()
        self.exit()

    async def on_unmount(self) -> None:
        await self.client.close()
