"""GitBook tags (hints, tabs, steppers, embeds, details…) → blocks, and grouping of loose parts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeAlias, TypeVar

from .model import (
    Block,
    Blocks,
    CodeBlock,
    Columns,
    Conditional,
    ContentRef,
    Details,
    EmbedCard,
    FileBlock,
    Heading,
    Hint,
    HintStyle,
    HtmlBlock,
    Include,
    ListBlock,
    ListItem,
    OpenAPICard,
    Paragraph,
    Span,
    Spans,
    Step,
    Stepper,
    Tab,
    Tabs,
    UnknownBlock,
    Update,
    Updates,
    plain_text,
)
from .tags import TagInfo

__all__ = ["PART_TYPES", "Item", "finish", "is_true", "tag_blocks"]


@dataclass(frozen=True, slots=True)
class _Column:
    blocks: Blocks


@dataclass(frozen=True, slots=True)
class _Summary:
    spans: Spans
    extra: Blocks


@dataclass(frozen=True, slots=True)
class _Branch:
    """An ``{% else %}``/``{% elif … %}`` marker inside an ``{% if %}``."""

    label: str


_Part: TypeAlias = Tab | Step | _Column | Update | _Summary | ListItem | _Branch
Item: TypeAlias = Block | _Part
_P = TypeVar("_P", Tab, Step, _Column, Update)

_HINT_STYLES: dict[str, HintStyle] = {
    "info": "info",
    "note": "info",
    "success": "success",
    "tip": "success",
    "warning": "warning",
    "warn": "warning",
    "caution": "warning",
    "danger": "danger",
    "error": "danger",
}
_OPENAPI_TAGS = {"openapi", "openapi-operation", "openapi-webhook", "swagger"}
PART_TYPES = (Tab, Step, _Column, Update, _Summary, ListItem, _Branch)
_BRANCH_TAGS = frozenset({"else", "elif", "elsif", "elseif"})


def is_true(value: str | None) -> bool:
    return value is not None and value.strip().lower() in ("", "true", "yes", "1")


def _first(info: TagInfo, *keys: str) -> str:
    for key in keys:
        value = info.attrs.get(key)
        if value:
            return value
    return info.args[0] if info.args else ""


def tag_blocks(
    info: TagInfo, children: list[Item], links: list[tuple[str, str]], links_before: int
) -> list[Item]:
    """Blocks of one GitBook tag holding ``children``; links it makes go to ``links``
    (an embed's before the ones found inside it, which start at ``links_before``)."""
    name = info.name
    if name == "hint":
        style = _HINT_STYLES.get(info.attrs.get("style", "info").strip().lower(), "info")
        return [Hint(style, finish(children))]
    if name == "tabs":
        tabs = _group(children, Tab, lambda blocks: Tab("", blocks))
        return [Tabs(tuple(tabs))]
    if name == "tab":
        return [Tab(_first(info, "title"), finish(children))]
    if name == "stepper":
        steps = _group(children, Step, lambda blocks: Step(None, blocks))
        return [Stepper(tuple(steps))]
    if name == "step":
        return [Step(info.attrs.get("title") or None, finish(children))]
    if name == "columns":
        columns = _group(children, _Column, _Column)
        return [Columns(tuple(column.blocks for column in columns))]
    if name == "column":
        return [_Column(finish(children))]
    if name == "updates":
        updates = _group(children, Update, lambda blocks: Update("", blocks))
        return [Updates(tuple(updates))]
    if name == "update":
        return [Update(_first(info, "date"), finish(children))]
    if name == "code":
        return _code(info, children)
    if name in _OPENAPI_TAGS:
        kind: Literal["openapi", "swagger"] = "swagger" if name == "swagger" else "openapi"
        return [
            OpenAPICard(
                src=_first(info, "src", "spec", "baseUrl"),
                path=info.attrs.get("path") or info.attrs.get("name") or "",
                method=info.attrs.get("method", ""),
                blocks=finish(children),
                kind=kind,
            )
        ]
    if name == "embed":
        url = _first(info, "url", "src")
        caption, rest = _caption(children)
        links.insert(links_before, (plain_text(caption).strip() or url, url))
        return [EmbedCard(url, caption), *rest]
    if name == "file":
        caption, rest = _caption(children)
        return [FileBlock(_first(info, "src", "url"), caption), *rest]
    if name == "content-ref":
        url = _first(info, "url", "src")
        caption, rest = _caption(children)
        title = plain_text(caption).strip() or url
        if len(links) == links_before:
            links.append((title, url))
        return [ContentRef(url, title), *rest]
    if name == "include":
        return [Include(_first(info, "path", "src", "file"))]
    if name == "if":
        return [_conditional(info, children)]
    if name in _BRANCH_TAGS:
        return [_Branch(f"{name} {info.source}".strip() if name != "else" else "else")]
    if name == "html:details":
        summary: Spans = ()
        blocks: list[Item] = []
        found = False
        for child in children:
            if isinstance(child, _Summary) and not found:
                summary, found = child.spans, True
                blocks.extend(child.extra)
            else:
                blocks.append(child)
        return [Details(summary, finish(blocks), "open" in info.attrs)]
    if name == "html:summary":
        spans, rest = _caption(children, everything=True)
        return [_Summary(spans, finish(rest))]
    attrs = dict(info.attrs)
    for k, arg in enumerate(info.args):
        attrs.setdefault(f"arg{k}", arg)
    return [UnknownBlock(name, attrs, finish(children))]


def _code(info: TagInfo, children: list[Item]) -> list[Item]:
    title = info.attrs.get("title") or None
    line_numbers = is_true(info.attrs.get("lineNumbers"))
    full_width = is_true(info.attrs.get("fullWidth"))
    out: list[Item] = []
    for child in children:
        if isinstance(child, CodeBlock):
            child = replace(
                child,
                title=title or child.title,
                line_numbers=line_numbers or child.line_numbers,
                full_width=full_width or child.full_width,
            )
        out.append(child)
    return out


def _conditional(info: TagInfo, children: list[Item]) -> Conditional:
    """``{% if %}`` content split at its ``{% else %}``/``{% elif %}`` markers."""
    branches: list[tuple[str, Blocks]] = []
    label = f"if {info.source}".strip()
    current: list[Item] = []
    for child in children:
        if isinstance(child, _Branch):
            branches.append((label, finish(current)))
            label, current = child.label, []
        else:
            current.append(child)
    branches.append((label, finish(current)))
    return Conditional(tuple(branches))


def _caption(children: list[Item], everything: bool = False) -> tuple[Spans, list[Item]]:
    """Caption spans from leading text blocks; the other children are returned."""
    spans: list[Span] = []
    rest: list[Item] = []
    taking = True
    for child in children:
        if taking and isinstance(child, Paragraph | Heading):
            if spans:
                spans.append(Span(" "))
            spans.extend(child.spans)
            taking = everything
        elif taking and isinstance(child, HtmlBlock):
            if spans:
                spans.append(Span(" "))
            spans.append(Span(child.text))
            taking = everything
        else:
            taking = False
            rest.append(child)
    return tuple(spans), rest


def _group(children: list[Item], part: type[_P], make: Callable[[Blocks], _P]) -> list[_P]:
    parts: list[_P] = []
    stray: list[Item] = []
    for child in children:
        if isinstance(child, part):
            if stray:
                parts.append(make(finish(stray)))
                stray = []
            parts.append(child)
        else:
            stray.append(child)
    if stray:
        parts.append(make(finish(stray)))
    return parts


def finish(items: Sequence[Item]) -> Blocks:
    """Blocks from converted items; orphan parts are grouped into their container."""
    blocks: list[Block] = []
    k = 0
    n = len(items)
    while k < n:
        item = items[k]
        if not isinstance(item, PART_TYPES):
            blocks.append(item)
            k += 1
            continue
        kind = type(item)
        j = k
        while j < n and type(items[j]) is kind:
            j += 1
        run: Any = items[k:j]
        if kind is Tab:
            blocks.append(Tabs(tuple(run)))
        elif kind is Step:
            blocks.append(Stepper(tuple(run)))
        elif kind is _Column:
            blocks.append(Columns(tuple(c.blocks for c in run)))
        elif kind is Update:
            blocks.append(Updates(tuple(run)))
        elif kind is ListItem:
            blocks.append(ListBlock(False, 1, tuple(run)))
        elif kind is _Branch:  # an {% else %} outside any {% if %}: say so
            blocks.extend(UnknownBlock(branch.label.split(" ", 1)[0]) for branch in run)
        else:  # a <summary> outside <details>
            for summary in run:
                if summary.spans:
                    blocks.append(Paragraph(summary.spans))
                blocks.extend(summary.extra)
        k = j
    return tuple(blocks)
