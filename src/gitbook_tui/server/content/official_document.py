"""Pages' block model (``gitbook_tui.markdown``) as GitBook's JSON document (block/inline/text).

The official document model nests strictly: every block type allows only some children
(a list item holds paragraphs, lists, code, hints, quotes, math and tables; a hint no code;
a tab no table...). :func:`to_document` builds the official node for each block of the model
and fits the children into what their parent allows: a block that is not allowed where it
stands is degraded into allowed blocks that keep its text (its children spliced in, code as
code-marked paragraphs, a card as a link), so nothing written is lost.

Links, images and files are content references: ``resolve`` (when given) turns a relative
target into a page, anchor or file reference; anything else is a ``url`` reference.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from ...markdown import model as md
from ...markdown import parse
from ...markdown.model import Span
from ..core.slugs import slugify

Node = dict[str, Any]
Resolver = Callable[[str], dict[str, Any] | None]

# -- what each container may hold (the official schema's oneOf lists) ----------------------------
ESSENTIALS = frozenset(
    {"paragraph", "heading-1", "heading-2", "heading-3", "list-ordered", "list-unordered"}
    | {"list-tasks", "divider"}
)
TOP_LEVEL = ESSENTIALS | {
    "blockquote", "hint", "prompt", "images", "file", "drawing", "embed", "code", "math",
    "expandable", "tabs", "table", "swagger", "openapi-operation", "openapi-schemas",
    "openapi-webhook", "content-ref", "integration", "reusable-content", "stepper", "if",
    "columns", "updates",
}  # fmt: skip
IN_LIST_ITEM = ESSENTIALS | {"code", "hint", "blockquote", "math", "table"}
IN_HINT = ESSENTIALS | {"embed", "integration", "table"}
IN_QUOTE = ESSENTIALS | {"blockquote"}
IN_TAB = ESSENTIALS | {
    "content-ref", "code", "embed", "file", "images", "drawing", "hint", "prompt",
    "blockquote", "math", "integration",
}  # fmt: skip
IN_STEP = IN_TAB | {"expandable"}
IN_UPDATE = IN_TAB | {"tabs", "expandable"}
IN_COLUMN = IN_TAB | {"table", "expandable", "stepper"}
IN_EXPANDABLE = ESSENTIALS | {
    "file", "images", "code", "table", "hint", "prompt", "blockquote", "reusable-content",
    "integration",
}  # fmt: skip

_MARKS = {"bold": "bold", "italic": "italic", "code": "code", "strike": "strikethrough"}
_ALIGN = {"left": "left", "center": "center", "right": "right"}
_URL_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


# -- text and inlines --------------------------------------------------------------------------------
def _leaf(text: str, marks: Iterable[str] = ()) -> Node:
    return {
        "object": "leaf",
        "text": text,
        "marks": [{"object": "mark", "type": m} for m in marks],
    }


def _text(text: str, marks: Iterable[str] = ()) -> Node:
    return {"object": "text", "leaves": [_leaf(text, marks)]}


class Converter:
    """Builds official nodes from the block model (``resolve``: relative target → ref)."""

    def __init__(self, resolve: Resolver | None = None) -> None:
        self.resolve = resolve

    # -- references ----------------------------------------------------------------------------
    def ref(self, target: str) -> dict[str, Any]:
        if self.resolve is not None and target and not _URL_RE.match(target):
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
                        "nodes": [_text(span.text, marks)],
                    }
                )
            elif nodes and nodes[-1]["object"] == "text":
                nodes[-1]["leaves"].append(_leaf(span.text, marks))
            else:
                nodes.append(_text(span.text, marks))
        return nodes or [_text("")]

    def paragraph(self, spans: Iterable[Span]) -> Node:
        return _block("paragraph", self.inlines(spans))

    # -- blocks ----------------------------------------------------------------------------------------
    def blocks(self, blocks: Iterable[Any], allowed: frozenset[str] = TOP_LEVEL) -> list[Node]:
        """Official nodes of ``blocks``, each fitted into ``allowed``."""
        out: list[Node] = []
        for block in blocks:
            for node in self.block(block):
                out.extend(self.fit(node, allowed))
        return out

    def block(self, block: Any) -> list[Node]:
        """The official node(s) of one block of the model, not yet fitted to a parent."""
        if isinstance(block, md.Paragraph):
            return [self.paragraph(block.spans)]
        if isinstance(block, md.Heading):
            level = min(max(block.level, 1), 3)
            anchor = slugify(md.plain_text(block.spans), "") or block.anchor
            data = {"id": anchor} if anchor else {}
            return [_block(f"heading-{level}", self.inlines(block.spans), data)]
        if isinstance(block, md.CodeBlock):
            return [self.code(block.code, block.language, block.title, block.line_numbers)]
        if isinstance(block, md.Quote):
            return [_block("blockquote", self.blocks(block.blocks, IN_QUOTE))]
        if isinstance(block, md.ListBlock):
            return [self.list_block(block)]
        if isinstance(block, md.Table):
            return [self.table(block)]
        if isinstance(block, md.Rule):
            return [_void("divider")]
        if isinstance(block, md.Hint):
            return [_block("hint", self.blocks(block.blocks, IN_HINT), {"style": block.style})]
        if isinstance(block, md.Tabs):
            items = [
                _block("tabs-item", self.blocks(tab.blocks, IN_TAB), {"title": tab.title})
                for tab in block.tabs
            ]
            return [_block("tabs", items)]
        if isinstance(block, md.Stepper):
            return [_block("stepper", [self.step(step) for step in block.steps])]
        if isinstance(block, md.Columns):
            columns = [_block("column", self.blocks(c, IN_COLUMN)) for c in block.columns]
            return [_block("columns", columns)]
        if isinstance(block, md.Details):
            return [self.expandable(block)]
        if isinstance(block, md.Image | md.Figure):
            caption = getattr(block, "caption", ()) or ()
            return [self.images(block.src, block.alt, caption)]
        if isinstance(block, md.FileBlock):
            return self.file(block.src, block.caption)
        if isinstance(block, md.EmbedCard):
            return [_void("embed", {"url": block.url})]
        if isinstance(block, md.ContentRef):
            return [_void("content-ref", {"ref": self.ref(block.url)})]
        if isinstance(block, md.Include):
            found = self.ref(block.path)
            ref = (
                found
                if found["kind"] == "reusable-content"
                else {"kind": "reusable-content", "reusableContent": block.path}
            )
            return [_void("reusable-content", {"ref": ref})]
        if isinstance(block, md.Updates):
            return self.updates(block)
        if isinstance(block, md.OpenAPICard):
            return self.openapi(block)
        if isinstance(block, md.Footnotes):
            out: list[Node] = []
            for label, blocks in block.items:
                out.append(_block("paragraph", [_text(f"[{label}]", ["bold"])]))
                out.extend(self.blocks(blocks, TOP_LEVEL))
            return out
        if isinstance(block, md.UnknownBlock):
            return self.unknown(block)
        if isinstance(block, md.HtmlBlock):
            return [_block("paragraph", [_text(block.text)])] if block.text.strip() else []
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
        return [_block("paragraph", [_text(str(text))])] if text else []

    def code(self, code: str, language: str | None, title: str | None, numbers: bool) -> Node:
        data: dict[str, Any] = {}
        if language:
            data["syntax"] = language
        if title:
            data["title"] = title
        if numbers:
            data["lineNumbers"] = True
        lines = [_block("code-line", [_text(line)]) for line in code.split("\n")]
        return _block("code", lines, data)

    def list_block(self, block: md.ListBlock) -> Node:
        tasks = any(item.checked is not None for item in block.items)
        items = []
        for item in block.items:
            children = self.blocks(item.blocks, IN_LIST_ITEM) or [_block("paragraph", [_text("")])]
            data = {"checked": bool(item.checked)} if tasks else {}
            items.append(_block("list-item", children, data))
        if tasks:
            return _block("list-tasks", items)
        if block.ordered:
            return _block("list-ordered", items, {"start": block.start})
        return _block("list-unordered", items)

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
            **_frag(fragments),
        }

    def step(self, step: md.Step) -> Node:
        children = self.blocks(step.blocks, IN_STEP)
        if step.title:
            children.insert(0, _block("heading-3", [_text(step.title)]))
        return _block("stepper-step", children or [_block("paragraph", [_text("")])])

    def expandable(self, block: md.Details) -> Node:
        title = [self.paragraph(block.summary)]
        body = self.blocks(block.blocks, IN_EXPANDABLE) or [_block("paragraph", [_text("")])]
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
            return [_void("file", {"ref": ref})]
        label = md.plain_text(caption) or src
        return [self.paragraph((Span(label, frozenset({"link"}), src),))]

    def updates(self, block: md.Updates) -> list[Node]:
        entries = []
        for update in block.updates:
            date = _timestamp(update.date)
            if date is None:  # an entry without a date cannot be an update: keep its text
                return self._flatten_updates(block)
            entries.append(_block("update", self.blocks(update.blocks, IN_UPDATE), {"date": date}))
        return [_block("updates", entries, {"format": "full"})]

    def _flatten_updates(self, block: md.Updates) -> list[Node]:
        out: list[Node] = []
        for update in block.updates:
            if update.date:
                out.append(_block("heading-3", [_text(update.date)]))
            out.extend(self.blocks(update.blocks, TOP_LEVEL))
        return out

    def openapi(self, block: md.OpenAPICard) -> list[Node]:
        pointer = {"path": block.path, "method": block.method}
        if block.src and (_URL_RE.match(block.src) or block.kind == "swagger"):
            ref = self.ref(block.src)
            if ref["kind"] not in ("url", "file"):
                ref = {"kind": "url", "url": block.src}
            node = _void("swagger", {"ref": ref, **pointer})
        else:
            node = _void("openapi-operation", {"ref": {"kind": "openapi", "spec": block.src}})
            node["data"].update(pointer)
        return [node, *self.blocks(block.blocks, TOP_LEVEL)]

    def unknown(self, block: md.UnknownBlock) -> list[Node]:
        if block.tag == "if":
            expression = block.attrs.get("condition") or block.attrs.get("arg0") or "true"
            return [_block("if", self.blocks(block.blocks, TOP_LEVEL), {"expression": expression})]
        label = " ".join([block.tag, *(f'{k}="{v}"' for k, v in block.attrs.items())])
        return [
            _block("paragraph", [_text(label, ["code"])]),
            *self.blocks(block.blocks, TOP_LEVEL),
        ]

    # -- fitting children to their parent ---------------------------------------------------------
    def fit(self, node: Node, allowed: frozenset[str]) -> list[Node]:
        """``node`` if ``allowed`` holds its type, otherwise allowed blocks keeping its text."""
        kind = node["type"]
        if kind in allowed:
            return [node]
        if kind == "code":
            lines = [line["nodes"][0]["leaves"][0]["text"] for line in node["nodes"]]
            return [_block("paragraph", [_text(line, ["code"])]) for line in lines if line] or []
        if kind in _CONTAINERS:
            out: list[Node] = []
            for child in node.get("nodes", []):
                if child["type"] in ("tabs-item",) and child["data"].get("title"):
                    out.append(_block("paragraph", [_text(child["data"]["title"], ["bold"])]))
                if child["type"] == "update":
                    out.append(_block("paragraph", [_text(child["data"]["date"][:10], ["bold"])]))
                grandchildren = child.get("nodes") if child["object"] == "block" else None
                if child["type"] in _WRAPPERS and grandchildren is not None:
                    for grandchild in grandchildren:
                        out.extend(self.fit(grandchild, allowed))
                else:
                    out.extend(self.fit(child, allowed))
            return out
        if kind in ("expandable", "table"):
            out = []
            for fragment in node.get("fragments", []):
                for child in fragment["nodes"]:
                    out.extend(self.fit(child, allowed))
            return out
        if kind in ("image", "embed", "content-ref", "swagger", "file"):
            ref = node["data"].get("ref") or {"kind": "url", "url": node["data"].get("url", "")}
            target = ref.get("url") or ref.get("page") or ref.get("file") or ""
            link = {
                "object": "inline",
                "type": "link",
                "isVoid": False,
                "data": {"ref": ref},
                "nodes": [_text(target)],
            }
            return [_block("paragraph", [link])] if "paragraph" in allowed else []
        text = _plain(node)
        return [_block("paragraph", [_text(text)])] if text and "paragraph" in allowed else []


_CONTAINERS = frozenset(
    {"list-ordered", "list-unordered", "list-tasks", "blockquote", "hint", "tabs", "stepper"}
    | {"columns", "updates", "if", "images"}
)
_WRAPPERS = frozenset({"list-item", "tabs-item", "stepper-step", "column", "update", "image"})


def _block(kind: str, nodes: list[Node], data: dict[str, Any] | None = None) -> Node:
    return {"object": "block", "type": kind, "isVoid": False, "data": data or {}, "nodes": nodes}


def _void(kind: str, data: dict[str, Any] | None = None) -> Node:
    return {"object": "block", "type": kind, "isVoid": True, "data": data or {}}


def _frag(fragments: list[Node]) -> dict[str, Any]:
    return {"fragments": fragments}


def _plain(node: Node) -> str:
    if node.get("object") == "leaf":
        return str(node.get("text", ""))
    parts = [_plain(leaf) for leaf in node.get("leaves", [])]
    parts += [_plain(child) for child in node.get("nodes", [])]
    parts += [_plain(fragment) for fragment in node.get("fragments", [])]
    return "".join(parts)


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


# -- back to markdown (documents given in requests) ----------------------------------------------
_MARK_WRAP = {"bold": "**", "italic": "_", "code": "`", "strikethrough": "~~"}


def _leaves_markdown(node: Node) -> str:
    out = []
    for leaf in node.get("leaves", []):
        text = str(leaf.get("text", ""))
        for mark in leaf.get("marks", []):
            wrap = _MARK_WRAP.get(mark.get("type", "")) if isinstance(mark, dict) else None
            if wrap and text.strip():
                text = f"{wrap}{text}{wrap}"
        out.append(text)
    return "".join(out)


def _inline_markdown(nodes: Iterable[Any]) -> str:
    out = []
    for node in nodes:
        if not isinstance(node, dict):
            continue
        if node.get("object") == "text":
            out.append(_leaves_markdown(node))
        elif node.get("type") == "link":
            ref = (node.get("data") or {}).get("ref") or {}
            target = ref.get("url") or (f"/pages/{ref['page']}" if ref.get("page") else "")
            label = _inline_markdown(node.get("nodes", []))
            out.append(f"[{label}]({target})" if target else label)
        elif node.get("type") == "emoji":
            out.append(str((node.get("data") or {}).get("code", "")))
        else:
            out.append(_inline_markdown(node.get("nodes", [])))
    return "".join(out)


def _blocks_markdown(nodes: Iterable[Any], indent: str = "") -> list[str]:
    """Markdown paragraphs (blank-line separated chunks) of official block nodes."""
    chunks: list[str] = []
    for node in nodes:
        if not isinstance(node, dict):
            continue
        kind = node.get("type", "")
        children = node.get("nodes", [])
        if node.get("object") in ("text", "inline"):
            chunks.append(_inline_markdown([node]))
        elif kind == "paragraph":
            chunks.append(_inline_markdown(children))
        elif kind.startswith("heading-"):
            chunks.append(
                "#" * int(kind[-1] if kind[-1].isdigit() else 1) + " " + _inline_markdown(children)
            )
        elif kind == "code":
            lines = [_inline_markdown(line.get("nodes", [])) for line in children]
            syntax = (node.get("data") or {}).get("syntax") or ""
            chunks.append(f"```{syntax}\n" + "\n".join(lines) + "\n```")
        elif kind in ("list-ordered", "list-unordered", "list-tasks"):
            items = []
            for number, item in enumerate(children, start=1):
                marker = f"{number}." if kind == "list-ordered" else "-"
                if kind == "list-tasks":
                    checked = (item.get("data") or {}).get("checked")
                    marker = "- [x]" if checked else "- [ ]"
                body = "\n\n".join(_blocks_markdown(item.get("nodes", [])))
                items.append(f"{marker} " + body.replace("\n", "\n   "))
            chunks.append("\n".join(items))
        elif kind == "blockquote":
            quoted = "\n\n".join(_blocks_markdown(children))
            chunks.append("\n".join(f"> {line}" if line else ">" for line in quoted.split("\n")))
        elif kind == "divider":
            chunks.append("---")
        else:
            inner = _blocks_markdown(children)
            for fragment in node.get("fragments", []):
                if isinstance(fragment, dict):
                    inner += _blocks_markdown(fragment.get("nodes", []))
            chunks.extend(inner)
    return [chunk for chunk in chunks if chunk.strip()]


def to_markdown(document: dict[str, Any]) -> str:
    """Markdown for an official JSON document (its common blocks and marks; other blocks
    give their text)."""
    return "\n\n".join(_blocks_markdown(document.get("nodes", [])))
