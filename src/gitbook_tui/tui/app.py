"""GitBookApp: the Textual application (thin: screens do the work).

Start: without a token the :class:`WelcomeScreen` (sign in, or ask for the demo: the app
then exits with :data:`RESULT_DEMO` and ``cli.run_app`` restarts on the demo server). With
a token: the remembered organization (or the only one) opens in the :class:`BrowserScreen`
at once — from the cache, no request before the first frame — otherwise the
:class:`OrgPickerScreen` lists the organizations. Navigation, the numbered views and the
modal screens are in :mod:`.app_navigation` (each view is a mode: :mod:`.views`).

The screens other than the browser are imported when first shown: a start imports only
what its first screen draws (``tests/cli/test_lean_start.py`` lists what it must not).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

import httpx
from textual import events, on, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import Provider
from textual.filter import LineFilter
from textual.screen import Screen
from textual.theme import Theme

from ..api import AsyncGitBook
from ..models import Organization
from .account.organizations import cached_organizations, organizations
from .app_navigation import AppNavigation
from .app_outbox import AppOutbox
from .browse.browser_screen import BrowserScreen
from .common.config import TuiConfig, load_tui_config, save_theme
from .common.contrast import dimmed_colours, floored_css_variables
from .common.contrast_floor import ContrastFloor
from .common.error_banner import ErrorBanner
from .common.failure import describe_failure
from .common.idle_collector import IdleCollector
from .common.keymap import unknown_keymap_ids
from .common.session_info import SessionInfo
from .common.size_notice import SizeNoticeScreen, too_small
from .common.state import StartTarget, StateStore, account_key
from .common.text import plain
from .textual_compat import WorkerSafeApp, guard_option_list_paging
from .views import BROWSE, VIEWS

if TYPE_CHECKING:
    from .account.welcome_screen import WelcomeScreen

__all__ = ["RESULT_DEMO", "GitBookApp"]

DEMO_ACCOUNT = "demo"
"""The state key of the bundled demo: one demo, whichever port its server got."""

RESULT_DEMO = "demo"
"""Exit result asking ``run_app`` to restart on the bundled demo workspace."""

FIRST_COLLECTION_DELAY = 3.0
"""Seconds after the start before the idle collector may run its first long walk."""


def _page_commands() -> type[Provider]:
    # the palette's providers are imported when it first opens (Textual's lazy COMMANDS)
    from .common.palette import PageCommands

    return PageCommands


def _space_commands() -> type[Provider]:
    from .common.palette import SpaceCommands

    return SpaceCommands


def _app_commands() -> type[Provider]:
    from .common.palette import AppCommands

    return AppCommands


def _welcome_screen() -> type[WelcomeScreen]:
    """The sign-in screen: shown without a token (or after a 401), not on a usual start."""
    from .account.welcome_screen import WelcomeScreen

    return WelcomeScreen


class GitBookApp(AppOutbox, AppNavigation, WorkerSafeApp[str | None]):
    """The gitbook-tui application."""

    CSS_PATH = "app.tcss"
    TITLE = "gitbook-tui"
    COMMANDS = App.COMMANDS | {_page_commands, _space_commands, _app_commands}
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
        start_view: str | None = None,
        starting_warm: bool = False,
        resume_collections: Callable[[], None] | None = None,
    ) -> None:
        """``starting``: the server is still starting (the bundled demo): polled, True
        once it serves; a progress screen shows meanwhile — unless ``starting_warm``: the
        server has its data and a listening socket already (requests wait for it), so the
        app opens at once from its cache and only says so if the server fails.
        ``resume_collections``: the command paused the garbage collector for the start
        (``cli.lean_start.pause_collections``); called once the first screen is up."""
        super().__init__()
        guard_option_list_paging()  # a Textual bug: pageup in the palette at 12×4
        self.starting = starting
        self.starting_warm = starting_warm
        self.start_view = start_view
        """A numbered view to show once the browser is up (``gitbook-tui review``)."""
        self.client = client
        self.demo = demo
        self.config = config if config is not None else load_tui_config()
        self.start_target = start
        self.state_store = state_store or StateStore()
        self.transport = transport  # used for the welcome screen's client (tests, demo)
        # what the Navigator protocol exposes to modal screens and palette providers
        self.organization_id: str | None = None
        self.space_id: str | None = None
        self.session = SessionInfo()
        self.idle_collector = IdleCollector()
        self.resume_collections = resume_collections

    # -- size ------------------------------------------------------------------------------------
    @property
    def too_small(self) -> bool:
        """Whether the terminal is below the minimum size (the size notice is shown)."""
        return too_small(self.size)

    def on_resize(self, event: events.Resize) -> None:
        self.check_size()

    def check_size(self) -> None:
        """Show the size notice while the terminal is too small, the app once it fits."""
        if not self.screen_stack or not self.is_running or self.return_code is not None:
            return  # starting or closing: no screen to cover
        showing = isinstance(self.screen, SizeNoticeScreen)
        if self.too_small and not showing:
            self.push_screen(SizeNoticeScreen())
        elif not self.too_small and showing:
            self.pop_screen()

    # -- start ----------------------------------------------------------------------------------
    async def on_mount(self) -> None:
        self.set_interval(0.5, self.check_size)  # also after screens were pushed or popped
        self.idle_collector.install()
        # not while the first screen is being built: a start looks quiet (no keys yet), and a
        # full collection then (every object of the imports: ~0.3 s) delayed the first tree
        self.set_timer(FIRST_COLLECTION_DELAY, self._first_screen_up)
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
            if self.starting_warm:
                self._watch_start(starting)
            else:
                from .account.starting_screen import StartingScreen

                message = "Preparing the demo workspace (the first run seeds it: a few seconds)…"
                await self.push_screen(StartingScreen(starting, message), self._server_ready)
                return
        await self._open()

    def _first_screen_up(self) -> None:
        """The collector (paused by the command for the start) runs again, and the idle
        collector's long walks may begin."""
        if self.resume_collections is not None:
            self.resume_collections()
        self.set_interval(0.5, self.idle_collector.tick)

    @staticmethod
    def _started(starting: Callable[[], bool]) -> bool:
        try:
            return starting()
        except Exception:
            return False  # (the starting screen or _watch_start shows why)

    def _watch_start(self, starting: Callable[[], bool]) -> None:
        """Poll a warm server while the app runs from its cache: say why if it cannot start
        (its requests fail meanwhile, shown where they were made)."""

        def check() -> None:
            try:
                ready = starting()
            except Exception as exc:
                timer.stop()
                self.notify(plain(str(exc)), title="Demo server", severity="error", timeout=30)
                return
            if ready:
                timer.stop()

        timer = self.set_interval(0.1, check)

    def _server_ready(self, _ready: bool | None) -> None:
        # once the starting screen is gone: the browser is then pushed on a settled stack
        self.call_later(self._open)

    async def _open(self) -> None:
        """The welcome screen without a token, else the browser (see :meth:`_begin`)."""
        if not self.client.has_token:
            await self.push_screen(
                _welcome_screen()(
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

    @cached_property
    def _contrast_floor(self) -> ContrastFloor:
        return ContrastFloor()

    def get_css_variables(self) -> dict[str, str]:
        """The theme's variables, text colours floored for contrast (``common.contrast``)."""
        variables = floored_css_variables(super().get_css_variables())
        self.theme_variables = variables
        self._contrast_floor.dimmed = frozenset(dimmed_colours(variables))
        return variables

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then the contrast floor (``common.contrast_floor``)."""
        return [*super().get_line_filters(), self._contrast_floor]

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
        orgs = await cached_organizations(self.client)
        ids = [o.id for o in orgs] if orgs is not None else None
        if state.org_id and (ids is None or state.org_id in ids):
            await self.show_browser(state.org_id)
        elif orgs is not None and orgs:
            await self._choose(orgs)
        else:
            self._load_orgs()

    @work(exclusive=True, exit_on_error=False, group="app-orgs")
    async def _load_orgs(self) -> None:
        """Whatever fails (the client, or a bug), a browser opens: its tree shows the
        failure on its root, with r to retry."""
        try:
            orgs = await organizations(self.client)
        except Exception as exc:
            self.notify(
                f"Could not list organizations: {describe_failure(exc)}",
                severity="error",
                markup=False,
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
            from .account.org_picker_screen import OrgPickerScreen

            await self.push_screen(OrgPickerScreen(orgs), self._org_chosen)

    async def _org_chosen(self, org_id: str | None) -> None:
        if org_id is not None:
            await self.show_browser(org_id)

    async def show_browser(self, org_id: str | None) -> None:
        """Open (or replace) the browser on ``org_id`` (``None``: every organization)."""
        self.start_outbox()  # the account is known: its queue shows and replays app-wide
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
            if self.start_view is not None:
                view, self.start_view = self.start_view, None
                self.call_after_refresh(self.run_action, f"show_view('{view}')")
            return
        current.save_state()
        if self.current_mode != BROWSE:
            await self.switch_mode(BROWSE)
        while self.screen is not current:
            await self.pop_screen()
        await self.switch_screen(screen)
        if org_id != current.org_id:
            await self.reset_views()  # the other views showed the previous organization

    def action_switch_org(self) -> None:
        self._pick_org()

    @work(exclusive=True, exit_on_error=False, group="app-orgs")
    async def _pick_org(self) -> None:
        try:
            orgs = await organizations(self.client)
        except Exception as exc:
            self.notify(
                f"Could not list organizations: {describe_failure(exc)}",
                severity="error",
                markup=False,
            )
            return
        if len(orgs) < 2:
            self.notify("There is no other organization.", timeout=3)
            return
        from .account.org_picker_screen import OrgPickerScreen

        await self.push_screen(
            OrgPickerScreen(orgs, current=self.organization_id, cancellable=True),
            self._org_chosen,
        )

    # -- welcome ----------------------------------------------------------------------------------
    # (named handlers, not @on: the welcome screen's module is imported when first shown)
    def on_welcome_screen_demo_requested(self) -> None:
        self.exit(RESULT_DEMO)

    @on(ErrorBanner.SignInRequested)
    def _sign_in_again(self) -> None:
        """An error banner's S after a 401: the token entry, then the browser again."""
        welcome_screen = _welcome_screen()
        if not isinstance(self.screen, welcome_screen):
            self.push_screen(
                welcome_screen(
                    self.client.base_url,
                    transport=self.transport,
                    demo_available=False,
                    cancellable=True,
                )
            )

    async def on_welcome_screen_signed_in(self, event: WelcomeScreen.SignedIn) -> None:
        old = self.client
        self.client = AsyncGitBook(
            event.token, base_url=event.api_url, transport=self.transport, cache=old.cache
        )
        await old.close()
        name = event.user.displayName or event.user.email or event.user.id
        self.notify(plain(f"Signed in as {name}"), timeout=4, markup=False)
        if isinstance(self.screen, _welcome_screen()):
            self.pop_screen()
        await self._begin()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # under the size notice only quitting works (no view, palette or help pushed under it)
        if action != "quit" and isinstance(self.screen, SizeNoticeScreen):
            return False
        # off while the focused widget takes ctrl+p itself (the tree filter): the key goes on
        return not (action == "command_palette" and getattr(self.focused, "OWNS_CTRL_P", False))

    # -- exit ---------------------------------------------------------------------------------------
    async def action_quit(self) -> None:
        browser = self.browser
        if browser is not None:
            browser.save_state()
        self.exit()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent):
            self.idle_collector.input_seen()
        await super().on_event(event)

    async def on_unmount(self) -> None:
        self.idle_collector.uninstall()
        self.stop_outbox()
        await self.client.close()
