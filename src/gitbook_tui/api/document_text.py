"""Markdown text of a JSON content document (as reusable contents are served)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Unreadable", "document_markdown", "document_parts", "document_readable"]

_TEXT_BLOCKS = frozenset(
    {"paragraph", "blockquote", "table", "html", "list-ordered", "list-unordered", "math"}
)
_TAG_OF_TYPE = {"reusable-content": "include"}


@dataclass(frozen=True)
class Unreadable:
    """A top-level block of a document that could not be converted (a field of the wrong
    type, say): shown as such, so one bad block does not cost the reader the others."""

    kind: str
    reason: str


def document_parts(document: Any) -> list[str | Unreadable]:
    """The top-level blocks of a JSON document, each as markdown (headings, code, dividers
    and GitBook blocks such as hints and tabs written back in GitBook's markdown, any other
    block as its text), or :class:`Unreadable` for one that does not convert. This server's
    documents come back as written; another server's rich nodes as readable text."""
    if not isinstance(document, dict):
        return []
    nodes = document.get("nodes")
    if nodes is None:
        return []
    if not isinstance(nodes, list):
        return [Unreadable("document", f"'nodes' is {type(nodes).__name__}, not a list")]
    parts: list[str | Unreadable] = []
    for node in nodes:
        if not isinstance(node, dict):
            parts.append(Unreadable("node", f"a {type(node).__name__}, not an object"))
            continue
        try:
            block = _block(node)
        except Exception as exc:  # any malformed field: this block only
            parts.append(Unreadable(str(node.get("type") or "block")[:40], _reason(exc)))
            continue
        if block:
            parts.append(block)
    return parts


def document_readable(document: Any) -> bool:
    """Whether every block of ``document`` converts (the client's cache keeps only those)."""
    return not any(isinstance(part, Unreadable) for part in document_parts(document))


def document_markdown(document: Any) -> str:
    """Markdown of a JSON document (see :func:`document_parts`); an unreadable block is a
    line saying so."""
    return "\n\n".join(
        part if isinstance(part, str) else f"*(unreadable {part.kind} block: {part.reason})*"
        for part in document_parts(document)
    )


def _reason(exc: Exception) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


def _block(node: dict[str, Any]) -> str:
    """One top-level block as markdown ("" when it has nothing to show)."""
    parts: list[str] = []
    _collect_text(node, parts)
    text = "".join(parts).strip("\n")
    kind = str(node.get("type") or "paragraph")
    raw_data = node.get("data")
    data: dict[str, Any] = raw_data if isinstance(raw_data, dict) else {}
    if kind.startswith("heading-") and kind[-1].isdigit():
        return "#" * int(kind[-1]) + " " + text.replace("\n", " ")
    if kind == "divider":
        return "---"
    if kind == "code" and ("syntax" in data or not data):
        return f"```{data.get('syntax') or ''}\n{text}\n```"
    if kind not in _TEXT_BLOCKS and (data or kind in ("hint", "tabs", "stepper")):
        tag = _TAG_OF_TYPE.get(kind, kind)
        attrs = "".join(
            f' {key}="{value}"'
            for key, value in data.items()
            if isinstance(value, str) and '"' not in value and key.replace("-", "").isalnum()
        )
        return f"{{% {tag}{attrs} %}}\n{text}\n{{% end{tag} %}}"
    return text if text.strip() else ""


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
