"""run_keeping_drafts: run the app so SIGHUP/SIGTERM (dropped SSH, tmux kill) write drafts first.

Drafts are saved ~1 s after typing pauses (:class:`~gitbook_tui.drafts.Debouncer`); the
default action of SIGHUP and SIGTERM would end the process inside that window and lose the
last words. Here both signals are handled in the app's event loop: every pending draft is
written at once (synchronously: the terminal may already be gone), then the app exits the
normal way. Whatever the exit path (quit, signal, crash), pending drafts are written once
more after the loop ends. The signal handlers in place before are restored on the way out.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable
from typing import Any, TypeVar

from textual.app import App

from ..drafts.debounce import flush_all_now

__all__ = ["EXIT_SIGNALS", "run_keeping_drafts"]

log = logging.getLogger("gitbook_tui.tui")

EXIT_SIGNALS: tuple[signal.Signals, ...] = tuple(
    sig for sig in (getattr(signal, "SIGHUP", None), signal.SIGTERM) if sig is not None
)
"""The signals that end the app as a quit would, drafts written first."""

Result = TypeVar("Result")
Handler = Callable[[int, Any], Any] | int | None


def _on_exit_signal(app: App[Any], sig: signal.Signals) -> None:
    """Write every pending draft now, then ask the app to exit (128 + signal number, as
    a shell reports a process ended by that signal)."""
    try:
        written = flush_all_now()
    except Exception:  # pragma: no cover - flush_all_now logs per draft; never die here
        log.exception("could not write the drafts on %s", sig.name)
    else:
        log.info("%s: %d pending draft(s) written", sig.name, written)
    app.exit(return_code=128 + int(sig))


def run_keeping_drafts(app: App[Result]) -> Result | None:
    """``app.run()`` in a loop of its own with SIGHUP/SIGTERM handled as above."""
    previous: dict[signal.Signals, Handler] = {}
    with asyncio.Runner() as runner:
        loop = runner.get_loop()
        try:
            for sig in EXIT_SIGNALS:
                previous[sig] = signal.getsignal(sig)
                loop.add_signal_handler(sig, _on_exit_signal, app, sig)
            return runner.run(app.run_async())
        finally:
            for sig, handler in previous.items():
                loop.remove_signal_handler(sig)
                signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
            flush_all_now()
