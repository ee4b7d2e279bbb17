"""The block model (``gitbook_tui.markdown``) as official document nodes: :class:`Converter`
builds each block's node and fits its children into what the parent allows
(:mod:`.fitting`); links, images and files become content references through ``resolve``."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from ....markdown import model as md
from ....markdown import parse
from ....markdown.model import Span
from ...core.slugs import slugify
from .fitting import fit
from .nodes import (
    IN_COLUMN,
    IN_EXPANDABLE,
    IN_HINT,
    IN_LIST_ITEM,
    IN_QUOTE,
    IN_STEP,
    IN_TAB,
    IN_UPDATE,
    TOP_LEVEL,
    URL_RE,
    Node,
    Resolver,
    block_node,
    leaf,
    text_node,
    void_node,
)

_MARKS = {"bold": "bold", "italic": "italic", "code": "code", "strike": "strikethrough"}
_ALIGN = {"left": "left", "center": "center", "right": "right"}


class Converter:
    """Builds official nodes from the block model (``resolve``: relative target → ref)."""

    def __init__(self, resolve: Resolver | None = None) -> None:
        self.resolve = resolve

    # -- references ----------------------------------------------------------------------------
    def ref(self, target: str) -> dict[str, Any]:
        if self.resolve is not None and target and not URL_RE.match(target):
            found = self.resolve(target)
            if found is not None:
                return found
        return {"kind": "url", "url": target}

    def _image_ref(self, target: str) -> dict[str, Any]:
        ref = self.ref(target)
        return ref if ref["kind"] in ("url", "file") else {"kind": "url", "url": target}

    # -- inline content ------------------------------------------------------------------------------
    def inlines(self, spans: Iterable[Span]) -> list[Node]:
        """Text nodes and link inlines of ``spans`` (consecutive runs merged into one text)."""
        nodes: list[Node] = []
        for span in spans:
            marks = [_MARKS[s] for s in sorted(span.style) if s in _MARKS]
            if "link" in span.style and span.href:
                nodes.append(
                    {
                        "object": "inline",
                        "type": "link",
                        "isVoid": False,
                        "data": {"ref": self.ref(span.href)},
                        "nodes": [text_node(span.text, marks)],
                    }
                )
            elif nodes and nodes[-1]["object"] == "text":
                nodes[-1]["leaves"].append(leaf(span.text, marks))
            else:
                nodes.append(text_node(span.text, marks))
        return nodes or [text_node("")]

    def paragraph(self, spans: Iterable[Span]) -> Node:
        return block_node("paragraph", self.inlines(spans))

    # -- blocks ----------------------------------------------------------------------------------------
    def blocks(self, blocks: Iterable[Any], allowed: frozenset[str] = TOP_LEVEL) -> list[Node]:
        """Official nodes of ``blocks``, each fitted into ``allowed``."""
        out: list[Node] = []
        for block in blocks:
            for node in self.block(block):
                out.extend(fit(node, allowed))
        return out

    def block(self, block: Any) -> list[Node]:
        """The official node(s) of one block of the model, not yet fitted to a parent."""
        if isinstance(block, md.Paragraph):
            return [self.paragraph(block.spans)]
        if isinstance(block, md.Heading):
            level = min(max(block.level, 1), 3)
            anchor = slugify(md.plain_text(block.spans), "") or block.anchor
            data = {"id": anchor} if anchor else {}
            return [block_node(f"heading-{level}", self.inlines(block.spans), data)]
        if isinstance(block, md.CodeBlock):
            return [self.code(block.code, block.language, block.title, block.line_numbers)]
        if isinstance(block, md.Quote):
            return [block_node("blockquote", self.blocks(block.blocks, IN_QUOTE))]
        if isinstance(block, md.ListBlock):
            return [self.list_block(block)]
        if isinstance(block, md.Table):
            return [self.table(block)]
        if isinstance(block, md.Rule):
            return [void_node("divider")]
        if isinstance(block, md.Hint):
            return [block_node("hint", self.blocks(block.blocks, IN_HINT), {"style": block.style})]
        if isinstance(block, md.Tabs):
            items = [
                block_node("tabs-item", self.blocks(tab.blocks, IN_TAB), {"title": tab.title})
                for tab in block.tabs
            ]
            return [block_node("tabs", items)]
        if isinstance(block, md.Stepper):
            return [block_node("stepper", [self.step(step) for step in block.steps])]
        if isinstance(block, md.Columns):
            columns = [block_node("column", self.blocks(c, IN_COLUMN)) for c in block.columns]
            return [block_node("columns", columns)]
        if isinstance(block, md.Details):
            return [self.expandable(block)]
        if isinstance(block, md.Image | md.Figure):
            caption = getattr(block, "caption", ()) or ()
            return [self.images(block.src, block.alt, caption)]
        if isinstance(block, md.FileBlock):
            return self.file(block.src, block.caption)
        if isinstance(block, md.EmbedCard):
            return [void_node("embed", {"url": block.url})]
        if isinstance(block, md.ContentRef):
            return [void_node("content-ref", {"ref": self.ref(block.url)})]
        if isinstance(block, md.Include):
            found = self.ref(block.path)
            ref = (
                found
                if found["kind"] == "reusable-content"
                else {"kind": "reusable-content", "reusableContent": block.path}
            )
            return [void_node("reusable-content", {"ref": ref})]
        if isinstance(block, md.Updates):
            return self.updates(block)
        if isinstance(block, md.OpenAPICard):
            return self.openapi(block)
        if isinstance(block, md.Footnotes):
            out: list[Node] = []
            for label, blocks in block.items:
                out.append(block_node("paragraph", [text_node(f"[{label}]", ["bold"])]))
                out.extend(self.blocks(blocks, TOP_LEVEL))
            return out
        if isinstance(block, md.UnknownBlock):
            return self.unknown(block)
        if isinstance(block, md.HtmlBlock):
            return [block_node("paragraph", [text_node(block.text)])] if block.text.strip() else []
        return self.other(block)

    def other(self, block: Any) -> list[Node]:
        """A block type this converter does not know (the model grows): its spans as a
        paragraph, its children spliced in, or its text."""
        if getattr(block, "spans", None) is not None:
            return [self.paragraph(block.spans)]
        children = list(md.child_blocks(block))
        if children:
            return self.blocks(children, TOP_LEVEL)
        text = getattr(block, "text", None) or getattr(block, "code", None)
        return [block_node("paragraph", [text_node(str(text))])] if text else []

    def code(self, code: str, language: str | None, title: str | None, numbers: bool) -> Node:
        data: dict[str, Any] = {}
        if language:
            data["syntax"] = language
        if title:
            data["title"] = title
        if numbers:
            data["lineNumbers"] = True
        lines = [block_node("code-line", [text_node(line)]) for line in code.split("\n")]
        return block_node("code", lines, data)

    def list_block(self, block: md.ListBlock) -> Node:
        tasks = any(item.checked is not None for item in block.items)
        items = []
        for item in block.items:
            children = self.blocks(item.blocks, IN_LIST_ITEM) or [
                block_node("paragraph", [text_node("")])
            ]
            data = {"checked": bool(item.checked)} if tasks else {}
            items.append(block_node("list-item", children, data))
        if tasks:
            return block_node("list-tasks", items)
        if block.ordered:
            return block_node("list-ordered", items, {"start": block.start})
        return block_node("list-unordered", items)

    def table(self, block: md.Table) -> Node:
        width = max([len(block.header), *(len(row) for row in block.rows)])
        columns = [f"column{i}" for i in range(width)]
        definition = {}
        for i, column in enumerate(columns):
            title = md.plain_text(block.header[i]) if i < len(block.header) else ""
            align = block.aligns[i] if i < len(block.aligns) else None
            definition[column] = {
                "id": column,
                "title": title,
                "type": "text",
                "textAlignment": _ALIGN.get(align or "left", "left"),
            }
        records: dict[str, Any] = {}
        fragments: list[Node] = []
        for r, row in enumerate(block.rows):
            values = {}
            for c, cell in enumerate(row[:width]):
                key = f"cell{r}-{c}"
                values[columns[c]] = key
                fragments.append(
                    {
                        "object": "fragment",
                        "fragment": key,
                        "type": "table-cell",
                        "nodes": [self.paragraph(cell)],
                    }
                )
            records[f"row{r}"] = {"orderIndex": f"a{r:06d}", "values": values}
        view = {"type": "grid", "columns": columns, "hideHeader": not any(block.header)}
        data = {"view": view, "records": records, "definition": definition}
        return {
            "object": "block",
            "type": "table",
            "isVoid": True,
            "data": data,
            "fragments": fragments,
        }

    def step(self, step: md.Step) -> Node:
        children = self.blocks(step.blocks, IN_STEP)
        if step.title:
            children.insert(0, block_node("heading-3", [text_node(step.title)]))
        return block_node("stepper-step", children or [block_node("paragraph", [text_node("")])])

    def expandable(self, block: md.Details) -> Node:
        title = [self.paragraph(block.summary)]
        body = self.blocks(block.blocks, IN_EXPANDABLE) or [
            block_node("paragraph", [text_node("")])
        ]
        fragments = [
            {"object": "fragment", "fragment": "expandable-title", "type": "expandable-title"}
            | {"nodes": title},
            {"object": "fragment", "fragment": "expandable-body", "type": "expandable-body"}
            | {"nodes": body},
        ]
        data = {"defaultExpanded": True} if block.open else {}
        return {
            "object": "block",
            "type": "expandable",
            "isVoid": True,
            "data": data,
            "fragments": fragments,
        }

    def images(self, src: str, alt: str, caption: Iterable[Span]) -> Node:
        spans = tuple(caption)
        data: dict[str, Any] = {"ref": self._image_ref(src)}
        if alt:
            data["alt"] = alt
        fragments = (
            [{"object": "fragment", "fragment": "caption", "nodes": [self.paragraph(spans)]}]
            if spans
            else []
        )
        image = {"object": "block", "type": "image", "isVoid": True, "data": data}
        return {
            "object": "block",
            "type": "images",
            "isVoid": False,
            "data": {},
            "nodes": [image | {"fragments": fragments}],
        }

    def file(self, src: str, caption: Iterable[Span]) -> list[Node]:
        ref = self.ref(src)
        if ref["kind"] == "file":
            return [void_node("file", {"ref": ref})]
        label = md.plain_text(caption) or src
        return [self.paragraph((Span(label, frozenset({"link"}), src),))]

    def updates(self, block: md.Updates) -> list[Node]:
        entries = []
        for update in block.updates:
            date = _timestamp(update.date)
            if date is None:  # an entry without a date cannot be an update: keep its text
                return self._flatten_updates(block)
            entries.append(
                block_node("update", self.blocks(update.blocks, IN_UPDATE), {"date": date})
            )
        return [block_node("updates", entries, {"format": "full"})]

    def _flatten_updates(self, block: md.Updates) -> list[Node]:
        out: list[Node] = []
        for update in block.updates:
            if update.date:
                out.append(block_node("heading-3", [text_node(update.date)]))
            out.extend(self.blocks(update.blocks, TOP_LEVEL))
        return out

    def openapi(self, block: md.OpenAPICard) -> list[Node]:
        pointer = {"path": block.path, "method": block.method}
        if block.src and (URL_RE.match(block.src) or block.kind == "swagger"):
            ref = self.ref(block.src)
            if ref["kind"] not in ("url", "file"):
                ref = {"kind": "url", "url": block.src}
            node = void_node("swagger", {"ref": ref, **pointer})
        else:
            node = void_node("openapi-operation", {"ref": {"kind": "openapi", "spec": block.src}})
            node["data"].update(pointer)
        return [node, *self.blocks(block.blocks, TOP_LEVEL)]

    def unknown(self, block: md.UnknownBlock) -> list[Node]:
        if block.tag == "if":
            expression = block.attrs.get("condition") or block.attrs.get("arg0") or "true"
            return [
                block_node("if", self.blocks(block.blocks, TOP_LEVEL), {"expression": expression})
            ]
        label = " ".join([block.tag, *(f'{k}="{v}"' for k, v in block.attrs.items())])
        return [
            block_node("paragraph", [text_node(label, ["code"])]),
            *self.blocks(block.blocks, TOP_LEVEL),
        ]


def _timestamp(text: str) -> str | None:
    """An update's date as an ISO date-time (dates alone are midnight UTC)."""
    text = text.strip()
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        for pattern in ("%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%Y/%m/%d"):
            try:
                when = datetime.strptime(text, pattern)
                break
            except ValueError:
                continue
        else:
            return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def to_document(markdown: str | md.Document, resolve: Resolver | None = None) -> dict[str, Any]:
    """The official JSON document of a page's markdown (or of its parsed block model)."""
    parsed = parse(markdown) if isinstance(markdown, str) else markdown
    return {"object": "document", "data": {}, "nodes": Converter(resolve).blocks(parsed.blocks)}
