"""RedirectsPane: the site's redirects, sorted by source; ``enter`` shows one (where it
lands), filter; composed into it: add, edit, live/draft and delete
(:class:`.redirect_editing.RedirectEditing`), test a path, lint, import and export
(:class:`.redirect_tools.RedirectTools`). A wildcard's source reads ``/v1/*``."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Input, Static

from ..common.denial import gated
from ..common.filter_box import FilterBox
from ..common.text import cell_width, count_of, inert
from ..common.theme_style import theme_style
from .match_filter import MatchFilter, no_matches
from .redirect_actions import redirect_report
from .redirect_editing import RedirectEditing
from .redirect_rules import WILDCARD_MARK, RedirectEntry, SiteMap, shown_source
from .redirect_tools import RedirectTools
from .redirects_table import RedirectsTable
from .report_screen import ReportScreen
from .site_data import SiteData, load_redirects
from .site_pane import SitePane
from .site_text import cell, share_widths, table_room

__all__ = ["RedirectsPane", "RedirectsTable"]

HEADS = ("Source", "Destination", "Type", "State")
FIRST_BATCH = 100  # rows added at once: more than a screenful
BATCH = 500  # then per refresh


class RedirectsPane(SitePane):
    DEFAULT_CSS = """
    RedirectsPane #redirects-summary { color: $text-muted; padding: 0 1; height: 1; }
    RedirectsPane RedirectsTable { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New", id="redirects.new"),
        Binding("enter", "open", "Where it lands", show=False, id="redirects.open"),
        Binding("e", "edit", "Edit", id="redirects.edit"),
        Binding("d", "delete", "Delete", id="redirects.delete"),
        Binding("L", "lint", "Lint", id="redirects.lint"),
        Binding("slash", "filter", "Filter", id="redirects.filter"),
        Binding("t", "test", "Test path", id="redirects.test"),
        Binding("I", "import_file", "Import", id="redirects.import"),
        Binding("X", "export_file", "Export", id="redirects.export"),
        Binding("f", "toggle_draft", "Live/draft", id="redirects.toggle_draft"),
        Binding("j", "cursor(1)", "Down", show=False, id="redirects.down"),
        Binding("k", "cursor(-1)", "Up", show=False, id="redirects.up"),
        Binding("escape", "clear_filter", "Clear filter", id="redirects.clear_filter"),
    ]
    EDIT_ACTIONS = frozenset({"new", "edit", "delete", "import_file", "toggle_draft"})

    def __init__(self, editor: Any) -> None:
        super().__init__(editor, id="redirects-pane")
        self.editing = RedirectEditing(self)
        self.tools = RedirectTools(self, self.editing)
        self.shown: list[RedirectEntry] = []
        self.filter_text = ""
        self._site_map: SiteMap | None = None
        self._rows: dict[RedirectEntry, tuple[Text, ...]] = {}
        self._labels: dict[RedirectEntry, str] = {}
        self._generation = 0
        self._widths: tuple[int, ...] = ()
        self._gone_style = ""

    def compose(self) -> ComposeResult:
        yield MatchFilter(placeholder="filter sources and destinations", id="redirects-filter")
        yield Static("Loading redirects…", id="redirects-summary")
        yield RedirectsTable(cursor_type="row", zebra_stripes=True, id="redirects-table")

    def on_mount(self) -> None:
        self._set_columns((6, 11, 9, 5))
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _: object) -> None:
        # the rows hold Rich styles with the old theme's colours: make them anew
        self._gone_style = theme_style(self.app.theme_variables, "$text-error")
        self._rows = {}
        self.render_rows()

    def _set_columns(self, widths: tuple[int, ...]) -> None:
        """Columns of these widths (cells are cut with "…" to them): a new set of widths
        makes every row anew."""
        table = self.query_one(RedirectsTable)
        table.clear(columns=True)
        for head, width in zip(HEADS, widths, strict=True):
            table.add_column(head, width=width)
        self._widths, self._rows = widths, {}
        self._gone_style = theme_style(self.app.theme_variables, "$text-error")

    def _fitting_widths(self) -> tuple[int, ...]:
        """The source and destination columns share what the short columns leave."""
        needs = [
            max(
                [
                    len(HEADS[0]),
                    *(cell_width(shown_source(e)) for e in self.shown),
                ]
            ),
            max([len(HEADS[1]), *(cell_width(self._label(e)) for e in self.shown)]),
            9,
            5,
        ]
        table = self.query_one(RedirectsTable)
        return tuple(share_widths(needs, table_room(table.size.width or 80, len(HEADS))))

    def on_resize(self) -> None:
        if self.data is not None and self._fitting_widths() != self._widths:
            self.render_rows()

    def focus_main(self) -> None:
        self.query_one(RedirectsTable).focus()

    @property
    def redirects(self) -> list[RedirectEntry]:
        return self.data.redirects if self.data else []

    # -- the table ------------------------------------------------------------------------------
    def show_data(self, data: SiteData) -> None:
        self.render_rows()

    def render_rows(self, keep: str | None = None) -> None:
        """Show the redirects matching the filter: the first screenful at once, the rest in
        batches after each refresh (a table of thousands opens without waiting for them)."""
        data = self.data
        if data is None:
            return
        table = self.query_one(RedirectsTable)
        keep = keep or (self.current.id if self.current else None)
        needle = self.filter_text.lower()
        if self._site_map is not data.site_map:  # labels change with the site: rebuild all
            self._site_map, self._rows, self._labels = data.site_map, {}, {}
        self.shown = [
            entry
            for entry in self.redirects  # sorted by source when loaded
            if not needle
            or needle in shown_source(entry).lower()
            or needle in self._label(entry).lower()
        ]
        self._generation += 1
        widths = self._fitting_widths()
        if widths != self._widths:
            self._set_columns(widths)
        table.clear()
        target = next((i for i, e in enumerate(self.shown) if e.id == keep), None)
        self._fill(self._generation, 0, target)
        total = len(self.redirects)
        drafts = sum(1 for e in self.shown if e.draft)
        if not total:
            parts = ["No redirects yet: n adds one, I imports a CSV or YAML file."]
        elif needle and not self.shown:
            parts = [no_matches(self.filter_text)]
        else:  # the count is the count listed
            listed = count_of(total, "redirect")
            if needle:
                listed = f"{len(self.shown)} of {listed} match “{self.filter_text}”"
            parts = [listed]
            if drafts:
                parts.append(count_of(drafts, "draft"))
            if any(e.wildcard for e in self.shown):
                parts.append(f"{WILDCARD_MARK} and every path below")
            parts.append("sorted by source")
        self.query_one("#redirects-summary", Static).update(inert(" · ".join(parts)))

    @property
    def filled(self) -> bool:
        """Whether every matching redirect is in the table (the batches are done)."""
        return self.query_one(RedirectsTable).row_count == len(self.shown)

    def _fill(self, generation: int, start: int, target: int | None) -> None:
        if generation != self._generation:  # the filter or the data changed meanwhile
            return
        end = start + (FIRST_BATCH if start == 0 else BATCH)
        table = self.query_one(RedirectsTable)
        table.add_rows(self._row(entry) for entry in self.shown[start:end])
        if target is not None and target < end:
            table.move_cursor(row=target)
            target = None
        if end < len(self.shown):
            self.call_after_refresh(self._fill, generation, end, target)

    def _label(self, entry: RedirectEntry) -> str:
        label = self._labels.get(entry)
        if label is None:
            label = self._site_map.label_of(entry.destination) if self._site_map else ""
            self._labels[entry] = label
        return label

    def _row(self, entry: RedirectEntry) -> tuple[Text, ...]:
        """The cells of ``entry`` (built once per entry and site map)."""
        row = self._rows.get(entry)
        if row is None:
            row = self._rows[entry] = self._cells(entry)
        return row

    def _cells(self, entry: RedirectEntry) -> tuple[Text, ...]:
        label = self._label(entry)
        source, dest, kind, state = self._widths
        return (
            cell(shown_source(entry), "bold", source),
            cell(label, self._gone_style if label.endswith("(gone)") else "", dest),
            cell("permanent" if entry.permanent else "temporary", "", kind),
            cell("draft" if entry.draft else "live", "italic" if entry.draft else "", state),
        )

    @property
    def current(self) -> RedirectEntry | None:
        table = self.query_one(RedirectsTable)
        row = table.cursor_row
        return self.shown[row] if self.shown and 0 <= row < len(self.shown) else None

    def action_cursor(self, step: int) -> None:
        table = self.query_one(RedirectsTable)
        (table.action_cursor_down if step > 0 else table.action_cursor_up)()

    async def refresh_redirects(self, keep: str | None = None) -> None:
        if self.data is None:
            return
        self.data.redirects = await load_redirects(self.client, self.org_id, self.site.id)
        self.render_rows(keep)

    # -- filter ---------------------------------------------------------------------------------
    def action_filter(self) -> None:
        self.query_one("#redirects-filter", FilterBox).open()

    @on(Input.Changed, "#redirects-filter")
    def _filtered(self, event: Input.Changed) -> None:
        self.filter_text = event.value.strip()
        self.render_rows()

    @on(MatchFilter.Step, "#redirects-filter")
    def _filter_step(self, event: MatchFilter.Step) -> None:
        self.query_one(RedirectsTable).action_pager_lines(event.delta)

    @on(FilterBox.Done, "#redirects-filter")
    def _filter_done(self, event: FilterBox.Done) -> None:
        """``enter``: back on the table (the filter stays applied), the highlighted match
        opened; ``escape`` (:class:`FilterBox.Cleared`) only leaves the box."""
        self.focus_main()
        if not isinstance(event, FilterBox.Cleared):
            self.action_open()

    @property
    def filtering(self) -> bool:
        box = self.query_one("#redirects-filter", FilterBox)
        return box.is_open or bool(box.needle)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":  # else escape goes on: back to the sites
            return self.filtering
        return True

    def action_clear_filter(self) -> None:
        """``escape`` on the table: a kept filter is cleared before the editor closes."""
        if self.filtering:
            self.query_one("#redirects-filter", FilterBox).action_clear()

    # -- one redirect ---------------------------------------------------------------------------
    @on(DataTable.RowSelected, "#redirects-table")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        """``enter``: the redirect under the cursor and where it lands (read-only)."""
        entry = self.current
        if entry is not None and self.data is not None:
            self._open(entry)

    @work(group="redirects-open", exclusive=True)
    async def _open(self, entry: RedirectEntry) -> None:
        if self.data is None:
            return
        body = await redirect_report(self.client, self.org_id, self.data, entry)
        await self.app.push_screen(ReportScreen(f"Redirect {shown_source(entry)}", body))

    # -- the tools (:class:`RedirectTools`) -----------------------------------------------------
    async def action_test(self) -> None:
        await self.tools.test_path()

    async def action_lint(self) -> None:
        await self.tools.open_lint()

    @gated
    async def action_import_file(self) -> None:
        await self.tools.import_file()

    async def action_export_file(self) -> None:
        await self.tools.export_file()

    # -- editing (:class:`RedirectEditing`) -----------------------------------------------------
    @gated
    async def action_new(self) -> None:
        await self.editing.open_form(None)

    @gated
    async def action_edit(self) -> None:
        if self.current is not None:
            await self.editing.open_form(self.current)

    @gated
    async def action_delete(self) -> None:
        if self.current is not None:
            await self.editing.confirm_delete(self.current)

    @gated
    async def action_toggle_draft(self) -> None:
        """A draft goes live, a live redirect back to draft (optimistic, undone if refused)."""
        if self.current is not None:
            self.editing.toggle_draft(self.current)
