"""AppOutbox: the app-wide offline queue — one :class:`~gitbook_tui.drafts.ReplayLoop` for
the signed-in account, started once the account is known, replaced after a sign-in, shown
as "n queued" in every view's status bar, its refusals notified wherever the reader is."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from textual.app import App

from ..api import AsyncGitBook
from ..drafts import ReplayLoop, ReplayResult
from ..drafts.replay_loop import MAX_PROBE_SECONDS, MIN_PROBE_SECONDS
from .common.state import account_key
from .common.status_bar import StatusBar
from .common.text import plain
from .views import view_screens

__all__ = ["AppOutbox"]

log = logging.getLogger("gitbook_tui.tui")


class AppOutbox(App[str | None]):
    """The outbox side of :class:`~.app.GitBookApp`."""

    client: AsyncGitBook
    outbox_replay: ReplayLoop | None = None
    """The account's loop (``None`` before the account is known); views queue through it."""
    OUTBOX_PROBE_SECONDS: tuple[float, float] = (MIN_PROBE_SECONDS, MAX_PROBE_SECONDS)
    """First and longest wait between probes while the server is unreachable."""
    outbox_task: asyncio.Task[None] | None = None
    _outbox_client: AsyncGitBook | None = None
    _unwatch_answers: Callable[[], None] | None = None

    def start_outbox(self) -> None:
        """Start (or, for the same account, poke) the replay loop of the current client."""
        loop = self.outbox_replay
        if loop is not None and self._outbox_client is self.client:
            loop.poke()
            return
        if self._unwatch_answers is not None:
            self._unwatch_answers()
        first, longest = self.OUTBOX_PROBE_SECONDS
        loop = ReplayLoop.for_client(
            account_key(self.client), self.client, min_delay=first, max_delay=longest
        )
        self.outbox_replay, self._outbox_client = loop, self.client
        self._unwatch_answers = self.client.watch_answers(loop.reachable)
        loop.watch(self._outbox_changed)
        loop.on_result(self._outbox_replayed)
        if self.outbox_task is not None:
            self.outbox_task.cancel()
        # a task, not a worker: it runs as long as the app, and waiting for the workers to
        # finish (tests, screenshots) must not wait for it
        self.outbox_task = asyncio.create_task(self._run_outbox(loop), name="outbox-replay")

    def stop_outbox(self) -> None:
        """Stop replaying (the app is closing); what is queued stays on disk."""
        if self.outbox_task is not None:
            self.outbox_task.cancel()
            self.outbox_task = None

    async def _run_outbox(self, loop: ReplayLoop) -> None:
        try:
            await loop.run()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug or an unreadable outbox: say so, keep the app
            log.exception("the outbox replay stopped")
            self.notify(
                plain(f"Queued comments are no longer replayed: {exc}"),
                markup=False,
                severity="error",
            )

    def _outbox_changed(self) -> None:
        """The count or the replaying state changed: every bar of the screens in the stack
        shows it now (going back to a screen below, or to another view, must not see an old count)."""
        for screen in view_screens(self):
            for bar in screen.query(StatusBar):
                bar.queue_changed()

    def _outbox_replayed(self, result: ReplayResult) -> None:
        for item in result.failed:
            label = item.action.label or f"a queued {item.action.kind}"
            kept = " Its text is back in your drafts." if item.action.markdown else ""
            self.notify(
                plain(f"The server refused {label}: {item.error or ''}.{kept}"),
                markup=False,
                title="Not sent",
                severity="error",
                timeout=10,
            )
        if result.sent:
            self.notify(f"Sent {len(result.sent)} queued item(s).", timeout=4)
        replayed = getattr(self.screen, "outbox_replayed", None)
        if callable(replayed):
            replayed()
