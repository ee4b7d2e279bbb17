"""``{% include %}`` blocks: which reusable contents a document needs, and expanding them."""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from .model import Block, Document, Include, walk

__all__ = ["IncludedContent", "expand_includes", "include_key", "include_paths"]

_INCLUDES_DIR = ".gitbook/includes/"

IncludedContent = tuple[str, Document]
"""``(title, parsed document)`` of one reusable content."""


def include_key(path: str) -> str:
    """The name an include path is known by, whatever folder the page including it is in:
    ``../.gitbook/includes/x.md`` and ``.gitbook/includes/x.md`` are both ``x.md``."""
    path = unquote(path.strip().split("#", 1)[0].split("?", 1)[0])
    index = path.find(_INCLUDES_DIR)
    if index >= 0:
        return path[index + len(_INCLUDES_DIR) :]
    return posixpath.normpath(path).lstrip("./") or path


def include_paths(document: Document) -> list[str]:
    """The include keys (see :func:`include_key`) ``document`` uses, in order, once each."""
    found: dict[str, None] = {}
    for block in walk(document.blocks):
        if isinstance(block, Include) and block.path:
            found.setdefault(include_key(block.path), None)
    return list(found)


def expand_includes(
    document: Document, contents: Mapping[str, IncludedContent | None], *, depth: int = 3
) -> Document:
    """``document`` with every :class:`Include` holding the blocks of its content.

    ``contents`` maps include keys to ``(title, document)``, or ``None`` for a content that
    does not exist (the include then shows as missing). Includes inside included content
    are expanded too, ``depth`` levels deep (a cycle stops there).
    """
    if not any(isinstance(block, Include) for block in walk(document.blocks)):
        return document

    def expand(include: Include, level: int) -> Include:
        key = include_key(include.path)
        if key not in contents:
            return include
        found = contents[key]
        if found is None:
            return dataclasses.replace(include, state="missing", blocks=())
        title, included = found
        blocks = included.blocks
        if level < depth:
            blocks = tuple(rebuild(block, level + 1) for block in blocks)
        return dataclasses.replace(include, blocks=blocks, title=title, state="included")

    def rebuild(value: Any, level: int) -> Any:
        if isinstance(value, Include):
            return expand(value, level)
        if isinstance(value, tuple):
            return tuple(rebuild(item, level) for item in value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {}
            for field in dataclasses.fields(value):
                item = getattr(value, field.name)
                if isinstance(item, tuple) or dataclasses.is_dataclass(item):
                    new = rebuild(item, level)
                    if new is not item:
                        changes[field.name] = new
            return dataclasses.replace(value, **changes) if changes else value
        return value

    blocks: tuple[Block, ...] = tuple(rebuild(block, 0) for block in document.blocks)
    return dataclasses.replace(document, blocks=blocks)
