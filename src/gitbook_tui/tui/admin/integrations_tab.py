"""IntegrationsTab: the integrations installed in the organization, their installations and
what each may reach (spaces, sites), with the highlighted one's details (read-only) below;
``i`` installs one in the whole organization, ``d`` uninstalls it, ``a`` adds it to one
space or site, ``x`` takes it off one (each confirmed, naming the effect)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Static

from ..common.confirm_screen import ConfirmScreen
from ..common.denial import gated
from ..common.filter_box import matches
from ..common.text import inert, plain
from .admin_tab import AdminHost, AdminTab
from .integration_places import (
    add_effect,
    add_to_place,
    addable,
    load_places,
    removable,
    remove_effect,
    remove_from_place,
)
from .integrations_data import (
    IntegrationRow,
    Place,
    install,
    install_effect,
    load_integrations,
    uninstall,
    uninstall_effect,
)
from .place_picker_screen import PlacePickerScreen
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
    ADMIN_ACTIONS = frozenset({"install", "uninstall", "add_place", "remove_place"})
    DENIED = "Only organization admins install or uninstall integrations."

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("i", "install", "Install", id="admin.integrations.install"),
        Binding("d", "uninstall", "Uninstall", id="admin.integrations.uninstall"),
        Binding("a", "add_place", "Add to…", id="admin.integrations.add_place"),
        Binding("x", "remove_place", "Remove from…", id="admin.integrations.remove_place"),
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
        found = []
        for r in self.rows:
            status = r.status or "available"
            if not matches(self.needle, r.title, r.name, status, r.reach(), *r.scopes):
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
        keys = " · i/d install/uninstall · a/x one space or site"
        return hint + (keys if self.host.is_admin else " · read-only")

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
            await install(self.client, row, self.org_id)
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
            await uninstall(self.client, row)
        except Exception as error:
            self.report(error, "Not uninstalled")
            return
        self.notify(plain(f"Uninstalled {row.title} from {self.org_title}."), markup=False)
        self.load()

    # -- one space or site ----------------------------------------------------------------------
    @gated
    def action_add_place(self) -> None:
        row = self.row(self.current_key())
        if row is not None:
            self._add_place(row)

    @work(exclusive=True, group="admin-integration-place")
    async def _add_place(self, row: IntegrationRow) -> None:
        if not (row.reaches_spaces() or row.reaches_sites()):
            self.notify(plain(f"{row.title} is not installed on spaces or sites."), markup=False)
            return
        try:
            places = addable(row, await load_places(self.client, self.org_id))
        except Exception as error:
            self.report(error, "Could not list the spaces and sites")
            return
        if not places:
            self.notify(
                plain(f"{row.title} reaches every space and site it may already."),
                timeout=4,
                markup=False,
            )
            return
        place = await self.app.push_screen_wait(PlacePickerScreen(f"Add {row.title} to…", places))
        if place is None:
            return
        ok = await self.app.push_screen_wait(
            ConfirmScreen(
                f"Add {row.title} to {place}?",
                add_effect(row, place, self.org_title),
                confirm_label="Add",
            )
        )
        if not ok:
            return
        try:
            await add_to_place(self.client, row, place, self.org_id)
        except Exception as error:
            self.report(error, "Not added")
            return
        self.notify(plain(f"{row.title} is on {place} now."), markup=False)
        self.load()

    @gated
    def action_remove_place(self) -> None:
        row = self.row(self.current_key())
        if row is not None:
            self._remove_place(row)

    @work(exclusive=True, group="admin-integration-place")
    async def _remove_place(self, row: IntegrationRow) -> None:
        places = removable(row)
        if not places:
            said = "is not installed here" if not row.installed else "reaches no space or site"
            self.notify(plain(f"{row.title} {said}."), timeout=4, markup=False)
            return
        place: Place | None = await self.app.push_screen_wait(
            PlacePickerScreen(f"Remove {row.title} from…", places)
        )
        if place is None:
            return
        ok = await self.app.push_screen_wait(
            ConfirmScreen(
                f"Remove {row.title} from {place}?",
                remove_effect(row, place),
                confirm_label="Remove",
            )
        )
        if not ok:
            return
        try:
            await remove_from_place(self.client, row, place)
        except Exception as error:
            self.report(error, "Not removed")
            return
        self.notify(plain(f"{row.title} is off {place} now."), markup=False)
        self.load()


def _names(titles: tuple[str, ...] | None, selection: str) -> str:
    if titles is None:
        return "not listed for you"
    shown = ", ".join(titles) or "none"
    return f"all ({shown})" if selection == "all" else shown
