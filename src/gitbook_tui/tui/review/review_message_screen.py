"""ReviewMessageScreen: the optional message of a review (approve / request changes),
typed in the shared :class:`~..common.composer.Composer`.

The composer keeps the draft while typed and after ``escape``, ``ctrl+o`` moves the text
to ``$EDITOR``, and ``ctrl+s`` submits: the review is posted by ``submit`` (which raises
to refuse: the composer shows why and keeps the text) and the draft is removed only once
the server accepted it. A review needs no message: ``ctrl+s`` with an empty box submits
the review alone (the composer itself refuses to send nothing).
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from ...drafts import DraftKey, DraftStore
from ..common.composer import Composer, SendHandler
from ..common.modal import KitModal
from ..common.text import inert

__all__ = ["ReviewMessageScreen"]


class ReviewMessageScreen(KitModal[bool]):
    """Dismissed with ``True`` once the review was submitted, ``False`` on ``escape``
    (the draft is kept)."""

    DEFAULT_CSS = """
    ReviewMessageScreen { align: center middle; }
    ReviewMessageScreen > #review-dialog {
        width: 80; max-width: 95%; height: 16; max-height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    ReviewMessageScreen Composer { height: 1fr; border-top: none; }
    /* a failed send names the server and the request: wrap it rather than cut it */
    ReviewMessageScreen Composer > #composer-status { height: auto; max-height: 5; }
    ReviewMessageScreen #review-keys { color: $text-muted; height: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Checked before the composer's own ctrl+s (priority bindings run from the screen
        # down): an empty message still submits the review.
        Binding("ctrl+s", "send", "Submit", priority=True, id="review_message.send"),
    ]

    def __init__(
        self, title: str, store: DraftStore | None, key: DraftKey, submit: SendHandler
    ) -> None:
        super().__init__()
        self._title = title
        self.store = store
        self.key = key
        self.submit = submit

    def compose(self) -> ComposeResult:
        with Vertical(id="review-dialog") as dialog:
            dialog.border_title = inert(self._title)
            yield Composer(store=self.store, id="review-composer")
            yield Static(
                Content.assemble(
                    ("ctrl+s", "bold"),
                    " submit (message optional)  ",
                    ("ctrl+o", "bold"),
                    " $EDITOR  ",
                    ("escape", "bold"),
                    " keeps the draft",
                ),
                id="review-keys",
            )

    @property
    def composer(self) -> Composer:
        return self.query_one(Composer)

    async def on_mount(self) -> None:
        await self.composer.open(self.key, "Message (optional)", self.submit)

    async def action_send(self) -> None:
        composer = self.composer
        if composer.sending:
            return
        if composer.text.strip():
            await composer.action_send()  # posts Composer.Sent once accepted
            return
        try:
            await self.submit("")
        except Exception as exc:  # nothing typed, so nothing to keep: say why and stay
            composer.show_error(f"Not sent: {exc}")
            return
        self.dismiss(True)

    @on(Composer.Sent)
    def _sent(self) -> None:
        self.dismiss(True)

    @on(Composer.Hidden)
    def _hidden(self) -> None:
        self.dismiss(False)
