"""StructureEditing: the structure pane's state and its editing actions — new section or
section group, add a space, edit, make default, remove (moves: :mod:`.structure_pane`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import work
from textual.widgets import OptionList

from ...api.resource import NULL
from ...models import SiteSection, SiteSectionGroup, SiteSpace, Space
from ..common.confirm_screen import ConfirmScreen
from ..common.denial import gated
from ..common.form_screen import FormField, Values
from .pick_screen import PickScreen
from .site_data import org_spaces, space_id_of
from .site_pane import SitePane, changed, when_confirmed
from .site_text import audience_widening
from .structure_order import ROOT, Row, StructureOrder
from .structure_parts import edit_fields, group_fields, space_title, title_check

__all__ = ["StructureEditing"]

NEW_KINDS = [("New section", "section"), ("New section group", "group")]


class StructureEditing(SitePane):
    """What the structure pane shows (``order``, ``rows``) and how it edits it."""

    def __init__(self, editor: Any, *, id: str | None = None) -> None:
        super().__init__(editor, id=id)
        self.order = StructureOrder()
        self.rows: list[Row] = []

    # -- what is selected ---------------------------------------------------------------------
    @property
    def sections(self) -> list[SiteSection]:
        return self.order.sections

    @property
    def spaces(self) -> dict[str, list[SiteSpace]]:
        return self.order.spaces

    @property
    def current(self) -> Row | None:
        index = self.query_one("#structure-list", OptionList).highlighted
        return self.rows[index] if index is not None and 0 <= index < len(self.rows) else None

    def _item(self, row: Row) -> SiteSection | SiteSectionGroup | SiteSpace | None:
        return self.order.item(row)

    def _group_here(self) -> str:
        """The group of the selected row (a group itself, or the group of a section)."""
        row = self.current
        if row is None or (row.kind == "space" and row.section == ROOT):
            return ROOT
        if row.kind == "group":
            return row.id
        return self.order.parent_of(Row("section", row.section, row.section))

    def held_titles(self, group_id: str) -> list[str]:
        titles = []
        for kind, item_id in self.order.layout.get(group_id, []):
            item = (
                self.order.groups.get(item_id) if kind == "group" else self.order.by_id.get(item_id)
            )
            titles.append((item.title if item else None) or item_id)
        return titles

    def _done(self, values: Values | None) -> None:
        if values is not None:
            self.editor.reload()

    # -- new ---------------------------------------------------------------------------------
    @gated
    async def action_new_section(self) -> None:
        """``n``: a new section or a new section group."""

        def chosen(kind: str | None) -> None:
            if kind == "section":
                self.call_later(self._new_section)
            elif kind == "group":
                self.call_later(self._new_group)

        note = "A group gathers sections under one title in the site's navigation."
        await self.app.push_screen(PickScreen("Add to the site", NEW_KINDS, note=note), chosen)

    async def _new_section(self) -> None:
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
        if self.order.groups:
            where = [("(the site's root)", ROOT)] + [
                (g.title or g.id, g.id) for g in self.order.groups.values()
            ]
            fields.append(
                FormField("group", "In section group", self._group_here(), "select", options=where)
            )

        async def submit(values: Values) -> dict[str, str] | None:
            try:
                await self.client.sites.create_section(
                    self.org_id,
                    self.site.id,
                    values["space"] or None,
                    title=values["title"].strip(),
                    site_section_group_id=values.get("group") or None,
                )
            except Exception as error:
                return self.refusal(error, ["title", "space", "spaceId", "group"])
            return None

        await self.open_form(
            "New section", fields, submit, target="section:new", on_done=self._done
        )

    async def _new_group(self) -> None:
        fields, _ = group_fields(None)

        async def submit(values: Values) -> dict[str, str] | None:
            try:
                await self.client.sites.create_section_group(
                    self.org_id,
                    self.site.id,
                    values["title"].strip(),
                    icon=values["icon"].strip() or None,
                )
            except Exception as error:
                return self.refusal(error, ["title", "icon"])
            return None

        await self.open_form(
            "New section group", fields, submit, target="group:new", on_done=self._done
        )

    # -- spaces ------------------------------------------------------------------------------
    @gated
    async def action_add_space(self) -> None:
        row = self.current
        if row is not None and row.kind == "group":
            self.notify("Select a section of the group to add a space to it.", timeout=4)
            return
        section = row.section if row else (self.sections[0].id if self.sections else ROOT)
        try:
            spaces = await org_spaces(self.client, self.org_id)
        except Exception as error:
            self.report(error)
            return
        where = next((s.title for s in self.sections if s.id == section), None)
        used = {space_id_of(ss) for ss in self.spaces.get(section, [])}
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
        await self.app.push_screen(
            PickScreen("Add a space", choices, note=note), self._adder(section, by_id)
        )

    def _section_url(self, section: str) -> str:
        base = self.data.base_url if self.data is not None else ""
        found = next((s for s in self.sections if s.id == section), None)
        if found is None or found.default or not found.path:
            return base
        return f"{base}/{found.path}"

    def _adder(self, section: str, spaces: dict[str, Space]) -> Callable[[str | None], None]:
        def add(space_id: str | None) -> None:
            space = spaces.get(space_id or "")
            effect = (
                audience_widening(
                    space.title or space.id, space.visibility, self.site, self._section_url(section)
                )
                if space is not None
                else None
            )
            if effect is None:
                self._add(space_id, section)
                return
            self.app.push_screen(
                ConfirmScreen("Widen who can read this space?", effect, confirm_label="Add it"),
                when_confirmed(lambda: self._add(space_id, section)),
            )

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

    # -- editing -----------------------------------------------------------------------------
    @gated
    async def action_edit(self) -> None:
        row = self.current
        item = self._item(row) if row else None
        if row is None or item is None:
            return
        if isinstance(item, SiteSectionGroup):
            fields, before = group_fields(item)
        else:
            fields, before = edit_fields(item)

        async def submit(values: Values) -> dict[str, str] | None:
            diff = changed(values, before)
            for name in ("condition", "icon"):
                if name in diff and not diff[name]:
                    diff[name] = NULL
            sites, ids = self.client.sites, (self.org_id, self.site.id, item.id)
            try:
                if isinstance(item, SiteSectionGroup):
                    if "title" in diff:
                        diff["title"] = diff["title"].strip()
                    await sites.update_section_group(*ids, **diff)
                elif isinstance(item, SiteSection):
                    await sites.update_section(*ids, **diff)
                else:
                    await sites.update_site_space(*ids, **diff)
            except Exception as error:
                return self.refusal(error, [f.name for f in fields])
            return None

        noun = {"group": "section group", "section": "section"}.get(row.kind, "site space")
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
        if row.kind == "group":
            self.notify("A section group has no default: select a section or a space.", timeout=4)
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

    # -- removing ----------------------------------------------------------------------------
    def _removal(self, row: Row, item: SiteSection | SiteSectionGroup | SiteSpace) -> str:
        if isinstance(item, SiteSectionGroup):
            parent = self.order.parent_of(row)
            outer = self.order.groups.get(parent)
            place = f"in group “{outer.title}”" if outer else "at the site's root"
            held = ", ".join(self.held_titles(item.id)) or "nothing"
            return (
                f"Deletes section group “{item.title}”. What it holds ({held}) stays published "
                f"and takes its place {place}; nothing is unpublished."
            )
        if isinstance(item, SiteSection):
            variants = [space_title(s) for s in self.spaces.get(item.id, [])]
            return (
                f"Removes section “{item.title}” from the site: this unpublishes that section's "
                f"content ({', '.join(variants) or 'no spaces'}) and the redirects pointing to "
                "it are deleted. The spaces are kept."
            )
        return (
            f"Removes “{item.title}” from the site: this unpublishes that content (its URLs "
            "stop working and redirects to it are deleted). The space is kept."
        )

    @gated
    async def action_remove(self) -> None:
        row = self.current
        item = self._item(row) if row else None
        if row is None or item is None:
            return
        title = "Delete section group?" if row.kind == "group" else "Remove from site?"
        label = "Delete" if row.kind == "group" else "Remove"
        await self.app.push_screen(
            ConfirmScreen(title, self._removal(row, item), confirm_label=label),
            when_confirmed(lambda: self._remove(row)),
        )

    @work(group="structure-edit")
    async def _remove(self, row: Row) -> None:
        sites = self.client.sites
        try:
            if row.kind == "group":
                await sites.delete_section_group(self.org_id, self.site.id, row.id)
            elif row.kind == "section":
                await sites.delete_section(self.org_id, self.site.id, row.id)
            else:
                await sites.delete_site_space(self.org_id, self.site.id, row.id)
        except Exception as error:
            self.report(error)
            return
        self.editor.reload()
