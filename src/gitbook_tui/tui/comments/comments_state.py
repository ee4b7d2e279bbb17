"""CommentsState: what the Comments view holds — its scope, filters and threads, and how a read
merges into them (no Textual here)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...models import Comment, Space, User
from .thread_data import ThreadState, author_name, mine, more_replies_from_others

__all__ = ["STATUSES", "CommentsState"]

STATUSES = ("open", "resolved", "all")


@dataclass
class CommentsState:
    """The threads shown and what chose them. ``change_request`` (with ``label``, e.g. "#5
    Fix"): that change request's threads; ``quote``: a new thread to start quoting a block,
    (page id, the quote as markdown)."""

    space_id: str | None = None
    change_request: str | None = None
    label: str = ""
    quote: tuple[str | None, str] | None = None
    space: Space | None = None
    page_scope: str | None = None  # a page id: only its threads
    status: str = "open"
    author: str | None = None
    author_picked: str = ""  # the chosen author's name as listed in the picker
    page_titles: dict[str, str] = field(default_factory=dict)  # page id → title, as last read
    me: User | None = None
    threads: dict[str, ThreadState] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    selected_id: str | None = None
    loaded: bool = False
    error: str | None = None
    offline: bool = False
    cached_age: float = 0.0  # seconds: how old the list shown offline is
    drafted: set[str] = field(default_factory=set)  # threads with a reply or edit draft
    # threads and replies deleted here or found gone: a read sent before that does not
    # bring them back (ids are never reused)
    gone: set[str] = field(default_factory=set)

    @property
    def selected(self) -> ThreadState | None:
        return self.threads.get(self.selected_id) if self.selected_id else None

    @property
    def me_id(self) -> str | None:
        return self.me.id if self.me is not None else None

    def select(self, thread_id: str) -> ThreadState | None:
        """Select ``thread_id``; the thread left, when it was marked new (seen now: the
        marks go), else ``None``."""
        left, self.selected_id = self.selected, thread_id
        if left is not None and (left.new or left.new_replies_from is not None):
            left.new, left.new_replies_from = False, None
            return left
        return None

    def clear_threads(self) -> None:
        """Forget the threads listed (another scope or filter is read next)."""
        self.threads, self.order, self.selected_id = {}, [], None

    def rescope(self, space: str | None, page: str | None, scope: str | None) -> bool:
        """Show ``space`` (the one open in the browser, with ``page`` open): with ``scope``
        "page" only that page's threads, another scope the whole space's, ``None`` as
        before; a change request's threads stay its own. Whether what is listed changes."""
        if self.change_request is not None:
            space, page, scope = self.space_id, None, None
        changed = space != self.space_id
        if changed:
            self.space_id, self.space, self.page_scope = space, None, None
            self.clear_threads()
            self.gone = set()
        if scope == "page" and page and self.page_scope != page:
            self.page_scope, changed = page, True
        elif scope is not None and scope != "page" and self.page_scope is not None:
            self.page_scope, changed = None, True
        return changed

    def cycle_status(self) -> None:
        self.status = STATUSES[(STATUSES.index(self.status) + 1) % len(STATUSES)]

    def merge(self, comments: list[Comment], *, live: bool) -> None:
        """Take a read of the threads: new ones (a live refresh) and threads with new replies
        by others are marked new, replies shown go stale when the count changed, threads
        being written to stay until the server's answer settles them."""
        previous, me = self.threads, self.me_id
        threads: dict[str, ThreadState] = {}
        for comment in comments:
            if comment.id in self.gone:
                continue
            old = previous.get(comment.id)
            if old is None:
                # my own thread (sent from the offline queue, say) is never new to me
                threads[comment.id] = ThreadState(
                    comment,
                    new=live and self.loaded and not mine(comment, me),
                    drafted=comment.id in self.drafted,
                )
                continue
            more = (comment.replies or 0) > (old.comment.replies or 0)
            same_replies = (comment.replies or 0) == len(old.replies or []) and not more
            if live and more and old.new_replies_from is None:
                old.new_replies_from = old.comment.replies or 0
            # only replies by others make a row "new" (the thread pane marks the same ones)
            old.new = old.new or (live and more_replies_from_others(old.comment, comment, me))
            old.comment = comment
            if not same_replies and old.replies is not None:
                old.stale = True  # shown as they are until the new ones arrive
            threads[comment.id] = old
        for thread_id, state in previous.items():
            if thread_id not in threads and state.pending:
                threads[thread_id] = state
        self.threads = threads
        self.order = list(threads)
        self.loaded = True
        self.note_page_titles(comments)

    def note_page_titles(self, comments: list[Comment]) -> None:
        """Keep the titles of the pages the threads are on (the page scope's names it)."""
        for comment in comments:
            page = comment.target.page if comment.target is not None else None
            if page is not None and page.id and page.title:
                self.page_titles[page.id] = page.title

    def forget(self, thread_id: str) -> bool:
        """Drop a thread the server no longer has; whether it was listed."""
        self.gone.add(thread_id)
        if self.threads.pop(thread_id, None) is None:
            return False
        self.order = [i for i in self.order if i != thread_id]
        if self.selected_id == thread_id:
            self.selected_id = None
        return True

    def settle_local_posts(self) -> None:
        """Queued writes were replayed: their local copies give way to the server's."""
        for thread in self.threads.values():
            local = {i for i in thread.pending if i.startswith("local-")}
            if local:
                thread.pending -= local
                thread.stale = True

    def author_label(self) -> str:
        """Who the threads shown are by: "anyone", or the chosen author's name (from their
        threads, else as picked — they may have none in this scope)."""
        if not self.author:
            return "anyone"
        match = next(
            (
                t.comment.postedBy
                for t in self.threads.values()
                if t.comment.postedBy and t.comment.postedBy.id == self.author
            ),
            None,
        )
        return author_name(match) if match else self.author_picked or "one author"

    def no_threads_text(self, *, may_start: bool) -> str:
        """What the list says when no thread matches (``may_start``: the caller may start
        one — a reader is not told that ``c`` starts one)."""
        which = {"open": "open threads", "resolved": "resolved threads"}.get(self.status, "threads")
        where = "in this space"
        if self.change_request is not None:
            where = "on this change request"
        elif self.page_scope is not None:
            where = "on this page"
        by = f" by {self.author_label()}" if self.author else ""
        steps = ["c starts one"] if may_start else []
        if self.status == "open":
            steps.append("f shows resolved ones")
        return f"No {which} {where}{by}" + (f" — {', '.join(steps)}." if steps else ".")
