"""StructurePane: section groups, sections and their site spaces as a tree; reordering from
the keyboard (editing actions: the composed :class:`.structure_editing.StructureEditing`;
what is sent: :mod:`.structure_data`).

Reordering (GitBook's own keyboard reorder, lazygit's one-step moves): ``space`` picks up
the selected group, section or site space, ``j``/``k`` move it (a section also steps into
and out of groups), ``space`` drops it (sent as the move operations), ``escape`` puts it
back; ``ctrl+j``/``ctrl+k`` move one step and send at once. Moves are shown at once and
rolled back with the server's reason when refused.

``/`` filters the rows by title and path (a match keeps the rows that hold it); ``enter``
opens the highlighted match's detail; moving and adding wait until the filter is cleared
(``escape``): they act on places the filter hides.

At 100 columns and more the detail of the highlighted row is a pane beside the list (the
kit's pane switch keys and focus marker, :mod:`..common.pane_group`); narrower, ``enter``
shows it full screen.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...models import SiteSection, SiteSectionGroup, SiteSpace
from ..common.denial import gated
from ..common.filter_box import FilterBox, matches
from ..common.pane_group import PANE_CLASS
from ..common.text import inert
from .match_filter import MatchFilter, no_matches
from .report_screen import ReportScreen
from .site_data import SiteData
from .site_pane import SitePane
from .structure_data import MoveRefused, send_move
from .structure_detail import StructureDetail
from .structure_editing import StructureEditing
from .structure_list import StructureList
from .structure_order import Item, Row, State, StructureOrder, with_parents
from .structure_parts import (
    detail_of,
    group_detail,
    group_label,
    mark_style,
    section_label,
    space_label,
)

__all__ = ["DETAIL_MIN_WIDTH", "StructureDetail", "StructureList", "StructurePane"]

INDENT = "   "
DETAIL_MIN_WIDTH = 100
"""The pane's width from which the detail is shown beside the list."""
FILTER_BLOCKED = frozenset({"grab", "nudge", "new_section", "add_space"})
"""Actions that wait for the filter to be cleared (they move or place rows it may hide)."""


