"""ReviewMessageScreen: the optional message of a review (approve / request changes).

A stopgap until the shared Composer (``tui/common/composer.py``) lands on main: a TextArea
whose text is saved as a draft while typed (the drafts store, debounced) and restored when
the screen opens again. ``ctrl+s`` submits (an empty message is fine), ``escape`` closes
and keeps the draft. The caller deletes the draft once the server accepted the review.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from ...drafts import Debouncer, DraftKey, DraftStore
from ..common.text import inert

__all__ = ["ReviewMessageScreen"]


class ReviewMessageScreen(ModalScreen[str | None]):
    """Returns the message (possibly empty) on ``ctrl+s``, ``None`` on ``escape``."""

    DEFAULT_CSS = """
    ReviewMessageScreen { align: center middle; }
    ReviewMessageScreen > #review-dialog {
        width: 80; max-width: 95%; height: 16; max-height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    ReviewMessageScreen TextArea { height: 1fr; }
    ReviewMessageScreen #review-keys { color: $text-muted; height: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Submit", priority=True, id="review_message.send"),
        Binding("escape", "close", "Close (draft kept)", id="review_message.close"),
    ]

    def __init__(self, title: str, store: DraftStore | None, key: DraftKey) -> None:
        super().__init__()
        self._title = title
        self.store = store
        self.key = key
        self.debouncer = Debouncer(store) if store is not None else None

    def compose(self) -> ComposeResult:
        with Vertical(id="review-dialog") as dialog:
            dialog.border_title = inert(self._title)
            draft = self.store.load(self.key) if self.store is not None else None
            yield TextArea(draft.text if draft else "", id="review-text", soft_wrap=True)
            yield Static(
                Content.assemble(
                    ("ctrl+s", "bold"),
                    " submit (message optional)   ",
                    ("escape", "bold"),
                    " close, draft kept",
                ),
                id="review-keys",
            )

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    @on(TextArea.Changed)
    def _typed(self, event: TextArea.Changed) -> None:
        if self.debouncer is not None:
            self.debouncer.schedule(self.key, event.text_area.text)

    async def _flush(self) -> None:
        if self.debouncer is not None:
            await self.debouncer.flush()

    async def action_send(self) -> None:
        await self._flush()
        self.dismiss(self.query_one(TextArea).text.strip())

    async def action_close(self) -> None:
        await self._flush()
        self.dismiss(None)
