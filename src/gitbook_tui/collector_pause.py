"""One process-wide pause of the cyclic garbage collector, shared by whatever makes many objects at once.

Parsing a large answer (``api.parsing``) and diffing a large page (``markdown.diff.chunks``)
each make hundreds of thousands of objects that hold no reference cycle; a collector run
triggered by those allocations would walk the whole heap again and again for nothing. They
pause it meanwhile. Pauses overlap (a worker thread's diff, the event loop's parse), so the
count is one for the process: the collector runs again once, when the last pause ends. Two
counts of their own would each restore it while the other still works.

What was made meanwhile is then moved out of the young generations at once, unwalked (the
first young collection would otherwise walk it all, holding the GIL for ~100 ms): to the
oldest generation (``gc.freeze`` then ``gc.unfreeze``) when nothing is frozen; when the
application froze objects itself (``tui.common.idle_collector``), it joins them if one of
the overlapping pauses asked for that (``join_frozen``), else it is left where it is (an
unfreeze would thaw the application's). Reference counting frees what dies either way.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]

_lock = threading.Lock()
_pauses = 0
_was_enabled = False
_join_frozen = False


@contextmanager
def collector_paused(pause: bool = True, *, join_frozen: bool = False) -> Iterator[None]:
    """The collector paused for the block when ``pause`` (see the module)."""
    global _pauses, _was_enabled, _join_frozen
    if not pause:
        yield
        return
    with _lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            _join_frozen = False
            gc.disable()
        _pauses += 1
        _join_frozen = _join_frozen or join_frozen
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                if gc.get_freeze_count() == 0:
                    gc.freeze()
                    gc.unfreeze()
                elif _join_frozen:
                    gc.freeze()
                gc.enable()
