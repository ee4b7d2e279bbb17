"""Page attribute changes (title, emoji, description, hidden, path…) for a diff's header row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .words import WordDiff, word_diff

__all__ = ["PAGE_ATTRIBUTES", "AttributeChange", "attribute_changes", "header_diff"]

PAGE_ATTRIBUTES: tuple[str, ...] = ("title", "emoji", "icon", "description", "hidden", "path")
"""The page attributes a header diff compares, in display order."""

_FLAGS = frozenset({"hidden", "noIndex", "noRobotsIndex"})
"""Boolean attributes, where "not set" means false."""


@dataclass(frozen=True, slots=True)
class AttributeChange:
    """One attribute that differs between the two revisions of a page."""

    name: str
    old: Any
    new: Any

    @property
    def kind(self) -> Literal["added", "removed", "changed"]:
        if self.old is None:
            return "added"
        if self.new is None:
            return "removed"
        return "changed"

    def words(self) -> WordDiff | None:
        """Word-level diff when both sides are text (a title, a description), else ``None``."""
        if isinstance(self.old, str) and isinstance(self.new, str):
            return word_diff(self.old, self.new)
        return None


def _normal(name: str, value: Any) -> Any:
    if name in _FLAGS:
        return True if value else None
    if value == "":
        return None
    return value


def _get(page: Mapping[str, Any] | object | None, name: str) -> Any:
    if page is None:
        return None
    if isinstance(page, Mapping):
        return page.get(name)
    return getattr(page, name, None)


def header_diff(
    old: Mapping[str, Any] | object | None,
    new: Mapping[str, Any] | object | None,
    attributes: Sequence[str] = PAGE_ATTRIBUTES,
) -> tuple[AttributeChange, ...]:
    """The attributes that differ between two pages, each a dict or a model such as
    ``RevisionPage`` (``None`` for a side where the page does not exist).

    Unset and empty text are the same; an unset flag (``hidden``) is false.
    """
    changes: list[AttributeChange] = []
    for name in attributes:
        before = None if old is None else _normal(name, _get(old, name))
        after = None if new is None else _normal(name, _get(new, name))
        if before != after:
            changes.append(AttributeChange(name, before, after))
    return tuple(changes)


def attribute_changes(
    attributes: Mapping[str, Any], names: Sequence[str] = PAGE_ATTRIBUTES
) -> tuple[AttributeChange, ...]:
    """The changes among ``names`` in a semantic change's ``attributes`` (``{name: {"before",
    "after"}}``, as the change request ``changes`` operation lists them), in ``names`` order.

    Other attributes (the page's ``document``, whose change the block diff shows) are skipped.
    """
    changes: list[AttributeChange] = []
    for name in names:
        value = attributes.get(name)
        if not isinstance(value, Mapping):
            continue
        before = _normal(name, value.get("before"))
        after = _normal(name, value.get("after"))
        if before != after:
            changes.append(AttributeChange(name, before, after))
    return tuple(changes)
