"""describe_failure: one line saying why a worker's read failed — the client's error, or a bug;
load_failure: the same, naming what could not be loaded and from which server."""

from __future__ import annotations

import logging

from ...api import GitBookError
from .text import plain

__all__ = ["describe_failure", "load_failure"]

log = logging.getLogger("gitbook_tui.tui")


def describe_failure(exc: BaseException) -> str:
    """The client's message for a :class:`GitBookError`; for anything else (a bug, a
    malformed answer a parser choked on) its type and message, the traceback logged —
    a worker must never fail silently. Control characters are stripped."""
    if isinstance(exc, GitBookError):
        return plain(str(exc))
    log.error("unexpected %s in a worker", type(exc).__name__, exc_info=exc)
    text = plain(str(exc)).strip()
    name = type(exc).__name__
    return f"unexpected error ({name}: {text[:200]})" if text else f"unexpected error ({name})"


def load_failure(what: str, exc: BaseException, server: str) -> str:
    """ "Could not load <what> from <server>: <why>" — the views' wording of a failed read
    (as the Reviews inbox says it), naming the server."""
    return f"Could not load {plain(what)} from {plain(server)}: {describe_failure(exc)}"
