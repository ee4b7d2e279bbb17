"""The app's data folder (server databases, owner tokens), shared by ``serve`` and ``--demo``."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir

__all__ = ["data_dir"]


def data_dir() -> Path:
    """The app's data folder (server databases, owner tokens): private to the user (0700)."""
    path = Path(user_data_dir("gitbook-tui", appauthor=False))
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o077:
        path.chmod(0o700)  # made by an older version with the default mode
    return path
