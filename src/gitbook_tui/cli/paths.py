"""The app's data folder (server databases, owner tokens), shared by ``serve`` and ``--demo``."""

from __future__ import annotations

from pathlib import Path

from ..folders import data_folder, private_dir

__all__ = ["data_dir"]


def data_dir() -> Path:
    """The app's data folder (server databases, owner tokens): private to the user (0700)."""
    return private_dir(data_folder())  # tightened if an older version made it 0755
