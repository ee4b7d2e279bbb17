"""The binding ids a ``[keymap]`` in config.toml may name, to warn about mistyped ones."""

from __future__ import annotations

from textual.binding import Binding
from textual.dom import DOMNode

__all__ = ["known_binding_ids", "unknown_keymap_ids"]


def known_binding_ids() -> set[str]:
    """Every binding id declared by a widget, screen or app class loaded now."""
    ids: set[str] = set()
    stack: list[type[DOMNode]] = [DOMNode]
    seen: set[type[DOMNode]] = set()
    while stack:
        cls = stack.pop()
        if cls in seen:
            continue
        seen.add(cls)
        for binding in cls.__dict__.get("BINDINGS", ()):
            if isinstance(binding, Binding) and binding.id:
                ids.add(binding.id)
        stack.extend(cls.__subclasses__())
    return ids


def unknown_keymap_ids(keymap: dict[str, str]) -> list[str]:
    """The keymap's ids no binding has (sorted)."""
    known = known_binding_ids()
    return sorted(binding_id for binding_id in keymap if binding_id not in known)
