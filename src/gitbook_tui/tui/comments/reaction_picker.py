"""ReactionPicker: the 8 most used emoji on 1–8, or a shortcode (``:rocket:``); mine marked."""

from __future__ import annotations

from typing import ClassVar

from rich.emoji import Emoji, NoEmoji
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Static

from ..common.modal import KitModal
from ..common.text import inert
from .thread_data import TOP_EMOJI

__all__ = ["ReactionPicker", "emoji_from"]

MAX_EMOJI_CHARS = 16


def emoji_from(text: str) -> str | None:
    """An emoji from a shortcode (``rocket``, ``:rocket:``) or the emoji itself."""
    text = text.strip()
    name = text.strip(":").strip()
    if not name:
        return None
    if name.isascii():
        try:
            return str(Emoji(name.lower().replace(" ", "_").replace("-", "_")))
        except NoEmoji:
            return None
    if len(name) > MAX_EMOJI_CHARS or any(ch.isalnum() for ch in name):
        return None
    return name


class ReactionPicker(KitModal[str | None]):
    """Returns the chosen emoji (``None`` if cancelled). Choosing one in ``mine`` removes
    my reaction: the picker shows those highlighted with "remove"."""

    DEFAULT_CSS = """
    ReactionPicker { align: center middle; }
    ReactionPicker > #picker { width: 44; height: auto; border: round $accent;
                                background: $surface; padding: 0 1; }
    ReactionPicker #picker-choices { height: auto; margin-bottom: 1; }
    ReactionPicker #picker-error { color: $text-error; height: auto; }
    ReactionPicker #picker-keys { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="reactions.cancel"),
    ]

    def __init__(self, mine: set[str] | frozenset[str] = frozenset(), target: str = "") -> None:
        super().__init__()
        self.mine = set(mine)
        self.target = target

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Static(inert(f"React to {self.target}" if self.target else "React"), id="t")
            yield Static(self._choices(), id="picker-choices")
            yield Input(placeholder="1–8, or a shortcode like :rocket:", id="picker-input")
            yield Static("", id="picker-error", markup=False)
            yield Static(
                "enter choose · esc cancel · mine: chosen again removes it", id="picker-keys"
            )

    def _choices(self) -> Content:
        lines: list[Content] = []
        for number, emoji in enumerate(TOP_EMOJI, start=1):
            mine = emoji in self.mine
            label = f" {number} {emoji}" + (" (mine: remove)" if mine else "")
            lines.append(inert(label, style="bold $text-accent" if mine else ""))
        extra = sorted(self.mine - set(TOP_EMOJI))
        if extra:
            lines.append(inert(" mine: " + " ".join(extra), style="bold $accent"))
        return Content("\n").join(lines)

    @on(Input.Changed, "#picker-input")
    def _digit(self, event: Input.Changed) -> None:
        value = event.value
        if len(value) == 1 and value in "12345678":
            self.dismiss(TOP_EMOJI[int(value) - 1])

    @on(Input.Submitted, "#picker-input")
    def _submitted(self, event: Input.Submitted) -> None:
        emoji = emoji_from(event.value)
        if emoji is None:
            self.query_one("#picker-error", Static).update(
                inert(f"No emoji called {event.value.strip()!r}")
            )
            return
        self.dismiss(emoji)

    def action_cancel(self) -> None:
        self.dismiss(None)
