"""AdminTab: what every tab of the Admin view shares — a state line, the ``/`` filter, a
RowTable, admin-only actions dimmed with the reason, confirmations and forms with drafts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Static

from ...api import AsyncGitBook
from ...api.errors import APIStatusError
from ...drafts import Debouncer, DraftKey
from ...models import Organization
from ..common.confirm_screen import ConfirmScreen
from ..common.filter_box import FilterBox
from ..common.form_screen import FormField, FormScreen, Submit, restored_values
from ..common.text import count_of, inert
from .admin_text import error_text, field_errors
from .row_table import Cell, Column, RowTable

__all__ = ["ADMIN_FORM", "AdminHost", "AdminTab"]

ADMIN_FORM = "admin-form"
"""Draft kind of the Admin view's forms (``target`` names what the form edits)."""


class AdminHost(Protocol):
    """What a tab needs of the Admin screen holding it."""

    org: Organization | None
    me: str

    @property
    def drafts(self) -> Debouncer: ...

    @property
    def client(self) -> AsyncGitBook: ...

    @property
    def org_id(self) -> str: ...

    @property
    def is_admin(self) -> bool: ...


class AdminTab(Widget):
    """A tab: subclasses give the columns, load their items and turn them into rows."""

    DEFAULT_CSS = """
    AdminTab { height: 1fr; }
    AdminTab .admin-state { padding: 0 1; color: $text-muted; height: auto; }
    AdminTab .admin-state.-error { color: $error; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter", id="admin.filter"),
    ]

    NAME: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""
    NOUN: ClassVar[tuple[str, str]] = ("item", "items")
    COLUMNS: ClassVar[Sequence[Column]] = ()
    ADMIN_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """Actions only organization admins may do (dimmed for others, with the reason)."""
    DENIED: ClassVar[str] = "Only organization admins can change this."

    def __init__(self, host: AdminHost) -> None:
        super().__init__(id=f"{self.NAME}-tab")
        self.host = host
        self.loaded = False
        self.shown_keys: list[str] = []
        """The keys of the rows listed (filtered), in order."""

    @property
    def client(self) -> AsyncGitBook:
        return self.host.client

    @property
    def org_id(self) -> str:
        return self.host.org_id

    def compose(self) -> ComposeResult:
        yield Static("Loading…", id=f"{self.NAME}-state", classes="admin-state")
        yield FilterBox(placeholder=f"filter {self.NOUN[1]}", id=f"{self.NAME}-filter")
        yield RowTable(self.COLUMNS, id=f"{self.NAME}-table")

    @property
    def table(self) -> RowTable:
        return self.query_one(RowTable)

    def focus_main(self) -> None:
        self.table.focus()

    def load(self) -> object:
        """Fetch the tab's items (a worker), then :meth:`show`."""
        return None

    # -- rows ---------------------------------------------------------------------------------
    def items(self) -> Sequence[tuple[str, Sequence[Cell]]]:
        """(key, cells) of the rows matching :attr:`needle` (subclasses)."""
        return []

    def listing(self) -> tuple[list[str], Sequence[Sequence[Cell]]]:
        """The keys and rows to list (a long tab makes its rows lazily)."""
        found = self.items()
        return [k for k, _ in found], [cells for _, cells in found]

    def total(self) -> int:
        return 0

    def empty_text(self) -> str:
        return f"No {self.NOUN[1]} yet."

    def hint_text(self) -> str:
        """What the state line says after the count (the next key)."""
        return ""

    @property
    def needle(self) -> str:
        return self.query_one(FilterBox).needle

    def show(self, *, cursor: int | None = None, key: str | None = None) -> None:
        """List the matching rows and say how many (the count is the count listed)."""
        self.shown_keys, rows = self.listing()
        if key is not None and key in self.shown_keys:
            cursor = self.shown_keys.index(key)
        self.table.set_rows(rows, cursor=cursor)
        total, needle = self.total(), self.needle
        single, plural = self.NOUN
        if not total:
            text = self.empty_text()
        elif not needle and len(rows) == total:
            hint = self.hint_text()
            text = count_of(total, single, plural) + (f" · {hint}" if hint else "")
        elif not rows:
            text = f"No {plural} match “{needle}” — escape clears the filter"
        else:
            text = f"{len(rows)} of {count_of(total, single, plural)} match" + (
                f" “{needle}” · escape clears" if needle else ""
            )
        self.set_state(text)

    def set_state(self, text: str, *, error: bool = False) -> None:
        state = self.query_one(f"#{self.NAME}-state", Static)
        state.update(inert(text))
        state.set_class(error, "-error")

    def current_key(self) -> str | None:
        cursor = self.table.cursor
        return self.shown_keys[cursor] if 0 <= cursor < len(self.shown_keys) else None

    def failed(self, what: str, error: BaseException) -> None:
        self.set_state(
            f"Could not load {what}: {error_text(error, self.client.base_url)} · R retry",
            error=True,
        )

    # -- filter -------------------------------------------------------------------------------
    def action_filter(self) -> None:
        self.query_one(FilterBox).open()

    @on(FilterBox.Changed)
    def _filter_changed(self, event: FilterBox.Changed) -> None:
        event.stop()
        if self.loaded:
            self.show(cursor=0)

    @on(FilterBox.Done)
    def _filter_done(self, event: FilterBox.Done) -> None:
        """``enter`` leaves the filter on the highlighted match and opens it."""
        event.stop()
        self.query_one(FilterBox).remove_class("-open")
        self.table.focus()
        if not isinstance(event, FilterBox.Cleared):
            self.table.action_select()

    def clear_filter(self) -> bool:
        """``escape``: clear the filter first (``True`` when there was one)."""
        box = self.query_one(FilterBox)
        if box.is_open or box.needle:
            box.action_clear()
            return True
        return False

    @on(RowTable.Selected)
    def _selected(self, event: RowTable.Selected) -> None:
        event.stop()
        key = self.current_key()
        if key is not None:
            self.open_row(key)

    def open_row(self, key: str) -> None:
        """``enter`` on a row (subclasses)."""

    # -- permissions, confirmations, forms ------------------------------------------------------
    def denial_reason(self, action: str) -> str | None:
        if action in self.ADMIN_ACTIONS and not self.host.is_admin:
            return self.DENIED
        return None

    def confirm(self, title: str, effect: str, label: str, run: Callable[[], object]) -> None:
        def done(ok: bool | None) -> None:
            if ok:
                run()

        self.app.push_screen(ConfirmScreen(title, effect, confirm_label=label), done)

    def report(self, error: BaseException, title: str = "Not saved") -> None:
        """A refusal or failure, naming the server; stays until dismissed."""
        self.notify(
            error_text(error, self.client.base_url),
            title=title,
            severity="error",
            timeout=10,
            markup=False,
        )

    async def open_form(
        self,
        title: str,
        fields: Sequence[FormField],
        submit: Submit,
        *,
        target: str,
        on_done: Any = None,
    ) -> None:
        """A form whose typing survives errors and restarts (``target`` names what it edits)."""
        key = DraftKey(kind=ADMIN_FORM, site=self.org_id, target=target)
        draft = await self.host.drafts.load(key)
        restored = restored_values(draft.extra) if draft is not None else None
        if restored:
            self.notify("Restored the draft of this form.", timeout=3)
        screen = FormScreen(
            title, fields, submit, draft_key=key, drafts=self.host.drafts, restored=restored
        )
        await self.app.push_screen(screen, on_done)

    def refusal(self, error: Exception, names: Sequence[str]) -> dict[str, str]:
        """Errors by field of a failed send (anything but a 4xx goes on top of the form)."""
        if isinstance(error, APIStatusError) and 400 <= error.status < 500:
            found = field_errors(error, names)
            return {k: f"{v} [{error.status}]" for k, v in found.items()}
        return {"": error_text(error, self.client.base_url)}
