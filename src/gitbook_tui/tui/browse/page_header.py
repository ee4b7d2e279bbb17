"""PageHeader: breadcrumb, emoji and title with the open comment threads and the last
update, and the description.

Compact: one line of breadcrumb, one of title (on its right the open threads of the page
and of its space, ``💬 3 on this page · 12 in space``, then the update date; the date
shortens first, then the counts, when the title needs the room), the description clamped
to ``max-height`` lines (one by default; the stylesheet allows more on tall terminals)
ending in an ellipsis. A count not known (yet) is left out, never shown as 0; nothing is
shown when the space has no open threads.
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

    DEFAULT_CSS = """
    PageHeader #page-comments {
        width: auto;
        height: 1;
        margin-left: 2;
        color: $text-muted;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._title = ""
        self._heading = Content("")
        self._updated: datetime | None = None
        self._page_comments: int | None = None
        self._space_comments: int | None = None
        # made here and kept (no query): the header is updated from workers and handlers
        # that may run while the screen is still composing or being removed
        self._breadcrumb = Breadcrumb(id="page-breadcrumb")
        self._title_line = Static("", id="page-title", markup=False)
        self._comments = Static("", id="page-comments", markup=False)
        self._stamp = Static("", id="page-updated", markup=False)
        self._description = ClampedText(id="page-description")

    def compose(self) -> ComposeResult:
        yield self._breadcrumb
        with Horizontal(id="page-title-row"):
            yield self._title_line
            yield self._comments
            yield self._stamp
        yield self._description

    @property
    def title_text(self) -> str:
        """The page title as shown (controls stripped)."""
        return self._title

    @property
    def breadcrumb(self) -> Breadcrumb:
        return self._breadcrumb

    @property
    def description(self) -> ClampedText:
        return self._description

    @property
    def updated_text(self) -> str:
        """The update date as shown (it shortens when the title needs the room)."""
        stamp = self._stamp
        return str(stamp.content) if stamp.display else ""

    @property
    def comments_text(self) -> str:
        """The open-thread counts as shown ("" when unknown or left out for room)."""
        comments = self._comments
        return str(comments.content) if comments.display else ""

    def show_comments(self, *, page: int | None, space: int | None) -> None:
        """The open threads of the page and of its space (None: not known)."""
        self._page_comments, self._space_comments = page, space
        self._fit_updated()

    def show_page(
        self,
        trail: Sequence[str],
        *,
        title: str,
        emoji: str | None = None,
        description: str | None = None,
        updated: datetime | None = None,
        marker: str = "",
    ) -> None:
        """``marker``: shown before the title, reversed ("at revision … (date)": a past
        text, not today's)."""
        self._title = inert(title).plain
        self.breadcrumb.set_trail(trail)
        self.breadcrumb.display = bool(self.breadcrumb.parts)
        slot = emoji_slot(emoji)
        self._heading = Content(f"{slot} " if slot else "") + inert(
            title or "Untitled", style="bold"
        )
        if marker:
            self._heading = inert(f" {marker} ", style="reverse") + " " + self._heading
        self._title_line.update(self._heading)
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
        self._page_comments = self._space_comments = None
        self.breadcrumb.set_trail([])
        self.breadcrumb.display = False
        self._title_line.update(message if isinstance(message, Content) else Content(message))
        self.description.display = False
        self._fit_updated()

    def on_resize(self, event: events.Resize) -> None:
        self._fit_updated()

    def _count_forms(self) -> list[str]:
        """The counts as text, longest first ([] when none is known, or there are no open
        threads at all: a header of every quiet page need not say so)."""
        page, space = self._page_comments, self._space_comments
        if not page and not space:
            return []
        if page is None:
            return [] if space is None else [f"💬 {space} in space"]
        short = f"💬 {page}"
        if space is None:
            return [f"{short} on this page", short]
        return [f"{short} on this page · {space} in space", short]

    def _fit_updated(self) -> None:
        """The longest forms of the counts and the update date that leave the whole title
        visible (the date shortens first, then the counts: the title is what the header
        is for)."""
        dates: list[str] = []
        if self._updated is not None:
            moment = _local(self._updated)
            dates = [
                f"updated {moment:%Y-%m-%d %H:%M}",
                f"updated {moment:%Y-%m-%d}",
                f"{moment:%Y-%m-%d}",
            ]
        counts = self._count_forms()
        choices: list[tuple[str, str]] = [("", date) for date in dates]
        if counts:
            choices = [(counts[0], date) for date in dates]
            choices += [(counts[-1], date) for date in dates[-1:]]
            choices += [(count, "") for count in counts]
        width = self.content_size.width
        room = width - cell_width(self._heading.plain) - TITLE_GAP if width else None
        count, date = next(
            (
                (count, date)
                for count, date in choices
                if room is None
                or cell_width(count) + cell_width(date) + (TITLE_GAP if count and date else 0)
                <= room
            ),
            ("", ""),
        )
        self._comments.display = bool(count)
        if count:
            self._comments.update(Content(count))
        self._stamp.display = bool(date)
        if date:
            self._stamp.update(Content(date))
