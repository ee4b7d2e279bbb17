"""The environment of a child process whose every folder lives under one test folder."""

from __future__ import annotations

from pathlib import Path


def home_env(home: Path) -> dict[str, str]:
    """HOME and the XDG data, config, cache and state folders, all under ``home`` (so a
    child process never reads or writes the developer's own)."""
    return {
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_STATE_HOME": str(home / "state"),
    }