class StructurePane(SitePane):
    DEFAULT_CSS = """
    StructurePane StructureList, StructurePane StructureList:focus {
        width: 3fr; height: 1fr; border: none;
    }
    StructurePane StructureDetail { width: 2fr; height: 1fr; }
    StructurePane #structure-detail { padding: 0 1; height: auto; }
    StructurePane #structure-empty, StructurePane #structure-count {
        color: $text-muted; padding: 0 1; height: auto;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # ``space`` first: after a word ("d Remove space Move") the key read as part of a phrase
        Binding("space", "grab", "Grab/move", id="structure.grab"),
        Binding("n", "new_section", "New", id="structure.new_section"),
        Binding("a", "add_space", "Add space", id="structure.add_space"),
        Binding("e", "edit", "Edit", id="structure.edit"),
        Binding("asterisk", "make_default", "Default", id="structure.default"),
        Binding("d", "remove", "Remove", id="structure.remove"),
        Binding("j", "step(1)", "Down", show=False, id="structure.down"),
        Binding("k", "step(-1)", "Up", show=False, id="structure.up"),
        Binding("ctrl+j", "nudge(1)", "Move down", show=False, id="structure.nudge_down"),
        Binding("ctrl+k", "nudge(-1)", "Move up", show=False, id="structure.nudge_up"),
        Binding("slash", "filter", "Filter", id="structure.filter"),
        Binding("escape", "cancel_grab", "Cancel move / filter", id="structure.cancel"),
    ]
    EDIT_ACTIONS = frozenset(
        {"new_section", "add_space", "edit", "make_default", "remove", "grab", "nudge"}
    )

    def __init__(self, editor: Any) -> None:
        super().__init__(editor, id="structure-pane")
        self.order = StructureOrder()
        self.rows: list[Row] = []
        self.editing = StructureEditing(self)
        self.grabbed: Row | None = None
        self._grab_origin: State | None = None
        self.marked_theme = ""  # the theme the default marks were last coloured for

    # -- what is selected ---------------------------------------------------------------------
    @property
    def sections(self) -> list[SiteSection]:
        return self.order.sections

    @property
    def spaces(self) -> dict[str, list[SiteSpace]]:
        return self.order.spaces

    @property
    def current(self) -> Row | None:
        index = self.query_one(StructureList).highlighted
        return self.rows[index] if index is not None and 0 <= index < len(self.rows) else None

    def _item(self, row: Row) -> Item | None:
        return self.order.item(row)

    # -- editing (:class:`StructureEditing`) -------------------------------------------------
    @gated
    async def action_new_section(self) -> None:
        await self.editing.new_section()

    @gated
    async def action_add_space(self) -> None:
        await self.editing.add_space()

    @gated
    async def action_edit(self) -> None:
        await self.editing.edit()

    @gated
    async def action_make_default(self) -> None:
        await self.editing.make_default()

    @gated
    async def action_remove(self) -> None:
        await self.editing.remove()

    def compose(self) -> ComposeResult:
        yield MatchFilter(
            placeholder="filter: section, group, space title or path", id="structure-filter"
        )
        yield Static("", id="structure-count")
        yield Static("Loading…", id="structure-empty")
        with Horizontal():
            yield StructureList(self, id="structure-list", classes=PANE_CLASS)
            with StructureDetail(self, id="structure-side", classes=PANE_CLASS):
                yield Static("", id="structure-detail")

    def focus_main(self) -> None:
        self.query_one(StructureList).focus()

    @property
    def detail_shown(self) -> bool:
        """Whether the detail pane is beside the list (wide enough)."""
        return bool(self.query_one(StructureDetail).display)

    def switch_focus(self) -> None:
        """The kit's pane switch: list ⇄ detail; narrower than the detail needs, it says
        which key shows the detail (the focus never goes to a hidden pane)."""
        detail = self.query_one(StructureDetail)
        if not detail.display:
            self.focus_main()
            self.notify("The detail is hidden at this width: enter shows it.", timeout=3)
        elif detail.has_focus:
            self.focus_main()
        else:
            detail.focus()

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _: object) -> None:
        # published once the new theme's styles are in place: measure the marks now
        if self.rows:
            self.rebuild()

    def on_resize(self) -> None:
        detail = self.query_one(StructureDetail)
        wide = self.size.width >= DETAIL_MIN_WIDTH
        if detail.has_focus and not wide:
            self.focus_main()  # the focus never stays on a hidden pane
        detail.display = wide

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel_grab":  # else escape goes on: back to the sites
            return self.grabbed is not None or self.filtering
        return True

    def denial_reason(self, action: str) -> str | None:
        reason = super().denial_reason(action)
        if reason is None and action in FILTER_BLOCKED and self.filtering:
            return "Clear the filter first (escape): the filter hides places this would use."
        return reason

    # -- filter -------------------------------------------------------------------------------
    @property
    def filter_text(self) -> str:
        return self.query_one(FilterBox).needle

    @property
    def filtering(self) -> bool:
        """Whether the filter box is open or a filter is set (ctrl+j typed there moves
        nothing)."""
        box = self.query_one(FilterBox)
        return box.has_class("-open") or bool(box.needle)

    def action_filter(self) -> None:
        if self.grabbed is not None:
            self.notify("Drop (space) or cancel (escape) the move first.", timeout=3)
            return
        self.query_one(FilterBox).open()

    @on(Input.Changed, "#structure-filter")
    def _filter_changed(self) -> None:
        self.rebuild(first=True)

    @on(MatchFilter.Step, "#structure-filter")
    def _filter_step(self, event: MatchFilter.Step) -> None:
        options = self.query_one(StructureList)
        (options.action_cursor_down if event.delta > 0 else options.action_cursor_up)()

    @on(FilterBox.Done, "#structure-filter")
    def _filter_left(self, event: FilterBox.Done) -> None:
        """``enter``: back on the list (the filter stays applied), the highlighted match's
        detail opened; ``escape`` (:class:`FilterBox.Cleared`) only leaves the box."""
        self.focus_main()
        if not isinstance(event, FilterBox.Cleared):
            self.open_current()

    # -- showing ----------------------------------------------------------------------------
    def show_data(self, data: SiteData) -> None:
        self.order.load(data)
        self.grabbed = None
        self.rebuild()

    def rebuild(self, keep: Row | None = None, *, first: bool = False) -> None:
        """Show the rows (those the filter keeps); the cursor stays on ``keep`` or the
        current row — on the first match with ``first``."""
        options = self.query_one(StructureList)
        current = keep or self.current
        self.rows = []
        prompts: list[Option] = []
        mark = mark_style(options)
        self.marked_theme = self.app.theme
        needle = self.filter_text
        shown = self.order.rows()
        if needle:
            shown = with_parents(shown, lambda item: _matches(needle, item))
        for row, item, depth in shown:
            self.rows.append(row)
            grabbed = row == self.grabbed
            indent = INDENT * depth
            if isinstance(item, SiteSectionGroup):
                held = len(self.order.layout.get(item.id, []))
                prompts.append(Option(group_label(item, grabbed, indent, held)))
            elif isinstance(item, SiteSection):
                prompts.append(Option(section_label(item, grabbed, indent, mark)))
            else:
                prompts.append(Option(space_label(item, grabbed, indent=indent, mark=mark)))
        options.clear_options()
        options.add_options(prompts)
        empty = self.query_one("#structure-empty", Static)
        empty.display = not self.rows
        if needle and not self.rows:
            empty.update(inert(no_matches(needle)))
        else:
            empty.update("This site shows no content yet: n adds a section or a group, a a space.")
        count = self.query_one("#structure-count", Static)
        count.display = bool(needle and self.rows)
        if count.display:  # the count is the count listed (the rows holding a match too)
            total = len(self.order.rows())
            count.update(
                inert(
                    f"{len(self.rows)} of {total} rows for “{needle}” · enter opens · escape clears"
                )
            )
        hit = next((i for i, (_, item, _) in enumerate(shown) if _matches(needle, item)), None)
        if first and needle and hit is not None:
            options.highlighted = hit
        elif current in self.rows:
            options.highlighted = self.rows.index(current)
        elif self.rows:
            options.highlighted = 0
        self._show_detail()

    def _detail(self, row: Row) -> Any:
        item = self._item(row)
        if isinstance(item, SiteSectionGroup):
            parent = self.order.groups.get(self.order.parent_of(row))
            return group_detail(
                item, self.order.held_titles(item.id), parent.title if parent else None
            )
        if item is None:
            return None
        if not isinstance(item, SiteSection):
            return detail_of(item)
        group = self.order.groups.get(self.order.parent_of(row))
        title = (group.title or group.id) if group else None
        return detail_of(item, len(self.spaces.get(item.id, [])), title)

    @on(OptionList.OptionHighlighted)
    def _highlighted(self) -> None:
        self._show_detail()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.open_current()

    def open_current(self) -> None:
        """``enter``: the highlighted row's detail — its pane focused when it is beside the
        list, else full screen (80 columns)."""
        row = self.current
        item = self._item(row) if row else None
        if row is None or item is None:
            return
        if self.detail_shown:
            self.query_one(StructureDetail).focus()
            return
        self.app.push_screen(ReportScreen(item.title or item.id, self._detail(row)))

    def _show_detail(self) -> None:
        row = self.current
        detail = self.query_one("#structure-detail", Static)
        content = self._detail(row) if row else None
        detail.update(content if content is not None else "")

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
            if origin is not None and self.order.changed(grabbed, origin):
                self._send_move(grabbed, origin)
            return
        if row is None:
            return
        self.grabbed, self._grab_origin = row, self.order.snapshot()
        self.rebuild(keep=row)
        self.notify("Moving: j/k to move, space to drop, escape to cancel.", timeout=3)

    def action_cancel_grab(self) -> None:
        if self.grabbed is None or self._grab_origin is None:
            if self.filtering:
                self.query_one(FilterBox).action_clear()
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
        try:
            await send_move(self.client, self.org_id, self.site.id, self.order, row, origin)
        except MoveRefused as refused:
            self.order.restore(origin)
            self.rebuild(keep=row)
            self.report(refused.error)
            if refused.sent:
                self.notify("The move was undone; showing what the server kept.", timeout=5)
                self.editor.reload()
            else:
                self.notify("The move was undone.", severity="warning", timeout=5)


def _matches(needle: str, item: Item) -> bool:
    """Whether a group, section or site space matches the filter (title or path)."""
    return matches(needle, item.title, getattr(item, "path", None))
