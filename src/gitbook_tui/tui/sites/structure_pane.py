"""StructurePane: sections and their site spaces; add, edit, make default, remove, reorder.

Reordering (GitBook's own keyboard reorder, lazygit's one-step moves): ``space`` picks up
the selected section or site space, ``j``/``k`` move it among its siblings, ``space``
drops it (sent as one move), ``escape`` puts it back; ``ctrl+j``/``ctrl+k`` move one step
and send at once. Moves are shown at once and rolled back with the server's reason when
refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...api.resource import NULL
from ...models import SiteSection, SiteSpace
from ..common.confirm_screen import ConfirmScreen
from ..common.denial import gated
from .form_screen import FormField, Values
from .pick_screen import PickScreen
from .report_screen import ReportScreen
from .site_data import SiteData, org_spaces, space_id_of
from .site_pane import SitePane, changed, when_confirmed
from .structure_order import ROOT, Row, State, StructureOrder
from .structure_parts import (
    detail_of,
    edit_fields,
    section_label,
    space_label,
    space_title,
    title_check,
)

__all__ = ["StructureList", "StructurePane"]


class StructureList(OptionList):
    """Sections and site spaces, one line each."""


class StructurePane(SitePane):
    DEFAULT_CSS = """
    StructurePane StructureList { width: 3fr; height: 1fr; border: none; }
    StructurePane #structure-detail { width: 2fr; padding: 0 1; border-left: solid $panel; }
    StructurePane #structure-empty { color: $text-muted; padding: 0 1; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_section", "New section", id="structure.new_section"),
        Binding("a", "add_space", "Add space", id="structure.add_space"),
        Binding("e", "edit", "Edit", id="structure.edit"),
        Binding("asterisk", "make_default", "Default", id="structure.default"),
        Binding("d", "remove", "Remove", id="structure.remove"),
        Binding("space", "grab", "Move", id="structure.grab"),
        Binding("j", "step(1)", "Down", show=False, id="structure.down"),
        Binding("k", "step(-1)", "Up", show=False, id="structure.up"),
        Binding("ctrl+j", "nudge(1)", "Move down", show=False, id="structure.nudge_down"),
        Binding("ctrl+k", "nudge(-1)", "Move up", show=False, id="structure.nudge_up"),
        Binding("escape", "cancel_grab", "Cancel move", id="structure.cancel"),
    ]
    EDIT_ACTIONS = frozenset(
        {"new_section", "add_space", "edit", "make_default", "remove", "grab", "nudge"}
    )

    def __init__(self, editor: Any) -> None:
        super().__init__(editor, id="structure-pane")
        self.order = StructureOrder()
        self.rows: list[Row] = []
        self.grabbed: Row | None = None
        self._grab_origin: State | None = None

    def compose(self) -> ComposeResult:
        yield Static("Loading…", id="structure-empty")
        with Horizontal():
            yield StructureList(id="structure-list")
            yield Static("", id="structure-detail")

    def focus_main(self) -> None:
        self.query_one(StructureList).focus()

    def on_resize(self) -> None:
        self.query_one("#structure-detail").display = self.size.width >= 100

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel_grab":
            return self.grabbed is not None
        return True

    # -- showing ----------------------------------------------------------------------------
    @property
    def sections(self) -> list[SiteSection]:
        return self.order.sections

    @property
    def spaces(self) -> dict[str, list[SiteSpace]]:
        return self.order.spaces

    def show_data(self, data: SiteData) -> None:
        self.order.load(data)
        self.grabbed = None
        self.rebuild()

    def rebuild(self, keep: Row | None = None) -> None:
        options = self.query_one(StructureList)
        current = keep or self.current
        self.rows = []
        prompts: list[Option] = []
        for row, item in self.order.rows():
            self.rows.append(row)
            grabbed = row == self.grabbed
            if isinstance(item, SiteSection):
                prompts.append(Option(section_label(item, grabbed)))
            else:
                indent = "" if row.section == ROOT else "   "
                prompts.append(Option(space_label(item, grabbed, indent=indent)))
        options.clear_options()
        options.add_options(prompts)
        empty = self.query_one("#structure-empty", Static)
        empty.display = not self.rows
        empty.update("This site shows no content yet: n adds a section, a adds a space.")
        if current in self.rows:
            options.highlighted = self.rows.index(current)
        elif self.rows:
            options.highlighted = 0
        self._show_detail()

    @property
    def current(self) -> Row | None:
        index = self.query_one(StructureList).highlighted
        return self.rows[index] if index is not None and 0 <= index < len(self.rows) else None

    def _item(self, row: Row) -> SiteSection | SiteSpace | None:
        return self.order.item(row)

    @on(OptionList.OptionHighlighted)
    def _highlighted(self) -> None:
        self._show_detail()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        """``enter``: the detail, full screen when the side panel does not fit (80 columns)."""
        event.stop()
        row = self.current
        item = self._item(row) if row else None
        if item is None or self.query_one("#structure-detail").display:
            return
        count = len(self.spaces.get(item.id, [])) if isinstance(item, SiteSection) else 0
        self.app.push_screen(ReportScreen(item.title or item.id, detail_of(item, count)))

    def _show_detail(self) -> None:
        row = self.current
        item = self._item(row) if row else None
        detail = self.query_one("#structure-detail", Static)
        if item is None:
            detail.update("")
            return
        count = len(self.spaces.get(item.id, [])) if isinstance(item, SiteSection) else 0
        detail.update(detail_of(item, count))

    # -- moving -------------------------------------------------------------------------------
    def _shift(self, row: Row, step: int) -> bool:
        if not self.order.shift(row, step):
            return False
        self.rebuild(keep=row)
        return True

    def action_step(self, step: int) -> None:
        options = self.query_one(StructureList)
        if self.grabbed is None:
            (options.action_cursor_down if step > 0 else options.action_cursor_up)()
            return
        self._shift(self.grabbed, step)

    @gated
    def action_grab(self) -> None:
        row = self.current
        if self.grabbed is not None:  # drop
            grabbed, origin = self.grabbed, self._grab_origin
            self.grabbed = self._grab_origin = None
            self.rebuild(keep=grabbed)
            if origin is not None and self.order.ids(grabbed, origin) != self.order.ids(grabbed):
                self._send_move(grabbed, origin)
            return
        if row is None:
            return
        self.grabbed, self._grab_origin = row, self.order.snapshot()
        self.rebuild(keep=row)
        self.notify("Moving: j/k to move, space to drop, escape to cancel.", timeout=3)

    def action_cancel_grab(self) -> None:
        if self.grabbed is None or self._grab_origin is None:
            return
        grabbed = self.grabbed
        self.order.restore(self._grab_origin)
        self.grabbed = self._grab_origin = None
        self.rebuild(keep=grabbed)

    @gated
    def action_nudge(self, step: int) -> None:
        row = self.grabbed or self.current
        if row is None:
            return
        if self.grabbed is not None:
            self._shift(row, step)
            return
        origin = self.order.snapshot()
        if self._shift(row, step):
            self._send_move(row, origin)

    @work(group="structure-move")
    async def _send_move(self, row: Row, origin: State) -> None:
        before, after = self.order.anchors(row)
        sites = self.client.sites
        try:
            if row.kind == "section":
                await sites.move_section(
                    self.org_id, self.site.id, row.id, before=before, after=after
                )
            else:
                await sites.move_site_space(
                    self.org_id, self.site.id, row.id, before=before, after=after
                )
        except Exception as error:
            self.order.restore(origin)
            self.rebuild(keep=row)
            self.report(error)
            self.notify("The move was undone.", severity="warning", timeout=5)

    # -- adding, editing, removing ------------------------------------------------------------
    @gated
    async def action_new_section(self) -> None:
        try:
            spaces = await org_spaces(self.client, self.org_id)
        except Exception as error:
            self.report(error)
            return
        options = [("(a new empty space)", "")] + [(s.title or s.id, s.id) for s in spaces]
        fields = [
            FormField("title", "Title", "", validate=title_check, max_length=128),
            FormField(
                "space", "Content (a space of the organization)", "", "select", options=options
            ),
        ]

        async def submit(values: Values) -> dict[str, str] | None:
            try:
                await self.client.sites.create_section(
                    self.org_id,
                    self.site.id,
                    values["space"] or None,
                    title=values["title"].strip(),
                )
            except Exception as error:
                return self.refusal(error, ["title", "space", "spaceId"])
            return None

        await self.open_form(
            "New section", fields, submit, target="section:new", on_done=self._done
        )

    def _done(self, values: Values | None) -> None:
        if values is not None:
            self.editor.reload()

    @gated
    async def action_add_space(self) -> None:
        row = self.current
        section = row.section if row else (self.sections[0].id if self.sections else ROOT)
        try:
            spaces = await org_spaces(self.client, self.org_id)
        except Exception as error:
            self.report(error)
            return
        where = next((s.title for s in self.sections if s.id == section), None)
        used = {space_id_of(ss) for ss in self.spaces.get(section, [])}
        choices = [
            ((s.title or s.id) + ("  (already here)" if s.id in used else ""), s.id) for s in spaces
        ]
        note = f"Adds a variant to section “{where}”." if where else "Adds a space to the site."
        await self.app.push_screen(
            PickScreen("Add a space", choices, note=note), self._adder(section)
        )

    def _adder(self, section: str) -> Callable[[str | None], None]:
        def add(space_id: str | None) -> None:
            self._add(space_id, section)

        return add

    @work(group="structure-edit")
    async def _add(self, space_id: str | None, section: str) -> None:
        if not space_id:
            return
        try:
            await self.client.sites.create_site_space(
                self.org_id, self.site.id, space_id, section_id=section or None
            )
        except Exception as error:
            self.report(error)
            return
        self.editor.reload()

    @gated
    async def action_edit(self) -> None:
        row = self.current
        item = self._item(row) if row else None
        if row is None or item is None:
            return
        fields, before = edit_fields(item)

        async def submit(values: Values) -> dict[str, str] | None:
            diff = changed(values, before)
            for name in ("condition", "icon"):
                if name in diff and not diff[name]:
                    diff[name] = NULL
            try:
                if isinstance(item, SiteSection):
                    await self.client.sites.update_section(
                        self.org_id, self.site.id, item.id, **diff
                    )
                else:
                    await self.client.sites.update_site_space(
                        self.org_id, self.site.id, item.id, **diff
                    )
            except Exception as error:
                return self.refusal(error, [f.name for f in fields])
            return None

        noun = "section" if isinstance(item, SiteSection) else "site space"
        await self.open_form(
            f"Edit {noun} “{item.title or item.id}”",
            fields,
            submit,
            target=f"{row.kind}:{row.id}",
            on_done=self._done,
        )

    @gated
    async def action_make_default(self) -> None:
        row = self.current
        if row is None:
            return
        sites = self.client.sites
        try:
            if row.kind == "section":
                await sites.update(self.org_id, self.site.id, default_site_section=row.id)
            elif row.section == ROOT:
                await sites.update(self.org_id, self.site.id, default_site_space=row.id)
            else:
                await sites.update_section(
                    self.org_id, self.site.id, row.section, default_site_space=row.id
                )
        except Exception as error:
            self.report(error)
            return
        self.editor.reload()

    @gated
    async def action_remove(self) -> None:
        row = self.current
        item = self._item(row) if row else None
        if row is None or item is None:
            return
        if isinstance(item, SiteSection):
            variants = [space_title(s) for s in self.spaces.get(item.id, [])]
            effect = (
                f"Removes section “{item.title}” from the site: this unpublishes that section's "
                f"content ({', '.join(variants) or 'no spaces'}) and the redirects pointing to "
                "it are deleted. The spaces are kept."
            )
        else:
            effect = (
                f"Removes “{item.title}” from the site: this unpublishes that content (its URLs "
                "stop working and redirects to it are deleted). The space is kept."
            )
        await self.app.push_screen(
            ConfirmScreen("Remove from site?", effect, confirm_label="Remove"),
            when_confirmed(lambda: self._remove(row)),
        )

    @work(group="structure-edit")
    async def _remove(self, row: Row) -> None:
        sites = self.client.sites
        try:
            if row.kind == "section":
                await sites.delete_section(self.org_id, self.site.id, row.id)
            else:
                await sites.delete_site_space(self.org_id, self.site.id, row.id)
        except Exception as error:
            self.report(error)
            return
        self.editor.reload()
