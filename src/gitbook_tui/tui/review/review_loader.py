"""ReviewLoader: reads the review pane's change request (and keeps checking it).

Held by :class:`.change_request_review_screen.ChangeRequestReviewScreen`: :meth:`load` reads
the review state and the local conflict mark and hands them to the pane to show, or the
error; :meth:`poll` re-reads the change request while the pane is shown and tells the pane
when it changed under the reader (the pane says so; the diff is never swapped).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ...api import GitBookError
from ...models import ChangeRequest
from ..common.screen_host import ScreenHost
from . import review_ops
from .review_data import ReviewState, load_review_state

if TYPE_CHECKING:
    from ..common.navigator import Navigator

__all__ = ["LoaderHost", "ReviewLoader"]


class LoaderHost(ScreenHost, Protocol):
    """What the loader needs from the review pane."""

    nav: Navigator
    space_id: str
    change_request: str
    state: ReviewState | None

    @property
    def is_current(self) -> bool: ...
    async def show_state(self, state: ReviewState, conflict: str | None) -> None: ...
    def show_load_error(self, exc: GitBookError) -> None: ...
    def changed_under_you(self, cr: ChangeRequest) -> None: ...


class ReviewLoader:
    """Loads and polls one change request for the review pane."""

    def __init__(self, host: LoaderHost) -> None:
        self.host = host
        self.me: str | None = None
        """The reader's user id (read once: the author's own actions are denied by it)."""

    def load(self) -> None:
        """(Re)read everything the pane shows; the newest load wins."""
        self.host.run_worker(self._load(), group="cr-state", exclusive=True, exit_on_error=False)

    async def _load(self) -> None:
        host = self.host
        client = host.nav.client
        try:
            if self.me is None:
                self.me = await review_ops.whoami(client)
            state = await load_review_state(client, host.space_id, host.change_request, self.me)
        except GitBookError as exc:
            host.show_load_error(exc)
            return
        conflict = await review_ops.conflict_message(client, state.cr)
        await host.show_state(state, conflict)

    def poll(self) -> None:
        """Re-read the change request (only while the pane is shown and loaded)."""
        self.host.run_worker(self._poll(), group="cr-poll", exclusive=True, exit_on_error=False)

    async def _poll(self) -> None:
        host = self.host
        state = host.state
        if state is None or not host.is_current:
            return
        try:
            cr = await review_ops.fresh_change_request(host.nav.client, host.space_id, state.cr.id)
        except GitBookError:
            return
        host.changed_under_you(cr)
