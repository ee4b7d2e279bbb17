"""Fitting official nodes into their parent: a block not allowed where it stands is degraded
into allowed blocks that keep its text (children spliced in, code as code-marked paragraphs,
an image, embed or card as a link), so nothing written is lost."""

from __future__ import annotations

from .nodes import Node, block_node, plain_text_of, text_node

_CONTAINERS = frozenset(
    {"list-ordered", "list-unordered", "list-tasks", "blockquote", "hint", "tabs", "stepper"}
    | {"columns", "updates", "if", "images"}
)
_WRAPPERS = frozenset({"list-item", "tabs-item", "stepper-step", "column", "update", "image"})


def fit(node: Node, allowed: frozenset[str]) -> list[Node]:
    """``node`` if ``allowed`` holds its type, otherwise allowed blocks keeping its text."""
    kind = node["type"]
    if kind in allowed:
        return [node]
    if kind == "code":
        lines = [line["nodes"][0]["leaves"][0]["text"] for line in node["nodes"]]
        return [
            block_node("paragraph", [text_node(line, ["code"])]) for line in lines if line
        ] or []
    if kind in _CONTAINERS:
        out: list[Node] = []
        for child in node.get("nodes", []):
            if child["type"] in ("tabs-item",) and child["data"].get("title"):
                out.append(block_node("paragraph", [text_node(child["data"]["title"], ["bold"])]))
            if child["type"] == "update":
                out.append(
                    block_node("paragraph", [text_node(child["data"]["date"][:10], ["bold"])])
                )
            grandchildren = child.get("nodes") if child["object"] == "block" else None
            if child["type"] in _WRAPPERS and grandchildren is not None:
                for grandchild in grandchildren:
                    out.extend(fit(grandchild, allowed))
            else:
                out.extend(fit(child, allowed))
        return out
    if kind in ("expandable", "table"):
        out = []
        for fragment in node.get("fragments", []):
            for child in fragment["nodes"]:
                out.extend(fit(child, allowed))
        return out
    if kind in ("image", "embed", "content-ref", "swagger", "file"):
        ref = node["data"].get("ref") or {"kind": "url", "url": node["data"].get("url", "")}
        target = ref.get("url") or ref.get("page") or ref.get("file") or ""
        link = {
            "object": "inline",
            "type": "link",
            "isVoid": False,
            "data": {"ref": ref},
            "nodes": [text_node(target)],
        }
        return [block_node("paragraph", [link])] if "paragraph" in allowed else []
    text = plain_text_of(node)
    return [block_node("paragraph", [text_node(text)])] if text and "paragraph" in allowed else []
