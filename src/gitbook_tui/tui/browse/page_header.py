"""PageHeader: breadcrumb, emoji and title with the last update, and the description.

Compact: one line of breadcrumb, one of title (the update date on its right, shortened or
left out when the title needs the room), the description clamped to ``max-height`` lines
(one by default; the stylesheet allows more on tall terminals) ending in an ellipsis.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

from ..common.text import cell_width, emoji_slot, inert
from .breadcrumb import Breadcrumb

__all__ = ["ClampedText", "PageHeader", "clamp_lines"]

ELLIPSIS = "…"
TITLE_GAP = 2  # columns between the title and the update date


def _local(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone()


def clamp_lines(text: Content, width: int, lines: int) -> list[Content]:
    """``text`` wrapped to ``width`` in at most ``lines`` lines, the last one ending in an
    ellipsis when some text was left out."""
    if width <= 0 or lines <= 0 or not text.plain:
        return []
    wrapped = text.wrap(width)
    if len(wrapped) <= lines:
        return wrapped
    last = wrapped[lines - 1].rstrip()
    if cell_width(last.plain) + 1 > width:
        last = last.truncate(width - 1)
    return [*wrapped[: lines - 1], last + Content(ELLIPSIS)]


class ClampedText(Widget):
    """Wrapped text of at most ``max-height`` lines (CSS, in cells), with an ellipsis."""

    DEFAULT_CSS = """
    ClampedText { height: auto; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._text = Content("")

    @property
    def text(self) -> Content:
        return self._text

    def set_text(self, text: Content) -> None:
        self._text = text
        self.refresh(layout=True)

    @property
    def max_lines(self) -> int:
        limit = self.styles.max_height
        if limit is not None and limit.is_cells:
            return max(1, int(limit.value))
        return 1_000

    def lines(self, width: int) -> list[Content]:
        return clamp_lines(self._text, width, self.max_lines)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Content:
        return Content("\n").join(self.lines(self.content_size.width))


class PageHeader(Vertical):
    """The head of the page pane; every text in it is inert."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._title = ""
        self._heading = Content("")
        self._updated: datetime | None = None

    def compose(self) -> ComposeResult:
        yield Breadcrumb(id="page-breadcrumb")
        with Horizontal(id="page-title-row"):
            yield Static("", id="page-title", markup=False)
            yield Static("", id="page-updated", markup=False)
        yield ClampedText(id="page-description")

    @property
    def title_text(self) -> str:
        """The page title as shown (controls stripped)."""
        return self._title

    @property
    def breadcrumb(self) -> Breadcrumb:
        return self.query_one(Breadcrumb)

    @property
    def description(self) -> ClampedText:
        return self.query_one("#page-description", ClampedText)

    @property
    def updated_text(self) -> str:
        """The update date as shown (it shortens when the title needs the room)."""
        stamp = self.query_one("#page-updated", Static)
        return str(stamp.content) if stamp.display else ""

    def show_page(
        self,
        trail: Sequence[str],
        *,
        title: str,
        emoji: str | None = None,
        description: str | None = None,
        updated: datetime | None = None,
    ) -> None:
        self._title = inert(title).plain
        self.breadcrumb.set_trail(trail)
        self.breadcrumb.display = bool(self.breadcrumb.parts)
        slot = emoji_slot(emoji)
        self._heading = Content(f"{slot} " if slot else "") + inert(
            title or "Untitled", style="bold"
        )
        self.query_one("#page-title", Static).update(self._heading)
        # one paragraph: the server's line breaks would waste the few lines it has
        about = " ".join((description or "").split())
        self.description.set_text(inert(about, style="italic"))
        self.description.display = bool(about)
        self._updated = updated
        self._fit_updated()

    def show_message(self, message: str | Content) -> None:
        """A line in place of a page (nothing open, loading, an error)."""
        self._title = ""
        self._heading = Content("")
        self._updated = None
        self.breadcrumb.set_trail([])
        self.breadcrumb.display = False
        self.query_one("#page-title", Static).update(
            message if isinstance(message, Content) else Content(message)
        )
        self.description.display = False
        self._fit_updated()

    def on_resize(self, event: events.Resize) -> None:
        self._fit_updated()

    def _fit_updated(self) -> None:
        """The longest form of the update date that leaves the whole title visible (the
        date goes first: the title is what the header is for)."""
        stamp = self.query_one("#page-updated", Static)
        if self._updated is None:
            stamp.display = False
            return
        moment = _local(self._updated)
        choices = [
            f"updated {moment:%Y-%m-%d %H:%M}",
            f"updated {moment:%Y-%m-%d}",
            f"{moment:%Y-%m-%d}",
        ]
        width = self.content_size.width
        room = width - cell_width(self._heading.plain) - TITLE_GAP if width else None
        fitting = [c for c in choices if room is None or cell_width(c) <= room]
        stamp.display = bool(fitting)
        if fitting:
            stamp.update(Content(fitting[0]))
