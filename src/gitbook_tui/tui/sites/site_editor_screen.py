"""SiteEditorScreen: one site's editor, tabs Structure | Redirects | Settings (``[``/``]``);
the Structure tab's list and detail panes switch with the kit's pane keys."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Static

from ...api import AsyncGitBook
from ...drafts import Debouncer
from ...models import Site
from ..common.hint_footer import HintFooter
from ..common.navigator import Navigator
from ..common.pane_group import pane_switch_binding
from ..common.status_bar import StatusBar
from ..common.text import inert
from ..textual_compat import is_leaving
from .redirects_pane import RedirectsPane
from .settings_pane import SettingsPane
from .site_data import SiteData, load_site_data
from .site_text import edit_denied, error_text
from .structure_pane import StructurePane

__all__ = ["TABS", "SiteEditorScreen"]

TABS = (("structure", "Structure"), ("redirects", "Redirects"), ("settings", "Settings"))


class SiteEditorScreen(Screen[None]):
    """The editor of one site; each tab is a pane given the loaded :class:`SiteData`."""

    DEFAULT_CSS = """
    SiteEditorScreen #editor-header { background: $panel; color: $text; padding: 0 1; }
    SiteEditorScreen #editor-tabs { padding: 0 1; height: 1; }
    SiteEditorScreen #editor-state { padding: 0 1; color: $text-muted; height: auto; }
    SiteEditorScreen #editor-state.-error { color: $error; }
    SiteEditorScreen ContentSwitcher { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right_square_bracket", "tab(1)", "Next tab", id="editor.next_tab"),
        Binding("left_square_bracket", "tab(-1)", "Previous tab", id="editor.prev_tab"),
        Binding("escape", "close", "Sites", id="editor.close"),
        pane_switch_binding("editor.switch_focus", "List/detail"),
        Binding("R", "reload", "Reload", show=False, id="editor.reload"),
    ]

    def __init__(self, navigator: Navigator, site: Site, drafts: Debouncer) -> None:
        super().__init__()
        self.navigator = navigator
        self.site = site
        self.drafts = drafts
        self.data: SiteData | None = None
        self.tab = "structure"

    @property
    def client(self) -> AsyncGitBook:
        return self.navigator.client

    @property
    def org_id(self) -> str:
        return self.navigator.organization_id or ""

    def compose(self) -> ComposeResult:
        yield Static(self._header(), id="editor-header")
        yield Static(self._tabs(), id="editor-tabs")
        yield Static("Loading the site…", id="editor-state")
        with ContentSwitcher(initial="structure"):
            with Vertical(id="structure"):
                yield StructurePane(self)
            with Vertical(id="redirects"):
                yield RedirectsPane(self)
            with Vertical(id="settings"):
                yield SettingsPane(self)
        yield StatusBar(view="sites", id="status-bar")
        yield HintFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(StatusBar).follow(self.client)
        self.query_one(StructurePane).focus_main()
        self.reload()

    # -- header and tabs ----------------------------------------------------------------------
    def _header(self) -> Content:
        site = self.site
        state = "published" if site.published else "unpublished"
        return Content.assemble(
            inert(site.title or site.id, style="bold"),
            f"  ·  {site.visibility or '?'}  ·  {state}",
        )

    def _tabs(self) -> Content:
        parts: list[Content | str] = []
        for name, title in TABS:
            style = "reverse bold" if name == self.tab else "$text-muted"
            parts += [Content.styled(f" {title} ", style), " "]
        parts.append(Content.styled("  [ ] switch", "$text-muted"))
        return Content.assemble(*parts)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "switch_focus":  # one pane on the other tabs: tab cycles their fields
            return self.tab == "structure"
        return True

    def action_switch_focus(self) -> None:
        self.query_one(StructurePane).switch_focus()

    def action_tab(self, step: int) -> None:
        names = [name for name, _ in TABS]
        self.show_tab(names[(names.index(self.tab) + step) % len(names)])

    def show_tab(self, name: str) -> None:
        self.tab = name
        self.query_one(ContentSwitcher).current = name
        self.query_one("#editor-tabs", Static).update(self._tabs())
        pane = {
            "structure": self.query_one(StructurePane),
            "redirects": self.query_one(RedirectsPane),
            "settings": self.query_one(SettingsPane),
        }[name]
        pane.focus_main()
        self.refresh_bindings()  # the pane switch is the Structure tab's only

    # -- data -------------------------------------------------------------------------------------
    def set_site(self, site: Site) -> None:
        """A newer copy of the site from the server (after an update)."""
        if site.permissions is None and self.site.permissions is not None:
            site = site.model_copy(update={"permissions": self.site.permissions})
        self.site = site
        if self.data is not None:
            self.data.site = site
        self.query_one("#editor-header", Static).update(self._header())
        self.query_one(SettingsPane).show_site()

    @work(exclusive=True, group="site-load")
    async def reload(self) -> None:
        state = self.query_one("#editor-state", Static)
        try:
            data = await load_site_data(self.client, self.org_id, self.site.id)
        except Exception as error:
            if is_leaving(self):  # closed while it loaded: nothing to show the error in
                return
            state.update(inert(error_text(error, self.client.base_url) + " · R retry"))
            state.add_class("-error")
            return
        if is_leaving(self):  # closed while it loaded (``escape`` at once)
            return
        state.remove_class("-error")
        self.data = data
        self._show_access()
        self.site = data.site
        self.query_one("#editor-header", Static).update(self._header())
        self.query_one(StructurePane).show_data(data)
        self.query_one(RedirectsPane).show_data(data)
        self.query_one(SettingsPane).show_site()

    def _show_access(self) -> None:
        """A reader is told once, above the tabs, why the editing keys are dimmed."""
        state = self.query_one("#editor-state", Static)
        reason = edit_denied(self.site)
        state.update(inert(f"Read-only: {reason}") if reason else "")
        state.display = reason is not None

    def action_reload(self) -> None:
        self.reload()

    def action_close(self) -> None:
        self.dismiss(None)
