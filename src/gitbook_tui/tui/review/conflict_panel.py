"""ConflictPanel: why an update or merge answered 409, page by page.

The 409 names the conflicting pages only in its message; the panel lists them and, for
the selected one, shows base→main beside base→change request (two inline block diffs),
so the reader sees both edits. ``o`` opens the selected page (as it is in the change
request) in the web browser, ``e`` resolves it by editing the change request's page in
``$EDITOR`` (:mod:`.suggest_edit`, into this change request; another author's change
request is only edited once the reader confirmed whose work it changes and which reviews
become outdated) and then offers to try the update or merge again; ``j``/``k`` pick a
page, ``escape`` closes. Nothing is changed on the server unless an edit is saved.

The three sides are fetched together and both diffs made in worker threads the review
pane's way (:func:`.page_diff.diff_sides`: parsed and folded off the UI thread); each side
says what it is waiting for until its diff is shown.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...api import AsyncGitBook, GitBookError
from ...markdown.sanitize import clean_text
from ..common.confirm_screen import ConfirmScreen
from ..common.link_targets import open_in_browser, open_in_web_page
from ..common.modal import KitModal
from ..common.navigator import navigator_of
from ..common.pane_group import pane_switch_binding
from ..common.text import inert
from ..render.diff_view import DiffView
from .page_diff import diff_sides
from .review_data import ReviewState, conflicting_pages
from .review_ops import conflict_sides
from .suggest_edit import suggest_edit

__all__ = ["ConflictPanel"]


class ConflictPanel(KitModal[bool]):
    """The conflicting pages of a change request and both sides' edits of each; dismissed
    with ``True`` when the reader asked to try the update or merge again."""

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
        Binding("e", "edit", "Resolve in $EDITOR", id="conflict.edit"),
        Binding("j", "move(1)", "Next page", show=False, id="conflict.down"),
        Binding("k", "move(-1)", "Prev page", show=False, id="conflict.up"),
        pane_switch_binding("conflict.switch_focus", "Pages/sides"),
        Binding("L", "toggle_link", "Link/unlink sides", id="conflict.link"),
    ]

    linked = reactive(True)
    """The two sides scroll together (``L`` unlinks them, to read one side alone)."""

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
        self.page_urls: dict[str, str] = {}
        """Page id → its address in the web app (from the change request's side)."""
        self.current: str | None = self.titles[0] if self.titles else None
        self.edited = asyncio.Event()
        """Set once an edit made here was posted (tests wait on it)."""

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

    def on_mount(self) -> None:
        views = list(self.query(DiffView))
        for view in views:
            view.mode = "inline"
        for view, other in ((views[0], views[1]), (views[1], views[0])):
            self.watch(view, "scroll_y", self._follower(other), init=False)
        if self.titles:
            self.query_one(OptionList).focus()
            self._load(self.titles[0])
        else:
            for view in self.query(DiffView):
                view.show_message("The server named no pages.")

    @on(OptionList.OptionHighlighted)
    def _picked(self, event: OptionList.OptionHighlighted) -> None:
        self.current = self.titles[int(event.option.id or 0)]
        self._load(self.current)

    @work(exclusive=True, group="conflict-load", exit_on_error=False)
    async def _load(self, title: str) -> None:
        main_view = self.query_one("#conflict-main", DiffView)
        cr_view = self.query_one("#conflict-cr", DiffView)
        page_id = self.page_ids.get(title)
        if page_id is None:
            for view in (main_view, cr_view):
                view.show_message("This page is not among the change request's changes.")
            return
        cr = self.state.cr
        main_view.show_message("Loading the page at the base and on main…")
        cr_view.show_message(f"Loading the page at the base and in #{cr.number}…")

        def remember_url(url: str) -> None:
            self.page_urls[page_id] = url

        try:
            sides = await conflict_sides(self.client, self.state, page_id, remember_url)
        except GitBookError as exc:
            for view in (main_view, cr_view):
                view.show_message(f"Could not load the page: {exc}")
            return
        base = sides.base

        async def diff_into(view: DiffView, new: str | None) -> None:
            view.show_message("Comparing…")
            view.show(await asyncio.to_thread(diff_sides, base, new))

        await asyncio.gather(diff_into(main_view, sides.main), diff_into(cr_view, sides.mine))

    def _follower(self, other: DiffView) -> Callable[[float], None]:
        """A watcher of one side's scroll: the other side follows while they are linked
        (it settles at the same row, so the two never chase each other)."""

        def follow(y: float) -> None:
            if self.linked and round(other.scroll_y) != round(y):
                other.scroll_to(y=y, animate=False, immediate=True)

        return follow

    def action_toggle_link(self) -> None:
        self.linked = not self.linked
        self.notify(
            "The sides scroll together." if self.linked else "Each side scrolls on its own.",
            timeout=3,
        )

    def action_switch_focus(self) -> None:
        """The kit's pane switch: pages → main's side → the change request's side → pages."""
        order: list[Widget] = [*self.query(OptionList), *self.query(DiffView)]
        focused = next((i for i, w in enumerate(order) if w.has_focus), -1)
        order[(focused + 1) % len(order)].focus()

    def action_move(self, step: int) -> None:
        options = self.query(OptionList)
        if options:
            (options.first().action_cursor_down if step > 0 else options.first().action_cursor_up)()

    def action_open_web(self) -> None:
        page_id = self.page_ids.get(self.current or "")
        url = self.page_urls.get(page_id or "")
        what = "the page"
        if url is None:  # not loaded (or not among the changes): the change request itself
            url = self.state.cr.urls.app if self.state.cr.urls else None
            what = "the change request"
        if not url or not url.startswith(("http://", "https://")):
            self.notify(
                clean_text(f"Only web (http/https) addresses open; {what} is at {url or '(none)'}"),
                markup=False,
                timeout=8,
            )
        elif not (open_in_web_page(self.app, url) or open_in_browser(url)):
            self.notify(clean_text(f"No browser here; {what} is at {url}"), markup=False, timeout=8)

    def action_edit(self) -> None:
        page_id = self.page_ids.get(self.current or "")
        if page_id is None:
            self.notify("Choose a page of the change request's changes to edit.", timeout=6)
            return
        self._edit(page_id)

    @work(exclusive=True, group="conflict-edit", exit_on_error=False)
    async def _edit(self, page_id: str) -> None:
        nav = navigator_of(self.app)
        if nav is None:
            return
        cr = self.state.cr
        posted = await suggest_edit(
            self.app, nav, self.state.space.id, page_id, into=cr, open_review=False
        )
        if posted is None:
            return
        self.edited.set()
        if self.current is not None:
            self._load(self.current)
        verb = "update" if self.verb == "updated" else "merge"
        again = await self.app.push_screen_wait(
            ConfirmScreen(
                f"Try the {verb} of #{cr.number} again?",
                "Your edit is in the change request. Trying again asks the server to "
                f"{verb} it now; escape stays here.",
                confirm_label=f"Retry {verb}",
            )
        )
        if again:
            self.dismiss(True)

    def action_close(self) -> None:
        self.dismiss(False)
