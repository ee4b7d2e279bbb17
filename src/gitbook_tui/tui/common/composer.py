"""Composer: a text box whose draft is saved as you type and only removed once it was sent.

API (shared by the comments view and the review desk)::

    composer = Composer(id="composer")            # hidden until opened; mount it once
    await composer.open(draft_key, "Reply to Lee", on_send, initial="")
    # on_send: async (text) -> None; raise to refuse (the message is shown, text kept)

- Drafts live in the account's :class:`~gitbook_tui.drafts.DraftStore` (built from
  ``app.client`` unless ``store=`` is given), saved through a
  :class:`~gitbook_tui.drafts.Debouncer` (~1 s after typing pauses; flushed on send, hide
  and unmount). Opening a key that has a draft restores it (``initial`` only fills an
  empty composer, e.g. the body of a comment being edited).
- ``ctrl+s`` sends: the draft is flushed first, ``on_send(text)`` is awaited, and only
  when it returns is the draft discarded (:meth:`Debouncer.discard` with ``sent_text``,
  so words typed meanwhile survive). If it raises, the composer stays open with the error.
- ``escape`` hides the composer and keeps the draft; :class:`Composer.Hidden` is posted.
- ``ctrl+o`` moves the text into ``$VISUAL``/``$EDITOR`` (:mod:`.external_editor`).
- ``members`` (display names) feed ``@`` mention completion: the rest of the first match
  shows as a suggestion, ``tab`` or ``right`` puts the name in place of what was typed
  after ``@`` (``@le`` becomes ``@Lee Whitfield``).
- The text is counted as typed against the one body limit the server enforces
  (:data:`~gitbook_tui.models.limits.MAX_BODY_CHARS`): the count shows from
  :data:`NEAR_LIMIT` of it on, and ``ctrl+s`` over the limit sends nothing and says by how
  much it is over (the text and its draft are kept).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static, TextArea

from ...drafts import Debouncer, DraftKey, DraftStore
from ...models.limits import MAX_BODY_CHARS
from .external_editor import ExternalEditorError, edit_externally
from .state import account_key
from .text import form_value, inert

__all__ = ["NEAR_LIMIT", "Composer", "ComposerArea", "SendHandler", "length_note", "too_long"]

SendHandler = Callable[[str], Awaitable[None]]
_MENTION = re.compile(r"(?:^|\s)@([^\s@]{0,40})$")

NEAR_LIMIT = 0.9
"""The share of the limit from which the count shows (well before a send is refused)."""


def length_note(count: int, limit: int = MAX_BODY_CHARS) -> str:
    """The count as shown near or over the limit ("" while far below it)."""
    if count > limit:
        return f"{count:,} / {limit:,} characters: {_chars(count - limit)} over the limit"
    if count >= limit * NEAR_LIMIT:
        return f"{count:,} / {limit:,} characters"
    return ""


def too_long(count: int, limit: int = MAX_BODY_CHARS) -> str | None:
    """Why a text of ``count`` characters can't be sent (``None``: it can)."""
    if count <= limit:
        return None
    return f"Not sent: {_chars(count - limit)} over the {limit:,} limit; your text is kept."


def _chars(count: int) -> str:
    return f"{count:,} character{'' if count == 1 else 's'}"


