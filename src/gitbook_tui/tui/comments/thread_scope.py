"""ThreadScope: which threads the Comments view lists — status, author, page or space, the
``/`` filter — and ``p``, which leaves for the thread's page."""

from __future__ import annotations

from ...api import GitBookError
from ..common.intents import OpenPage
from ..common.text import plain
from .author_picker import AuthorPicker
from .comment_actions import NO_SPACE
from .comments_host import CommentsHost
from .thread_data import author_name
from .thread_loader import ThreadLoader
from .thread_requests import read_commenters

__all__ = ["ThreadScope"]


class ThreadScope:
    """The scope and filters of the Comments screen (``host``); ``loader`` reads again."""

    def __init__(self, host: CommentsHost, loader: ThreadLoader) -> None:
        self.host = host
        self.state = host.state
        self.loader = loader

    def reload(self) -> None:
        """Read the threads afresh (the scope or a filter changed)."""
        self.state.loaded = False
        self.state.clear_threads()
        self.host.draw_title()
        self.loader.show_empty()
        self.loader.load()

    def cycle_status(self) -> None:
        self.state.cycle_status()
        self.reload()

    def toggle_scope(self) -> None:
        """The open page's threads, or the whole space's."""
        host, state = self.host, self.state
        if state.change_request is not None:
            host.notify("These are the change request's threads (escape: back).", timeout=3)
            return
        if state.page_scope is not None:
            state.page_scope = None
        elif host.nav.page_id and host.nav.space_id == state.space_id:
            state.page_scope = host.nav.page_id
        else:
            host.notify("Open a page of this space to see only its threads.", timeout=3)
            return
        self.reload()

    async def pick_author(self) -> None:
        """Only the threads of one commenter (or anyone's), picked from those of the space."""
        host, state = self.host, self.state
        if state.space_id is None:
            host.notify(NO_SPACE, timeout=4, markup=False)
            return
        try:
            users = await read_commenters(
                host.client, state.space_id, change_request=state.change_request
            )
        except GitBookError as exc:
            message = plain(f"Could not list the commenters: {exc}")
            host.notify(message, severity="error", markup=False)
            return
        choice = await host.app.push_screen_wait(AuthorPicker(users, state.author))
        if choice is None:
            return
        state.author = choice or None
        picked = next((u for u in users if u.id == choice), None)
        state.author_picked = author_name(picked) if picked is not None else ""
        self.reload()

    def refilter(self, needle: str) -> None:
        """The ``/`` filter's text changed: the list keeps the threads matching it."""
        host, state = self.host, self.state
        host.thread_list.refilter(needle)
        state.selected_id = host.thread_list.selected_id
        host.draw_title()
        if state.selected_id is None and state.order:
            # no match: the pane shows what the list says, not a thread it no longer has
            self.loader.show_selected_soon()

    def open_page(self) -> None:
        """Browse shows the selected thread's page (at its block, if any)."""
        host, state = self.host, self.state
        thread = state.selected
        target = thread.comment.target if thread is not None else None
        page = target.page if target is not None else None
        if state.space_id is None or target is None or page is None or page.id is None:
            host.notify("This thread is not on a page.", timeout=3)
        elif state.change_request is not None:
            host.notify("The review pane shows this page's changes (escape: back).", timeout=3)
        else:
            node = target.node.id if target.node is not None else None
            host.nav.navigate(OpenPage(state.space_id, page.id, node))
