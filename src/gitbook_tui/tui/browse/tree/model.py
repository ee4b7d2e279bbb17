"""Workspace tree data: node keys, :class:`NodeData`, inert labels, walking and filtering."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from rich.style import Style as RichStyle
from rich.text import Text
from textual.content import Content

from ....markdown.sanitize import clean_text
from ....models import Space
from ...common.text import emoji_slot, inert

__all__ = [
    "LAZY",
    "ROOT",
    "NodeData",
    "NodeKind",
    "clean_title",
    "collection_key",
    "comment_badge",
    "filter_sets",
    "label_for",
    "label_text",
    "org_key",
    "page_key",
    "space_key",
    "subtree",
    "to_text",
    "walk_keys",
]

NodeKind = Literal["root", "org", "collection", "space", "page", "group", "link", "status"]
LAZY: frozenset[str] = frozenset({"root", "org", "collection", "space"})
ROOT = "root"


def org_key(org_id: str) -> str:
    return f"org:{org_id}"


def collection_key(collection_id: str) -> str:
    return f"coll:{collection_id}"


def space_key(space_id: str) -> str:
    return f"space:{space_id}"


def page_key(space_id: str, page_id: str) -> str:
    return f"page:{space_id}:{page_id}"


@dataclass
class NodeData:
    """What a tree node stands for; ``title`` and friends are already control-free."""

    key: str
    kind: NodeKind
    id: str = ""
    title: str = ""
    emoji: str = ""
    org_id: str = ""
    space_id: str = ""
    path: str = ""
    git_path: str = ""
    url: str = ""
    hidden: bool = False
    description: str = ""
    updated: datetime | None = None
    status: str = ""  # status nodes: "loading" | "error" | "empty"; ``id`` is the parent key
    comments: int | None = None  # spaces: open comment threads (the API's count; None: unknown)
    space: Space | None = field(default=None, repr=False)
    """Spaces: the space as listed (its permissions and lock dim the browser's ``e``)."""


def clean_title(text: str | None) -> str:
    """Server text for one label line: controls stripped, whitespace runs folded."""
    return " ".join(clean_text(text or "").split())


def to_text(content: Content) -> Text:
    """A Rich Text of inert Content (for the Tree); styles copied, nothing parsed."""
    text = Text(content.plain, no_wrap=True, end="")
    for span in content.spans:
        style = span.style
        rich_style = style if isinstance(style, str) else getattr(style, "rich_style", None)
        if isinstance(rich_style, str | RichStyle):
            text.stylize(rich_style, span.start, span.end)
    return text


def label_for(data: NodeData) -> Content:
    """The inert label of a node (server text is never parsed as markup)."""
    kind = data.kind
    if kind == "status":
        if data.status == "loading":
            return Content.styled("⟳ loading…", "dim italic")
        if data.status == "error":
            return Content.styled("⚠ could not load — r to retry", "bold")
        return Content.styled("(empty)", "dim italic")
    if kind == "org":
        return inert(data.title or "Organization", style="bold")
    if kind == "collection":
        return Content("▤ ") + inert(data.title or "Untitled")
    if kind == "link":
        return Content.styled("↗ ", "italic") + inert(data.title or data.url, style="italic")
    prefix = Content(f"{emoji_slot(data.emoji)} ") if data.emoji else Content("")
    if kind == "space" and not data.emoji:
        prefix = Content("□ ")
    if kind == "group":
        return prefix + inert(data.title or "Untitled", style="bold")
    style = "dim" if data.hidden else ""
    return prefix + inert(data.title or "Untitled", style=style)


def label_text(data: NodeData) -> Text:
    """:func:`label_for` as the Rich Text the Tree draws. Plain labels (most spaces and
    pages) are made directly: a list of thousands is drawn without building Content."""
    kind = data.kind
    if kind in ("space", "page") and not data.hidden:
        prefix = f"{emoji_slot(data.emoji)} " if data.emoji else "□ " if kind == "space" else ""
        return Text(prefix + clean_text(data.title or "Untitled"), no_wrap=True, end="")
    return to_text(label_for(data))


def comment_badge(count: int | None) -> tuple[str, ...]:
    """What a row may show after its label for ``count`` open threads, roomiest first
    (``"  💬 12"``, ``" 💬12"``): nothing when there are none or the count is unknown."""
    return (f"  💬 {count}", f" 💬{count}") if count else ()


def walk_keys(kids: dict[str, list[NodeData]]) -> Iterable[str]:
    """Every known key below the root (the root first), depth first in tree order."""
    stack = [ROOT]
    while stack:
        key = stack.pop()
        yield key
        stack.extend(reversed([c.key for c in kids.get(key, [])]))


def subtree(kids: dict[str, list[NodeData]], key: str) -> list[NodeData]:
    """Every node below ``key`` that is loaded, depth first."""
    result: list[NodeData] = []

    def walk(parent: str) -> None:
        for child in kids.get(parent, []):
            result.append(child)
            walk(child.key)

    walk(key)
    return result


def filter_sets(
    kids: dict[str, list[NodeData]], text: str, show_hidden: bool
) -> tuple[set[str], set[str], list[str]]:
    """(keys to show, keys to expand, matches in tree order) for a filter: matches (any
    case) and their ancestors."""
    text = text.casefold()
    visible: set[str] = set()
    expand: set[str] = set()
    matches: list[str] = []

    def walk(key: str) -> bool:
        found = False
        for child in kids.get(key, []):
            if child.hidden and not show_hidden:
                continue
            hit = child.kind != "status" and text in child.title.casefold()
            if hit:
                matches.append(child.key)
            below = walk(child.key)
            if below:
                expand.add(child.key)
            if below or hit:
                visible.add(child.key)
                found = True
        return found

    walk(ROOT)
    return visible, expand, matches