class ComposerArea(TextArea):
    """The composer's TextArea: ``@`` completes organization members."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "accept_mention", "Complete", show=False, id="composer.complete"),
    ]

    members: Sequence[str] = ()

    def _mention(self) -> tuple[str, str] | None:
        """(what was typed after ``@`` before the cursor, the first member it starts)."""
        row, column = self.cursor_location
        match = _MENTION.search(self.document.get_line(row)[:column])
        if match is None:
            return None
        typed = match.group(1)
        for name in self.members:
            if name.lower().startswith(typed.lower()) and len(name) > len(typed):
                return typed, name
        return None

    def update_suggestion(self) -> None:
        mention = self._mention()
        self.suggestion = mention[1][len(mention[0]) :] if mention is not None else ""

    def _complete(self) -> bool:
        """Put the member's name in place of the typed prefix (its case, typed
        differently, would otherwise stay: "@le" + "e Whitfield")."""
        mention = self._mention() if self.suggestion else None
        if mention is None:
            return False
        typed, name = mention
        row, column = self.cursor_location
        self.replace(
            name, (row, column - len(typed)), (row, column), maintain_selection_offset=False
        )
        return True

    def action_accept_mention(self) -> None:
        if not self._complete():
            self.screen.focus_next()

    def action_cursor_right(self, select: bool = False) -> None:
        if select or not self._complete():
            super().action_cursor_right(select)


class Composer(Vertical):
    """Title line, text box and a status line (draft saved / error). See the module doc."""

    DEFAULT_CSS = """
    Composer { height: 10; border-top: solid $accent; display: none; }
    Composer.-open { display: block; }
    Composer > #composer-title { height: 1; color: $text-accent; text-style: bold; }
    Composer > ComposerArea { height: 1fr; border: none; padding: 0; }
    Composer > #composer-status { height: 1; color: $text-muted; }
    Composer > #composer-status.-error { color: $text-error; }
    Composer > #composer-count { height: 1; color: $text-warning; display: none; }
    Composer > #composer-count.-shown { display: block; }
    Composer > #composer-count.-over { color: $text-error; text-style: bold; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Send", priority=True, id="composer.send"),
        Binding("escape", "hide", "Hide (keep draft)", id="composer.hide"),
        Binding("ctrl+o", "external_editor", "$EDITOR", id="composer.editor"),
    ]

    class Hidden(Message):
        """Closed with escape; the draft is kept."""

    class Sent(Message):
        """The server accepted the text (``on_send`` returned)."""

        def __init__(self, key: DraftKey, text: str) -> None:
            super().__init__()
            self.key = key
            self.text = text

    def __init__(
        self,
        *,
        store: DraftStore | None = None,
        delay: float = 1.0,
        limit: int = MAX_BODY_CHARS,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._store = store
        self.limit = limit
        self._delay = delay
        self._debouncer: Debouncer | None = None
        self.key: DraftKey | None = None
        self.title = ""
        self._on_send: SendHandler | None = None
        self.sending = False
        self.error: str | None = None
        self._restoring = False

    def compose(self) -> ComposeResult:
        yield Static(id="composer-title", markup=False)
        yield ComposerArea(id="composer-area", soft_wrap=True, tab_behavior="focus")
        yield Static(id="composer-status", markup=False)
        yield Static(id="composer-count", markup=False)

    # -- API --------------------------------------------------------------------------------
    @property
    def area(self) -> ComposerArea:
        return self.query_one(ComposerArea)

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    @property
    def text(self) -> str:
        return self.area.text

    @property
    def debouncer(self) -> Debouncer:
        if self._debouncer is None:
            store = self._store
            if store is None:
                store = DraftStore(account_key(self.app.client))  # type: ignore[attr-defined]
            self._debouncer = Debouncer(store, delay=self._delay, on_error=self._save_failed)
        return self._debouncer

    def set_members(self, names: Sequence[str]) -> None:
        """Display names offered after ``@``."""
        self.area.members = tuple(names)

    async def open(
        self, key: DraftKey, title: str, on_send: SendHandler, *, initial: str = ""
    ) -> None:
        """Show the composer for ``key`` (its saved draft, else ``initial``) and focus it."""
        if self.key is not None and self.key != key:
            await self.debouncer.flush(self.key)
        same = self.key == key and self.is_open
        self.key, self.title, self._on_send = key, title, on_send
        self.query_one("#composer-title", Static).update(inert(title))
        if not same:
            # open and focused before the draft is read: keys typed meanwhile are kept
            self._restoring = True
            self.area.load_text("")
            self.add_class("-open")
            self.area.focus()
            unsaved = self.debouncer.unsaved(key)
            draft = await self.debouncer.load(key) if unsaved is None else None
            text = (
                unsaved if unsaved is not None else (draft.text if draft else form_value(initial))
            )
            typed = self.area.text
            if text:
                self._restoring = not typed
                self.area.load_text(text + typed)
                self.area.move_cursor(self.area.document.end)
            self._show_status("draft restored" if unsaved or draft else "")
        self._count(self.area.text)
        self.add_class("-open")
        self.area.focus()

    async def hide(self) -> None:
        """Hide, keeping the draft on disk."""
        if self.key is not None:
            await self.debouncer.flush(self.key)
        self._close()
        self.post_message(self.Hidden())

    def _close(self) -> None:
        """Hidden, and the focus out of it now: the screen gives it to a pane when it handles
        ``Hidden``/``Sent``, a message later, and a key pressed meanwhile would otherwise be
        typed into the hidden text."""
        self.remove_class("-open")
        if self.has_focus_within:
            self.screen.set_focus(None)

    # -- events -----------------------------------------------------------------------------
    @on(TextArea.Changed)
    def _typed(self, event: TextArea.Changed) -> None:
        event.stop()
        text = self.area.text
        self._count(text)
        if self._restoring:
            self._restoring = False
            return
        if self.key is not None:
            self.debouncer.schedule(self.key, text, title=self.title)

    def _count(self, text: str) -> None:
        """Show the count near or over the limit (hidden while far below it)."""
        note = length_note(len(text), self.limit)
        count = self.query_one("#composer-count", Static)
        count.update(note)
        count.set_class(bool(note), "-shown")
        count.set_class(len(text) > self.limit, "-over")

    def _save_failed(self, key: DraftKey, error: Exception) -> None:
        self._show_status(f"could not save the draft: {error}", error=True)

    def _show_status(self, text: str, *, error: bool = False) -> None:
        status = self.query_one("#composer-status", Static)
        status.update(inert(text))
        status.set_class(error, "-error")
        self.error = text if error else None

    def show_error(self, text: str) -> None:
        """Show why something failed under the text (it stays until the next status)."""
        self._show_status(text, error=True)

    async def on_unmount(self) -> None:
        if self._debouncer is not None:
            await self._debouncer.close()

    # -- actions ----------------------------------------------------------------------------
    async def action_send(self) -> None:
        key, on_send, text = self.key, self._on_send, self.area.text
        if key is None or on_send is None or self.sending:
            return
        if not text.strip():
            self._show_status("Nothing to send yet.", error=True)
            return
        await self.debouncer.flush(key)
        refused = too_long(len(text), self.limit)
        if refused is not None:  # the server would refuse it too: say so before it is sent
            self._show_status(refused, error=True)
            return
        self.sending = True
        self._show_status("sending…")
        try:
            await on_send(text)
        except Exception as exc:  # shown to the user; the draft stays on disk
            self._show_status(f"Not sent: {exc}", error=True)
            return
        finally:
            self.sending = False
        await self.debouncer.discard(key, sent_text=text)
        if self.key == key and self.area.text == text:
            self._restoring = True
            self.area.load_text("")
            self._count("")
        self._show_status("")
        self._close()
        self.post_message(self.Sent(key, text))

    async def action_hide(self) -> None:
        await self.hide()

    async def action_external_editor(self) -> None:
        try:
            edited = await edit_externally(self.app, self.area.text)
        except ExternalEditorError as exc:
            self._show_status(str(exc), error=True)
            return
        if edited is None:
            self._show_status("The editor exited with an error; text unchanged.", error=True)
            return
        self.area.load_text(edited.rstrip("\n"))
        self.area.move_cursor(self.area.document.end)
        self._count(self.area.text)
        self._show_status("text from the editor")
