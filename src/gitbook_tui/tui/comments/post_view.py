"""PostView: one comment or reply — author, time, edited/pending marks, body, reactions."""

from __future__ import annotations

from datetime import datetime

from textual.app import ComposeResult
from textual.color import Color
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from ..common.text import inert
from .mark_colours import mark_colours
from .markdown_body import MarkdownBody
from .reaction_summary import reactions_summary
from .thread_data import Post, age, author_name, body_markdown

__all__ = ["PostView"]


class PostView(Vertical):
    """A post of a thread; ``-reply`` indents replies, ``-selected`` marks the cursor."""

    DEFAULT_CSS = """
    PostView { height: auto; padding: 0 1 1 1; }
    PostView.-reply { padding-left: 3; }
    PostView.-selected { background: $boost; border-left: thick $foreground 50%; }
    ThreadPane:focus-within PostView.-selected { border-left: thick $accent; }
    PostView > .post--header { height: 1; }
    PostView > .post--reactions { height: auto; }
    """

    def __init__(
        self,
        post: Post,
        *,
        me: str | None,
        reply: bool,
        pending: bool = False,
        new: bool = False,
        now: datetime | None = None,
    ) -> None:
        super().__init__(classes="-reply" if reply else "")
        self.post = post
        self.me = me
        self.pending = pending
        self.new = new
        self.now = now

    def compose(self) -> ComposeResult:
        # drawn now in the theme's mark colours (no blank first frame), and again on mount
        # in colours readable on this pane's background
        yield Static(self._header(), classes="post--header", markup=False)
        yield MarkdownBody(body_markdown(self.post), classes="post--body")
        reactions = Static(self._reactions(), classes="post--reactions", markup=False)
        reactions.display = bool(self.post.reactions)  # no empty line under every post
        yield reactions

    def _header(self) -> Content:
        post = self.post
        parts: list[Content] = [
            inert("↳ " if self.has_class("-reply") else "", style="$text-muted"),
            inert(author_name(post.postedBy), style="bold"),
            inert(f" · {age(post.postedAt, self.now)}", style="$text-muted"),
        ]
        if post.editedAt is not None:
            parts.append(inert(" · edited", style="italic $text-muted"))
        warning, accent = self._mark_colours()
        if self.pending:
            parts.append(inert(" ⧗ sending", style=warning))
        if self.new:
            parts.append(inert(" ● new", style=f"bold {accent}"))
        return Content("").join(parts)

    def _reactions(self) -> Content:
        _, accent = self._mark_colours()
        return reactions_summary(self.post.reactions, self.me, f"bold underline {accent}")

    def _mark_colours(self) -> tuple[str, str]:
        """(warning, accent) readable on the pane's background whether or not this post is
        the selected one (its ``$boost``), so the marks never depend on when the post's own
        styles and selection were applied; theme colours in ANSI themes."""
        pane = self.parent
        try:
            colours = None
            if isinstance(pane, Widget) and self.is_mounted:
                boost = Color.parse(self.app.theme_variables.get("boost", "transparent"))
                selected = pane.background_colors[1] + boost
                colours = mark_colours(pane, selected.rich_color)
        except Exception:  # (an ANSI theme's colours)
            colours = None
        return colours or ("$text-warning", "$text-accent")

    def on_mount(self) -> None:
        self._redraw_marks()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._redraw_marks())

    def _redraw_marks(self) -> None:
        """Draw the header and reactions again in the colours of the current theme."""
        self.query_one(".post--header", Static).update(self._header())
        self.query_one(".post--reactions", Static).update(self._reactions())

    def refresh_post(self, post: Post, *, pending: bool) -> None:
        """Show a changed post (an optimistic or confirmed edit) in place."""
        body_changed = body_markdown(post) != body_markdown(self.post)
        self.post, self.pending = post, pending
        self.query_one(".post--header", Static).update(self._header())
        reactions = self.query_one(".post--reactions", Static)
        reactions.update(self._reactions())
        reactions.display = bool(post.reactions)
        if body_changed:
            self.query_one(MarkdownBody).update(body_markdown(post))
