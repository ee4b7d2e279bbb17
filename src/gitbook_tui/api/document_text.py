"""Markdown text of a JSON content document (as reusable contents are served)."""

from __future__ import annotations

from typing import Any

__all__ = ["document_markdown"]

_TEXT_BLOCKS = frozenset(
    {"paragraph", "blockquote", "table", "html", "list-ordered", "list-unordered", "math"}
)
_TAG_OF_TYPE = {"reusable-content": "include"}


def document_markdown(document: Any) -> str:
    """Markdown of a JSON document, one top-level block at a time: headings, code, dividers
    and GitBook blocks (hints, tabs…) written back in GitBook's markdown, any other block
    as its text. This server's documents come back as written; another server's rich nodes
    come back as readable text."""
    if not isinstance(document, dict):
        return ""
    blocks: list[str] = []
    for node in document.get("nodes") or []:
        if not isinstance(node, dict):
            continue
        parts: list[str] = []
        _collect_text(node, parts)
        text = "".join(parts).strip("\n")
        kind = str(node.get("type") or "paragraph")
        raw_data = node.get("data")
        data: dict[str, Any] = raw_data if isinstance(raw_data, dict) else {}
        if kind.startswith("heading-") and kind[-1].isdigit():
            blocks.append("#" * int(kind[-1]) + " " + text.replace("\n", " "))
        elif kind == "divider":
            blocks.append("---")
        elif kind == "code" and ("syntax" in data or not data):
            blocks.append(f"```{data.get('syntax') or ''}\n{text}\n```")
        elif kind not in _TEXT_BLOCKS and (data or kind in ("hint", "tabs", "stepper")):
            tag = _TAG_OF_TYPE.get(kind, kind)
            attrs = "".join(
                f' {key}="{value}"'
                for key, value in data.items()
                if isinstance(value, str) and '"' not in value and key.replace("-", "").isalnum()
            )
            blocks.append(f"{{% {tag}{attrs} %}}\n{text}\n{{% end{tag} %}}")
        elif text.strip():
            blocks.append(text)
    return "\n\n".join(blocks)


_MARK_WRAP = {"bold": "**", "italic": "_", "code": "`", "strikethrough": "~~"}


def _collect_text(node: Any, parts: list[str]) -> None:
    """The text of a node as markdown: marks wrap their text, links keep their target,
    sibling blocks go on separate lines."""
    if not isinstance(node, dict):
        return
    if node.get("object") == "inline" and node.get("type") == "link":
        inner: list[str] = []
        for child in node.get("nodes") or []:
            _collect_text(child, inner)
        raw_ref = (node.get("data") or {}).get("ref")
        ref: dict[str, Any] = raw_ref if isinstance(raw_ref, dict) else {}
        target = ref.get("url") or (f"/pages/{ref['page']}" if ref.get("page") else "")
        parts.append(f"[{''.join(inner)}]({target})" if target else "".join(inner))
        return
    for leaf in node.get("leaves") or []:
        if isinstance(leaf, dict) and isinstance(leaf.get("text"), str):
            text = leaf["text"]
            for mark in leaf.get("marks") or []:
                wrap = _MARK_WRAP.get(mark.get("type", "")) if isinstance(mark, dict) else None
                if wrap and text.strip():
                    text = f"{wrap}{text}{wrap}"
            parts.append(text)
    first = True
    for child in node.get("nodes") or []:
        if isinstance(child, dict) and child.get("object") == "block" and not first:
            parts.append("\n")
        first = False
        _collect_text(child, parts)
