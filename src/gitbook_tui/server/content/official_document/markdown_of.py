"""Official JSON documents given in requests back to markdown (common blocks and marks;
other blocks give their text)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .nodes import Node

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
