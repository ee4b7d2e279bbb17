"""IdleCollector: the garbage collector's long walks happen while the user is not typing.

A full collection walks every live object: with a workspace open (tree, page blocks, the
other views' screens) that is a few hundred thousand objects and ~200 ms on a small
machine — felt when it lands on a key press (``benchmarks/bench_views.py`` measured p95
~210 ms for a view switch that otherwise takes ~23 ms). CPython starts one whenever
enough survivors have piled up, i.e. in the busiest moments.

Here, once input has been quiet for a moment, the app collects everything and then
freezes what survived (``gc.freeze``): the collections CPython starts on its own during
the next burst of keys walk only what is newer, which is quick. What was frozen and dies
later is reclaimed at the next quiet moment (unfreeze, collect, freeze again).

Quiet input is not enough: after a key that starts a load (5,000 members), the app works
for seconds without input — parsing pages, laying out the rows — and a long walk landing
there delayed the first screen by the walk's length (``benchmarks/bench_admin.py``: 34 ms
to ~400 ms). The app is also not idle while it keeps objects at a high rate, which shows
as young collections in quick succession (any thread's): then the walk waits too.
"""

from __future__ import annotations

import gc
import time
from collections import deque
from collections.abc import Callable
from typing import Any

__all__ = ["IdleCollector"]

QUIET_SECONDS = 1.0
"""No key (or mouse) input for this long: the user is reading, a long walk is unfelt."""

BUSY_YOUNG = 4
"""This many young collections within :data:`QUIET_SECONDS`: the app is working (keeping
objects fast), not idle. An idle app keeps almost nothing: its young collections are rare."""


class IdleCollector:
    """Owns the long garbage collections while the app runs.

    :meth:`install` on start, :meth:`input_seen` on every input event, :meth:`tick` from a
    timer, :meth:`uninstall` on exit (nothing stays frozen)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last_input = clock()
        self._installed = False
        self._young: deque[float] = deque(maxlen=BUSY_YOUNG)
        """When the latest young collections started."""
        self.collections = 0
        """Full collections run by :meth:`tick` (tests and benchmarks read it)."""

    def install(self) -> None:
        self._installed = True
        gc.callbacks.append(self._collected)

    def uninstall(self) -> None:
        if self._installed:
            self._installed = False
            gc.callbacks.remove(self._collected)
            gc.unfreeze()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start" and info["generation"] < 2:
            self._young.append(self._clock())

    def working(self) -> bool:
        """Whether :data:`BUSY_YOUNG` young collections started in the last
        :data:`QUIET_SECONDS` (the app is keeping objects fast: a load, a layout)."""
        young = self._young
        return len(young) == young.maxlen and self._clock() - young[0] < QUIET_SECONDS

    def input_seen(self) -> None:
        self._last_input = self._clock()

    def quiet_for(self) -> float:
        """Seconds since the last input event."""
        return self._clock() - self._last_input

    def tick(self) -> bool:
        """Collect everything and freeze the survivors if input has been quiet, the app is
        not :meth:`working`, and objects survived young collections since the last time (an
        idle app does no work). True if it ran."""
        if not self._installed or not gc.isenabled():
            return False  # not running, or paused by a parser on purpose
        if self.quiet_for() < QUIET_SECONDS or self.working():
            return False
        if gc.get_count()[2] == 0:
            return False  # nothing promoted since the last full collection
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.collections += 1
        return True
