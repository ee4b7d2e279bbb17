"""ConflictPanel: why an update or merge answered 409, page by page.

The 409 names the conflicting pages only in its message; the panel lists them and, for
the selected one, shows base→main beside base→change request (two inline block diffs),
so the reader sees both edits. ``o`` opens the change request in the web app, ``j``/``k``
pick a page, ``escape`` closes. Nothing was changed on the server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...api import AsyncGitBook, GitBookError, NotFoundError
from ...markdown.diff import diff_markdown
from ...markdown.sanitize import clean_text
from ...models import RevisionPage
from ..common.link_targets import open_in_browser
from ..common.text import inert
from .diff_view import DiffView
from .review_data import ReviewState, conflicting_pages

__all__ = ["ConflictPanel"]


async def _markdown(read: Callable[[], Awaitable[RevisionPage]]) -> str | None:
    """The page's markdown (``None`` when the page does not exist on that side); ``read``
    makes the request only when awaited (a cancelled load leaves no stray coroutine)."""
    try:
        page = await read()
    except NotFoundError:
        return None
    return page.markdown or ""


class ConflictPanel(ModalScreen[None]):
    """The conflicting pages of a change request and both sides' edits of each."""

    DEFAULT_CSS = """
    ConflictPanel { align: center middle; }
    ConflictPanel > #conflict-dialog {
        width: 95%; height: 90%; border: thick $error; background: $surface; padding: 0 1;
    }
    ConflictPanel #conflict-message { height: auto; margin-bottom: 1; }
    ConflictPanel OptionList { height: auto; max-height: 6; }
    ConflictPanel #conflict-sides { height: 1fr; }
    ConflictPanel .conflict-side { width: 1fr; border: round $panel; }
    ConflictPanel #conflict-keys { color: $text-muted; height: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="conflict.close"),
        Binding("o", "open_web", "Open in browser", id="conflict.open"),
        Binding("j", "move(1)", "Next page", show=False, id="conflict.down"),
        Binding("k", "move(-1)", "Prev page", show=False, id="conflict.up"),
    ]

    def __init__(self, client: AsyncGitBook, state: ReviewState, message: str, verb: str) -> None:
        super().__init__()
        self.client = client
        self.state = state
        self.message = message
        self.verb = verb
        self.titles = conflicting_pages(message)
        ids: dict[str, str] = {}
        for change in state.changes:
            if change.page is not None and change.page.title:
                ids.setdefault(change.page.title, change.page.id)
        self.page_ids = {title: ids.get(title) for title in self.titles}

    def compose(self) -> ComposeResult:
        cr = self.state.cr
        with Vertical(id="conflict-dialog") as dialog:
            dialog.border_title = f"Conflicts: #{cr.number} can't be {self.verb}"
            yield Static(inert(self.message), id="conflict-message")
            if self.titles:
                yield OptionList(
                    *(Option(inert(t), id=str(i)) for i, t in enumerate(self.titles)),
                    id="conflict-pages",
                )
            with Horizontal(id="conflict-sides"):
                with Vertical(classes="conflict-side") as main_side:
                    main_side.border_title = "base → main"
                    yield DiffView(id="conflict-main")
                with Vertical(classes="conflict-side") as cr_side:
                    cr_side.border_title = f"base → #{cr.number}"
                    yield DiffView(id="conflict-cr")
            yield Static(
                Content.assemble(
                    ("o", "bold"),
                    " open in browser  ",
                    ("j/k", "bold"),
                    " page  ",
                    ("escape", "bold"),
                    " close · nothing was changed",
                ),
                id="conflict-keys",
            )

    def on_mount(self) -> None:
        for view in self.query(DiffView):
            view.mode = "inline"
        if self.titles:
            self.query_one(OptionList).focus()
            self._load(self.titles[0])
        else:
            for view in self.query(DiffView):
                view.show_message("The server named no pages.")

    @on(OptionList.OptionHighlighted)
    def _picked(self, event: OptionList.OptionHighlighted) -> None:
        self._load(self.titles[int(event.option.id or 0)])

    @work(exclusive=True, group="conflict-load", exit_on_error=False)
    async def _load(self, title: str) -> None:
        main_view = self.query_one("#conflict-main", DiffView)
        cr_view = self.query_one("#conflict-cr", DiffView)
        page_id = self.page_ids.get(title)
        if page_id is None:
            for view in (main_view, cr_view):
                view.show_message("This page is not among the change request's changes.")
            return
        for view in (main_view, cr_view):
            view.show_message("Loading…")
        cr, space = self.state.cr, self.state.space.id
        base_rev = cr.revisionMergedAncestor or cr.revisionInitial or ""
        content = self.client.content
        try:
            base, main, mine = await asyncio.gather(
                _markdown(
                    lambda: content.revision_page(space, base_rev, page_id, format="markdown")
                ),
                _markdown(
                    lambda: content.get_page(space, page_id, format="markdown", read="network")
                ),
                _markdown(
                    lambda: content.get_page(
                        space, page_id, change_request=cr.id, format="markdown", read="network"
                    )
                ),
            )
        except GitBookError as exc:
            for view in (main_view, cr_view):
                view.show_message(f"Could not load the page: {exc}")
            return
        to_main, to_cr = await asyncio.gather(
            asyncio.to_thread(diff_markdown, base, main),
            asyncio.to_thread(diff_markdown, base, mine),
        )
        main_view.show(to_main)
        cr_view.show(to_cr)

    def action_move(self, step: int) -> None:
        options = self.query(OptionList)
        if options:
            (options.first().action_cursor_down if step > 0 else options.first().action_cursor_up)()

    def action_open_web(self) -> None:
        url = self.state.cr.urls.app if self.state.cr.urls else None
        if not url or not url.startswith(("http://", "https://")) or not open_in_browser(url):
            self.notify(
                clean_text(f"No browser here; the change request is at {url or '(no address)'}"),
                markup=False,
                timeout=8,
            )

    def action_close(self) -> None:
        self.dismiss(None)
