"""IntegrationsTab: the integrations installed in the organization, their installations and
what each may reach (spaces, sites), with the highlighted one's details (read-only) below;
``i`` installs one the organization may install, ``d`` uninstalls (both confirmed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Static

from ..common.denial import gated
from ..common.text import inert, plain
from .admin_tab import AdminHost, AdminTab
from .integrations_data import IntegrationRow, install_effect, load_integrations, uninstall_effect
from .row_table import Cell, Column, RowTable

__all__ = ["IntegrationsTab"]


class IntegrationsTab(AdminTab):
    """Installed integrations first, then the ones the organization may install."""

    DEFAULT_CSS = """
    IntegrationsTab #integrations-details {
        height: 7; padding: 0 1; border-top: solid $panel; color: $text;
    }
    """

    NAME = "integrations"
    TITLE = "Integrations"
    NOUN = ("integration", "integrations")
    COLUMNS: ClassVar[Sequence[Column]] = (
        Column("Integration", 24, grow=True),
        Column("Status", 13),
        Column("Reaches", 28, grow=True),
        Column("Scopes", 24, grow=True),
    )
    ADMIN_ACTIONS = frozenset({"install", "uninstall"})
    DENIED = "Only organization admins install or uninstall integrations."

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("i", "install", "Install", id="admin.integrations.install"),
        Binding("d", "uninstall", "Uninstall", id="admin.integrations.uninstall"),
    ]

    def __init__(self, host: AdminHost) -> None:
        super().__init__(host)
        self.rows: list[IntegrationRow] = []

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Static("", id="integrations-details")

    @work(exclusive=True, group="admin-integrations")
    async def load(self) -> None:
        try:
            self.rows = await load_integrations(self.client, self.org_id)
        except Exception as error:
            self.failed("the integrations", error)
            return
        self.loaded = True
        self.show(key=self.current_key())

    def total(self) -> int:
        return len(self.rows)

    def items(self) -> Sequence[tuple[str, Sequence[Cell]]]:
        words = self.needle.lower().split()
        found = []
        for r in self.rows:
            status = r.status or "available"
            hay = f"{r.title} {r.name} {status} {r.reach()} {' '.join(r.scopes)}".lower()
            if words and not all(w in hay for w in words):
                continue
            cells = (
                (r.title, "bold" if r.installed else ""),
                (status, "" if r.status == "active" else "dim"),
                (r.reach(), "" if r.installed else "dim"),
                (", ".join(r.scopes), "dim"),
            )
            found.append((r.key, cells))
        return found

    def empty_text(self) -> str:
        return "No integrations installed or available."

    def hint_text(self) -> str:
        installed = sum(1 for r in self.rows if r.installed)
        hint = f"{installed} installed"
        return hint + (" · i install · d uninstall" if self.host.is_admin else " · read-only")

    def row(self, key: str | None) -> IntegrationRow | None:
        return next((r for r in self.rows if r.key == key), None)

    # -- details --------------------------------------------------------------------------------
    @on(RowTable.Highlighted)
    def _highlighted(self, event: RowTable.Highlighted) -> None:
        self.show_details(self.row(self.current_key()))

    def show_details(self, row: IntegrationRow | None) -> None:
        details = self.query_one("#integrations-details", Static)
        if row is None:
            details.update("")
            return
        head = f"{row.title} ({row.name}) · {row.visibility or 'public'} · for {row.target}"
        lines: list[Content | str] = [inert(head, style="bold")]
        if row.description:
            lines += ["\n", inert(row.description)]
        lines += ["\n", inert("Scopes: " + (", ".join(row.scopes) or "none"), style="dim")]
        if row.installed:
            inst = f"Installed here: {row.status}"
            lines += ["\n", inert(inst, style="dim")]
            if row.reaches_spaces():
                lines += ["\n", inert("Spaces: " + _names(row.spaces, row.space_selection))]
            if row.reaches_sites():
                lines += ["\n", inert("Sites: " + _names(row.sites, row.site_selection))]
        else:
            lines += [
                "\n",
                inert(
                    "Not installed here" + (" · i installs it" if self.host.is_admin else "."),
                    style="dim",
                ),
            ]
        details.update(Content.assemble(*lines))

    # -- actions --------------------------------------------------------------------------------
    @property
    def org_title(self) -> str:
        org = self.host.org
        return plain(org.title or org.id) if org is not None else "the organization"

    @gated
    def action_install(self) -> None:
        row = self.row(self.current_key())
        if row is None:
            return
        if row.installed:
            self.notify(plain(f"{row.title} is installed already."), timeout=4, markup=False)
            return

        def run() -> None:
            self._install(row)

        self.confirm(f"Install {row.title}?", install_effect(row, self.org_title), "Install", run)

    @work(group="admin-integration-install")
    async def _install(self, row: IntegrationRow) -> None:
        try:
            await self.client.integrations.install(row.name, self.org_id)
        except Exception as error:
            self.report(error, "Not installed")
            return
        self.notify(plain(f"Installed {row.title} in {self.org_title}."), markup=False)
        self.load()

    @gated
    def action_uninstall(self) -> None:
        row = self.row(self.current_key())
        if row is None or not row.installed:
            if row is not None:
                self.notify(plain(f"{row.title} is not installed here."), timeout=4, markup=False)
            return

        def run() -> None:
            self._uninstall(row)

        effect = uninstall_effect(row, self.org_title)
        self.confirm(f"Uninstall {row.title}?", effect, "Uninstall", run)

    @work(group="admin-integration-uninstall")
    async def _uninstall(self, row: IntegrationRow) -> None:
        try:
            await self.client.installations.uninstall(row.name, row.installation)
        except Exception as error:
            self.report(error, "Not uninstalled")
            return
        self.notify(plain(f"Uninstalled {row.title} from {self.org_title}."), markup=False)
        self.load()


def _names(titles: tuple[str, ...] | None, selection: str) -> str:
    if titles is None:
        return "not listed for you"
    shown = ", ".join(titles) or "none"
    return f"all ({shown})" if selection == "all" else shown
