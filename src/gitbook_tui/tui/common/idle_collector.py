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
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

__all__ = ["IdleCollector"]

QUIET_SECONDS = 1.0
"""No key (or mouse) input for this long: the user is reading, a long walk is unfelt."""


class IdleCollector:
    """Owns the long garbage collections while the app runs.

    :meth:`install` on start, :meth:`input_seen` on every input event, :meth:`tick` from a
    timer, :meth:`uninstall` on exit (nothing stays frozen)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last_input = clock()
        self._installed = False
        self.collections = 0
        """Full collections run by :meth:`tick` (tests and benchmarks read it)."""

    def install(self) -> None:
        self._installed = True

    def uninstall(self) -> None:
        if self._installed:
            self._installed = False
            gc.unfreeze()

    def input_seen(self) -> None:
        self._last_input = self._clock()

    def quiet_for(self) -> float:
        """Seconds since the last input event."""
        return self._clock() - self._last_input

    def tick(self) -> bool:
        """Collect everything and freeze the survivors if input has been quiet and objects
        survived young collections since the last time (an idle app does no work). True if
        it ran."""
        if not self._installed or not gc.isenabled():
            return False  # not running, or paused by a parser on purpose
        if self.quiet_for() < QUIET_SECONDS:
            return False
        if gc.get_count()[2] == 0:
            return False  # nothing promoted since the last full collection
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.collections += 1
        return True
