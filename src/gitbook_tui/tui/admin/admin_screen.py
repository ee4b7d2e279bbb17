"""AdminScreen: view 5, the organization's administration in tabs (``[``/``]``): members,
teams, invites, permissions, integrations, OpenAPI specs and translations."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Static

from ...api import AsyncGitBook
from ...drafts import Debouncer, DraftStore
from ...models import Organization
from ..common.hint_footer import HintFooter
from ..common.intents import BROWSE, ShowView
from ..common.navigator import Navigator
from ..common.state import account_key
from ..common.status_bar import StatusBar
from ..common.text import inert
from .admin_changes import load_org
from .admin_tab import AdminTab
from .permissions_data import Target
from .permissions_tab import PermissionsTab
from .tabs import TAB_CLASSES

__all__ = ["AdminScreen"]


class AdminScreen(Screen[None]):
    """The Admin view's one screen; each tab loads when first shown."""

    DEFAULT_CSS = """
    AdminScreen #admin-header { background: $panel; color: $text; padding: 0 1; }
    AdminScreen #admin-tabs { padding: 0 1; height: 1; }
    AdminScreen #admin-access { padding: 0 1; color: $text-muted; height: auto; }
    AdminScreen ContentSwitcher { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right_square_bracket", "tab(1)", "Next tab", id="admin.next_tab"),
        Binding("left_square_bracket", "tab(-1)", "Previous tab", id="admin.prev_tab"),
        Binding("R", "reload", "Reload", id="admin.reload"),
        Binding("escape", "back", "Browse", id="admin.back"),
    ]

    def __init__(self, navigator: Navigator) -> None:
        super().__init__()
        self.navigator = navigator
        self.org: Organization | None = None
        self.me = ""
        self._drafts: Debouncer | None = None
        self.tabs: list[AdminTab] = [cls(self) for cls in TAB_CLASSES]
        self.tab = self.tabs[0].NAME

    @property
    def client(self) -> AsyncGitBook:
        return self.navigator.client

    @property
    def org_id(self) -> str:
        return self.navigator.organization_id or ""

    @property
    def is_admin(self) -> bool:
        perms = self.org.permissions if self.org is not None else None
        return bool(perms and perms.admin)

    @property
    def drafts(self) -> Debouncer:
        """Form drafts of this account (kept across restarts)."""
        if self._drafts is None:
            self._drafts = Debouncer(DraftStore(account_key(self.client)))
        return self._drafts

    def compose(self) -> ComposeResult:
        yield Static("Admin", id="admin-header")
        yield Static(self._tab_line(), id="admin-tabs")
        yield Static("", id="admin-access")
        with ContentSwitcher(initial=f"{self.tab}-tab"):
            yield from self.tabs
        yield StatusBar(view="admin", id="status-bar")
        yield HintFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(StatusBar).follow(self.client)
        self.query_one("#admin-access", Static).display = False
        self.current.focus_main()
        self.start()

    @property
    def current(self) -> AdminTab:
        return next(t for t in self.tabs if self.tab == t.NAME)

    @work(exclusive=True, group="admin-org")
    async def start(self) -> None:
        """The organization (who may do what) and the caller, then the shown tab's items."""
        if not self.org_id:
            self.current.set_state("Choose an organization first (1 Browse).")
            return
        try:
            self.org, self.me = await load_org(self.client, self.org_id)
        except Exception as error:
            self.current.failed("the organization", error)
            return
        title = self.org.title or self.org.id
        self.query_one("#admin-header", Static).update(
            Content.assemble(inert(title, style="bold"), "  ·  administration")
        )
        access = self.query_one("#admin-access", Static)
        if not self.is_admin:
            access.update(
                "Read-only: only organization admins change members, teams, invites, "
                "integrations and translations (the dimmed keys say why)."
            )
        access.display = not self.is_admin
        self.current.load()
        self.refresh_bindings()

    # -- tabs ---------------------------------------------------------------------------------
    def _tab_line(self) -> Content:
        """The tabs, the shown one reversed; narrower than them all with their padding and
        the ``[ ]`` hint, the padding and the hint go (seven tabs in 80 columns)."""
        width = self.size.width or 80
        for pad, hint in ((" ", True), ("", False)):
            parts: list[Content | str] = []
            for tab in self.tabs:
                style = "reverse bold" if self.tab == tab.NAME else "dim"
                parts += [Content.styled(f"{pad}{tab.TITLE}{pad}", style), " "]
            if hint:
                parts.append(Content.styled(" [ ] switch", "dim"))
            line = Content.assemble(*parts)
            if line.cell_length <= width - 2:
                break
        return line

    def on_resize(self) -> None:
        self.query_one("#admin-tabs", Static).update(self._tab_line())

    def action_tab(self, step: int) -> None:
        names = [t.NAME for t in self.tabs]
        self.show_tab(names[(names.index(self.tab) + step) % len(names)])

    def show_tab(self, name: str) -> None:
        self.tab = name
        self.query_one(ContentSwitcher).current = f"{name}-tab"
        self.query_one("#admin-tabs", Static).update(self._tab_line())
        tab = self.current
        tab.focus_main()
        if not tab.loaded and self.org is not None:
            tab.load()

    def show_permissions(
        self, space_id: str | None, collection_id: str | None, page_id: str | None
    ) -> None:
        """``ShowPermissions``: the Permissions tab on that space or collection."""
        tab = self.tab_named("permissions")
        if not isinstance(tab, PermissionsTab):
            return
        if collection_id is not None:
            tab.set_target(Target("collection", collection_id))
        elif space_id is not None:
            tab.set_target(Target("space", space_id, page_id))
        self.show_tab(tab.NAME)

    def tab_named(self, name: str) -> AdminTab:
        return next(t for t in self.tabs if name == t.NAME)

    def action_reload(self) -> None:
        if self.org is None:
            self.start()
        else:
            self.current.load()

    def action_back(self) -> None:
        """``escape``: clears the tab's filter first, then goes back to Browse."""
        if not self.current.clear_filter():
            self.navigator.navigate(ShowView(BROWSE))

    async def on_unmount(self) -> None:
        if self._drafts is not None:
            await self._drafts.close()
