"""A lean start for the app's process: optional imports of our dependencies that it never
uses kept out, and its imports kept from the garbage collector's walks.

Two libraries import, at start, modules they only use when present and work without:

* ``httpx`` imports ``httpx._main`` (its own command-line client: click, pygments and
  rich's syntax highlighting) in ``try: … except ImportError``, to offer ``httpx`` as a
  command when installed with ``httpx[cli]``;
* ``httpcore`` imports ``trio`` (and with it attrs, outcome, sortedcontainers) in
  ``try: … except ImportError``, to use it when the app runs under trio's event loop.

The app is not httpx's command and runs under asyncio (Textual), where httpcore uses anyio
whether trio is installed or not; yet importing both cost 0.15–0.2 s of CPU at every
start (a quarter of the warm start's budget). A ``None`` entry in ``sys.modules`` is
Python's documented way to make an import raise ImportError (the import system's
"module cache" rules), which is exactly the "not installed" case both libraries handle.

Only the app's own processes call :func:`skip_unused_optional_imports`, before their first
import of httpx; nothing in a library import of gitbook_tui (tests, the server) changes.

The app's imports create over 100,000 objects the collector tracks (modules, classes,
functions, the models' validators), nearly all living as long as the process. While they
are created, CPython's full collections walk them again and again, finding little to free. :func:`imports_kept_from_collections` imports without collections
and then freezes what was created (``gc.freeze``, the documented way to keep long-lived
objects out of every later walk); the app's idle collector unfreezes and collects once the
user is reading (``tui/common/idle_collector.py``), which reclaims any garbage of the
imports then.

Building the first screen (widgets, styles, the models' validators, the cached answers)
keeps tens of thousands more, and the young collections it set off (over a hundred in a
warm start: ~0.05 s of CPU) found nearly nothing to free either. :func:`pause_collections`
keeps the collector off from the imports until the app resumes it, once its first screen
is up (``GitBookApp``'s ``collections_paused``): what exists then is frozen, as above.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = [
    "UNUSED_OPTIONAL_IMPORTS",
    "imports_kept_from_collections",
    "pause_collections",
    "skip_unused_optional_imports",
]

UNUSED_OPTIONAL_IMPORTS: tuple[str, ...] = ("httpx._main", "trio")
"""Modules imported only optionally (in ``try … except ImportError``) by our dependencies,
which the app never uses: see the module's docstring for who imports each and why not."""


def skip_unused_optional_imports() -> None:
    """Make each of :data:`UNUSED_OPTIONAL_IMPORTS` not importable in this process, unless
    it is imported already (then it stays as it is)."""
    for name in UNUSED_OPTIONAL_IMPORTS:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]


@contextmanager
def imports_kept_from_collections() -> Iterator[None]:
    """No garbage collection while the block runs (the app's imports), then what exists is
    frozen: later collections do not walk it (see the module's docstring)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def pause_collections() -> Callable[[], None]:
    """Turn the collector off (for the start); the function returned turns it back on (if
    it was on), what exists then frozen first. Only its first call does anything."""
    enabled = gc.isenabled()
    gc.disable()
    paused = True

    def resume() -> None:
        nonlocal paused
        if paused:
            paused = False
            gc.freeze()
            if enabled:
                gc.enable()

    return resume
