"""Relayouts: a large diff laid out again off the UI thread when a key or a resize changes
its layout, the newest wanted layout winning, swapped in when done."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from textual.worker import Worker

from ...markdown.diff import BlockDiff
from .diff_layout import DiffLayout, LayoutSettings, LayoutStopped, lay_out

__all__ = ["IN_THREAD_FROM_ROWS", "RelayoutHost", "Relayouts"]

IN_THREAD_FROM_ROWS = 2_000
"""A diff of this many rows is laid out again in a worker thread (a 1 MB page has ~18 000:
~80–200 ms of the UI thread, seconds with every line shown); a smaller one at once."""


class RelayoutHost(Protocol):
    """What :class:`Relayouts` needs of the diff view."""

    diff: BlockDiff | None
    partial: bool

    def layout_settings(self) -> LayoutSettings: ...

    def swap_in(self, layout: DiffLayout) -> None: ...

    def run_worker(
        self,
        work: Coroutine[Any, Any, None],
        *,
        group: str,
        exclusive: bool,
        exit_on_error: bool,
    ) -> Worker[None]: ...


class Relayouts:
    """Lays the host's diff out again in a worker thread for the settings wanted now: one
    thread at a time (the lazy rows are read by one reader), a stale one stopped early
    when the settings change again, and only a layout of the settings still wanted is
    swapped in (the old one stays shown meanwhile, every key answered on it)."""

    GROUP = "diff-relayout"

    def __init__(self, host: RelayoutHost) -> None:
        self.host = host
        self._worker: Worker[None] | None = None
        self._stop = threading.Event()

    @property
    def running(self) -> bool:
        """A relayout is under way: what is shown is the layout before the last change."""
        return self._worker is not None

    def after_change(self, here: Callable[[], None]) -> None:
        """The layout's settings (or folds) changed: a large diff is laid out again in the
        thread (also while one is: the newest wins), any other ``here`` (at once)."""
        diff = self.host.diff
        if diff is None or self.host.partial:  # a staged diff's part: small, its rest waits
            here()
        elif self.running or len(diff.rows) >= IN_THREAD_FROM_ROWS:
            self.request()
        else:
            here()

    def request(self) -> None:
        """The layout's settings (or folds) changed: lay the diff out again for them."""
        self._stop.set()  # a layout in the thread for older settings: stop it soon
        if self._worker is None and self.host.diff is not None:
            self._worker = self.host.run_worker(
                self._lay_out(self.host.diff),
                group=self.GROUP,
                exclusive=True,
                exit_on_error=False,
            )

    def cancel(self) -> None:
        """Another diff (or a message) is shown: drop the relayout under way."""
        self._stop.set()
        if self._worker is not None:
            self._worker.cancel()
        self._worker = None

    async def _lay_out(self, diff: BlockDiff) -> None:
        worker = self._worker
        try:
            while self.host.diff is diff:
                settings = self.host.layout_settings()
                self._stop = stop = threading.Event()
                try:
                    layout = await asyncio.to_thread(lay_out, diff, settings, stop=stop)
                except LayoutStopped:
                    continue  # newer settings wanted: lay out for those
                if self.host.diff is diff and self.host.layout_settings() == settings:
                    self.host.swap_in(layout)
                    return
        finally:
            if self._worker is worker:
                self._worker = None
