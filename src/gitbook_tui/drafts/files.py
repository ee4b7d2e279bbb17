"""Private on-disk primitives for drafts and the outbox: data dir, 0700 dirs, atomic 0600 writes."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

# (private_dir: the drafts, outbox and review marks take it from here)
from ..folders import data_folder
from ..folders import private_dir as private_dir

try:  # POSIX: serialise writers of one account across processes (two SSH sessions)
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock; one process per account there
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger("gitbook_tui.drafts")

TEMP_PREFIX = ".tmp-"
STALE_TEMP_SECONDS = 3600.0
_FINGERPRINT_RE = re.compile(r"^[0-9a-f]{16,64}$")
_THREAD_LOCKS: dict[Path, threading.Lock] = {}
_THREAD_LOCKS_GUARD = threading.Lock()


def default_data_dir() -> Path:
    """The app's user data dir (``$XDG_DATA_HOME/gitbook-tui`` on Linux), like ``cli.data_dir``.

    Unlike the response cache (user cache dir, which ``cache clear`` empties), what lives
    here is the user's own unsent words."""
    return data_folder()


def check_fingerprint(account: str) -> str:
    """``account`` must be an account fingerprint (``cache.account_fingerprint``): lowercase
    hex, so it is a safe path segment and a token passed by mistake is refused."""
    if not isinstance(account, str) or not _FINGERPRINT_RE.match(account):
        raise ValueError("expected an account fingerprint (hex), not a token or a name")
    return account


def fsync_dir(path: Path) -> None:
    """Make a rename or a new file in ``path`` durable (no-op where dirs can't be opened)."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` all at once: a 0600 temp file in the same dir, fsync,
    ``os.replace``, fsync the dir. A crash at any point leaves the old file or the new one."""
    fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".part", dir=path.parent)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def set_aside(path: Path, reason: str) -> Path | None:
    """Rename an unreadable file to ``<name>.corrupt`` (never delete the user's words)."""
    target = path.with_name(path.name + ".corrupt")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{n}.corrupt")
    try:
        os.replace(path, target)
    except OSError as exc:
        log.warning("could not set aside unreadable %s (%s): %s", path, reason, exc)
        return None
    log.warning("set aside unreadable %s as %s: %s", path, target.name, reason)
    return target


def remove_stale_temps(directory: Path, older_than: float = STALE_TEMP_SECONDS) -> None:
    """Drop temp files a crash left behind (a write under way in another process is young)."""
    cutoff = time.time() - older_than
    with contextlib.suppress(OSError):
        for entry in directory.iterdir():
            if entry.name.startswith(TEMP_PREFIX):
                with contextlib.suppress(OSError):
                    if entry.stat().st_mtime < cutoff:
                        entry.unlink()


@contextlib.contextmanager
def locked(path: Path, *, blocking: bool = True) -> Iterator[bool]:
    """Hold an exclusive lock on ``path`` (a 0600 lock file): across threads of this process
    and, where ``flock`` exists, across processes. Yields False when ``blocking`` is off and
    someone else holds it."""
    with _THREAD_LOCKS_GUARD:
        thread_lock = _THREAD_LOCKS.setdefault(path, threading.Lock())
    if not thread_lock.acquire(blocking):
        yield False
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if fcntl is not None:
                flags = fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB)
                try:
                    fcntl.flock(fd, flags)
                except BlockingIOError:
                    yield False
                    return
            yield True
        finally:
            os.close(fd)  # closing releases the flock
    finally:
        thread_lock.release()


def adopt_account_folders(old: str, new: str) -> bool:
    """Move the drafts and outbox of account ``old`` to account ``new`` when ``new`` has
    none yet (an account renamed: its unsent words stay in sight). Whether any moved."""
    old, new = check_fingerprint(old), check_fingerprint(new)
    moved = False
    for root in (default_data_dir() / "drafts", default_data_dir() / "outbox"):
        source, target = root / old, root / new
        if old != new and source.is_dir() and not target.exists():
            source.rename(target)
            moved = True
    return moved
