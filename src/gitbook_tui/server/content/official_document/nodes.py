"""Node builders and nesting rules of GitBook's official JSON document (block/inline/text)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

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

URL_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def leaf(text: str, marks: Iterable[str] = ()) -> Node:
    return {
        "object": "leaf",
        "text": text,
        "marks": [{"object": "mark", "type": m} for m in marks],
    }


def text_node(text: str, marks: Iterable[str] = ()) -> Node:
    return {"object": "text", "leaves": [leaf(text, marks)]}


def block_node(kind: str, nodes: list[Node], data: dict[str, Any] | None = None) -> Node:
    return {"object": "block", "type": kind, "isVoid": False, "data": data or {}, "nodes": nodes}


def void_node(kind: str, data: dict[str, Any] | None = None) -> Node:
    return {"object": "block", "type": kind, "isVoid": True, "data": data or {}}


def plain_text_of(node: Node) -> str:
    if node.get("object") == "leaf":
        return str(node.get("text", ""))
    parts = [plain_text_of(leaf) for leaf in node.get("leaves", [])]
    parts += [plain_text_of(child) for child in node.get("nodes", [])]
    parts += [plain_text_of(fragment) for fragment in node.get("fragments", [])]
    return "".join(parts)
