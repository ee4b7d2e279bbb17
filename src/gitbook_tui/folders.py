"""The app's folders (data, cache, config) and the one way any folder of ours is made: 0700."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from platformdirs import user_cache_dir, user_config_dir, user_data_dir

__all__ = [
    "APP_NAME",
    "DATA_DIR_ENV",
    "app_folders",
    "cache_folder",
    "config_folder",
    "data_folder",
    "private_dir",
]

APP_NAME = "gitbook-tui"


DATA_DIR_ENV = "GITBOOK_TUI_DATA_DIR"
"""Overrides the data folder: ``gitbook-tui web --demo`` gives each browser session its own
(its drafts and outbox are that session's)."""


def data_folder() -> Path:
    """``$XDG_DATA_HOME/gitbook-tui`` on Linux (or ``$GITBOOK_TUI_DATA_DIR``): drafts, the
    outbox, server databases."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    return Path(user_data_dir(APP_NAME, appauthor=False))


def cache_folder() -> Path:
    """``$XDG_CACHE_HOME/gitbook-tui`` on Linux: the response cache, the UI state."""
    return Path(user_cache_dir(APP_NAME, appauthor=False))


def config_folder() -> Path:
    """``$XDG_CONFIG_HOME/gitbook-tui`` on Linux: config.toml (which may hold a token)."""
    return Path(user_config_dir(APP_NAME, appauthor=False))


def app_folders() -> tuple[Path, ...]:
    """The folders that are the app's own (read each time: tests and users move XDG_*)."""
    return (data_folder(), cache_folder(), config_folder())


def _tighten(path: Path) -> None:
    with contextlib.suppress(OSError):  # not ours (another owner): nothing to do about it
        if path.stat().st_mode & 0o777 != 0o700:
            os.chmod(path, 0o700)


def private_dir(path: str | Path, *, tighten: bool = True) -> Path:
    """Make ``path`` a folder only its owner may list or enter (0700), whatever the umask.

    Every missing folder on the way is created 0700 too (``Path.mkdir(parents=True)``
    would make the parents with the default mode: ``$XDG_DATA_HOME/gitbook-tui`` came out
    0755, its per-account folder names listable by anyone). The app's own folders on the
    way that an older version made wider are tightened; ``path`` itself as well, unless
    ``tighten`` is off (a folder the user chose for a file keeps the mode it has)."""
    path = Path(path)
    missing: list[Path] = []
    probe = path
    while not probe.is_dir() and probe.parent != probe:
        missing.append(probe)
        probe = probe.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:  # made meanwhile by another process (or not a folder)
            if not folder.is_dir():
                raise
        _tighten(folder)  # the umask may have taken more than 0o077 away, or it was a race
    for own in app_folders():
        if own == path or own in path.parents:
            _tighten(own)
    if tighten or missing:
        _tighten(path)
    return path
