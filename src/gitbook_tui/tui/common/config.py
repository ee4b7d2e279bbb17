"""Settings of the terminal app, read from ``config.toml`` (the client's config file).

::

    [ui]
    theme = "nord"          # any Textual theme name
    show_hidden = false     # show hidden pages in the tree from the start

    [keymap]                # binding id -> keys (comma separated, or a list)
    "tree.down" = "j,down,ctrl+n"
    "browser.back" = ["alt+left", "backspace"]

Unknown keys are ignored and wrong types fall back to the defaults: a broken config never
stops the app from starting (``problems`` lists what was ignored, to be shown once).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...api.config import config_path, load_config, save_config

__all__ = ["TuiConfig", "load_tui_config", "save_theme"]


@dataclass
class TuiConfig:
    """What the app takes from the ``[ui]`` and ``[keymap]`` tables."""

    theme: str | None = None
    show_hidden: bool = False
    keymap: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    path: Path | None = None  # the file read (None: the user's config.toml)


def _keys(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return ",".join(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
        return ",".join(v.strip() for v in value)
    return None


def load_tui_config(path: Path | None = None) -> TuiConfig:
    """The UI settings of ``path`` (default: the user's ``config.toml``)."""
    data = load_config(path)
    config = TuiConfig(path=path)
    ui = data.get("ui", {})
    if not isinstance(ui, dict):
        config.problems.append("[ui] is not a table")
        ui = {}
    theme = ui.get("theme", data.get("theme"))
    if isinstance(theme, str) and theme.strip():
        config.theme = theme.strip()
    elif theme is not None:
        config.problems.append("ui.theme must be a string")
    show_hidden = ui.get("show_hidden")
    if isinstance(show_hidden, bool):
        config.show_hidden = show_hidden
    elif show_hidden is not None:
        config.problems.append("ui.show_hidden must be true or false")
    keymap = data.get("keymap", {})
    if not isinstance(keymap, dict):
        config.problems.append("[keymap] is not a table")
        keymap = {}
    for binding_id, value in keymap.items():
        keys = _keys(value)
        if keys is None:
            config.problems.append(f"keymap.{binding_id}: give keys as a string or list")
            continue
        config.keymap[str(binding_id)] = keys
    return config


def save_theme(theme: str, path: Path | None = None) -> bool:
    """Keep ``theme`` as ``[ui] theme`` in the config file (the rest of it unchanged, but
    for its comments). False when the file exists and cannot be read: it is then left
    alone rather than replaced by one holding only the theme."""
    path = path or config_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
        return False
    ui = data.get("ui")
    if not isinstance(ui, dict):
        ui = data["ui"] = {}
    if ui.get("theme") == theme:
        return True
    ui["theme"] = theme
    data.pop("theme", None)  # (an old top-level key would be read first otherwise)
    try:
        save_config(data, path)
    except OSError:
        return False
    return True
