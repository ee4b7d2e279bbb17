"""StructureEditing: the structure pane's editing, composed into it — new section or
section group, add a space, edit, make default, remove (moves: :mod:`.structure_pane`;
what is sent: :mod:`.structure_data`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from ...models import SiteSection, SiteSectionGroup, Space
from ..common.confirm_screen import ConfirmScreen
from ..common.form_screen import FormField, Values
from .pick_screen import PickScreen
from .site_data import org_spaces, space_id_of
from .site_pane import PaneHost, changed, when_confirmed
from .site_text import audience_widening
from .structure_data import (
    add_site_space,
    create_section,
    create_section_group,
    make_default,
    remove_item,
    update_item,
)
from .structure_order import ROOT, Item, Row, StructureOrder
from .structure_parts import edit_fields, group_fields, space_title, title_check

__all__ = ["StructureEditing", "StructureHost"]

NEW_KINDS = [("New section", "section"), ("New section group", "group")]


class StructureHost(PaneHost, Protocol):
    """What the editing needs of the structure pane (:class:`.structure_pane.StructurePane`)."""

    order: StructureOrder

    @property
    def current(self) -> Row | None:
        """The highlighted row."""
        ...


class StructureEditing:
    """The editing actions of a structure pane (``host``), each sent through
    :mod:`.structure_data` and followed by the editor's reload."""

    def __init__(self, host: StructureHost) -> None:
        self.host = host

    @property
    def order(self) -> StructureOrder:
        return self.host.order

    def _current(self) -> tuple[Row, Item] | None:
        row = self.host.current
        item = self.order.item(row) if row else None
        return (row, item) if row is not None and item is not None else None

    def _group_here(self) -> str:
        """The group of the selected row (a group itself, or the group of a section)."""
        row = self.host.current
        if row is None or (row.kind == "space" and row.section == ROOT):
            return ROOT
        if row.kind == "group":
            return row.id
        return self.order.parent_of(Row("section", row.section, row.section))

    def _done(self, values: Values | None) -> None:
        if values is not None:
            self.host.editor.reload()

    async def _sent(self, send: Callable[[], Awaitable[None]]) -> None:
        """Run ``send`` (a request); the editor reloads after it, a refusal is reported."""
        try:
            await send()
        except Exception as error:
            self.host.report(error)
            return
        self.host.editor.reload()

    # -- new ---------------------------------------------------------------------------------
    async def new_section(self) -> None:
        """``n``: a new section or a new section group."""

        def chosen(kind: str | None) -> None:
            if kind == "section":
                self.host.call_later(self._new_section)
            elif kind == "group":
                self.host.call_later(self._new_group)

        note = "A group gathers sections under one title in the site's navigation."
        await self.host.app.push_screen(PickScreen("Add to the site", NEW_KINDS, note=note), chosen)

    async def _new_section(self) -> None:
        host = self.host
        try:
            spaces = await org_spaces(host.client, host.org_id)
        except Exception as error:
            host.report(error)
            return
        options = [("(a new empty space)", "")] + [(s.title or s.id, s.id) for s in spaces]
        fields = [
            FormField("title", "Title", "", validate=title_check, max_length=128),
            FormField(
                "space", "Content (a space of the organization)", "", "select", options=options
            ),
        ]
        if self.order.groups:
            where = [("(the site's root)", ROOT)] + [
                (g.title or g.id, g.id) for g in self.order.groups.values()
            ]
            fields.append(
                FormField("group", "In section group", self._group_here(), "select", options=where)
            )

        async def submit(values: Values) -> dict[str, str] | None:
            try:
                await create_section(
                    host.client,
                    host.org_id,
                    host.site.id,
                    title=values["title"],
                    space_id=values["space"] or None,
                    group_id=values.get("group") or None,
                )
            except Exception as error:
                return host.refusal(error, ["title", "space", "spaceId", "group"])
            return None

        await host.open_form(
            "New section", fields, submit, target="section:new", on_done=self._done
        )

    async def _new_group(self) -> None:
        host = self.host
        fields, _ = group_fields(None)

        async def submit(values: Values) -> dict[str, str] | None:
            try:
                await create_section_group(
                    host.client,
                    host.org_id,
                    host.site.id,
                    title=values["title"],
                    icon=values["icon"],
                )
            except Exception as error:
                return host.refusal(error, ["title", "icon"])
            return None

        await host.open_form(
            "New section group", fields, submit, target="group:new", on_done=self._done
        )

    # -- spaces ------------------------------------------------------------------------------
    async def add_space(self) -> None:
        host = self.host
        row = host.current
        if row is not None and row.kind == "group":
            host.notify("Select a section of the group to add a space to it.", timeout=4)
            return
        sections = self.order.sections
        section = row.section if row else (sections[0].id if sections else ROOT)
        try:
            spaces = await org_spaces(host.client, host.org_id)
        except Exception as error:
            host.report(error)
            return
        where = next((s.title for s in sections if s.id == section), None)
        used = {space_id_of(ss) for ss in self.order.spaces.get(section, [])}
        choices = [
            (
                (s.title or s.id)
                + f"  · {s.visibility or 'private'}"
                + ("  (already here)" if s.id in used else ""),
                s.id,
            )
            for s in spaces
        ]
        note = f"Adds a variant to section “{where}”." if where else "Adds a space to the site."
        by_id = {s.id: s for s in spaces}
        await host.app.push_screen(
            PickScreen("Add a space", choices, note=note), self._adder(section, by_id)
        )

    def _section_url(self, section: str) -> str:
        data = self.host.data
        base = data.base_url if data is not None else ""
        found = next((s for s in self.order.sections if s.id == section), None)
        if found is None or found.default or not found.path:
            return base
        return f"{base}/{found.path}"

    def _adder(self, section: str, spaces: dict[str, Space]) -> Callable[[str | None], None]:
        def add(space_id: str | None) -> None:
            space = spaces.get(space_id or "")
            effect = (
                audience_widening(
                    space.title or space.id,
                    space.visibility,
                    self.host.site,
                    self._section_url(section),
                )
                if space is not None
                else None
            )
            if effect is None:
                self._add(space_id, section)
                return
            self.host.app.push_screen(
                ConfirmScreen("Widen who can read this space?", effect, confirm_label="Add it"),
                when_confirmed(lambda: self._add(space_id, section)),
            )

        return add

    def _add(self, space_id: str | None, section: str) -> None:
        if not space_id:
            return
        host = self.host
        self.host.run_worker(
            self._sent(
                lambda: add_site_space(host.client, host.org_id, host.site.id, space_id, section)
            ),
            group="structure-edit",
        )

    # -- editing -----------------------------------------------------------------------------
    async def edit(self) -> None:
        found = self._current()
        if found is None:
            return
        row, item = found
        host = self.host
        if isinstance(item, SiteSectionGroup):
            fields, before = group_fields(item)
        else:
            fields, before = edit_fields(item)

        async def submit(values: Values) -> dict[str, str] | None:
            try:
                await update_item(
                    host.client, host.org_id, host.site.id, item, changed(values, before)
                )
            except Exception as error:
                return host.refusal(error, [f.name for f in fields])
            return None

        noun = {"group": "section group", "section": "section"}.get(row.kind, "site space")
        await host.open_form(
            f"Edit {noun} “{item.title or item.id}”",
            fields,
            submit,
            target=f"{row.kind}:{row.id}",
            on_done=self._done,
        )

    async def make_default(self) -> None:
        host = self.host
        row = host.current
        if row is None:
            return
        if row.kind == "group":
            host.notify("A section group has no default: select a section or a space.", timeout=4)
            return
        await self._sent(lambda: make_default(host.client, host.org_id, host.site.id, row))

    # -- removing ----------------------------------------------------------------------------
    def _removal(self, row: Row, item: Item) -> str:
        if isinstance(item, SiteSectionGroup):
            outer = self.order.groups.get(self.order.parent_of(row))
            place = f"in group “{outer.title}”" if outer else "at the site's root"
            held = ", ".join(self.order.held_titles(item.id)) or "nothing"
            return (
                f"Deletes section group “{item.title}”. What it holds ({held}) stays published "
                f"and takes its place {place}; nothing is unpublished."
            )
        if isinstance(item, SiteSection):
            variants = [space_title(s) for s in self.order.spaces.get(item.id, [])]
            return (
                f"Removes section “{item.title}” from the site: this unpublishes that section's "
                f"content ({', '.join(variants) or 'no spaces'}) and the redirects pointing to "
                "it are deleted. The spaces are kept."
            )
        return (
            f"Removes “{item.title}” from the site: this unpublishes that content (its URLs "
            "stop working and redirects to it are deleted). The space is kept."
        )

    async def remove(self) -> None:
        found = self._current()
        if found is None:
            return
        row, item = found
        title = "Delete section group?" if row.kind == "group" else "Remove from site?"
        label = "Delete" if row.kind == "group" else "Remove"
        await self.host.app.push_screen(
            ConfirmScreen(title, self._removal(row, item), confirm_label=label),
            when_confirmed(lambda: self._remove(row)),
        )

    def _remove(self, row: Row) -> None:
        host = self.host
        host.run_worker(
            self._sent(lambda: remove_item(host.client, host.org_id, host.site.id, row)),
            group="structure-edit",
        )
