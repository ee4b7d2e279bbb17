"""Comment bodies: markdown read from requests, rendered back as markdown or a JSON document."""

from __future__ import annotations

from typing import Any

from markdown_it import MarkdownIt

from ..core.errors import bad_request
from .schemas import Content, Format

MAX_MARKDOWN = 100_000


# -- bodies: markdown in, markdown or document out ---------------------------------------------
_MD = MarkdownIt("commonmark")


def _document_text(node: Any) -> str:
    """Plain text of a JSON document (blocks separated by blank lines)."""
    if isinstance(node, dict):
        if node.get("object") == "leaf":
            return str(node.get("text", ""))
        if "leaves" in node:
            return "".join(_document_text(leaf) for leaf in node["leaves"])
        children = node.get("nodes", [])
        sep = "\n\n" if node.get("object") == "document" else ""
        if node.get("object") == "block" and any(
            isinstance(c, dict) and c.get("object") == "block" for c in children
        ):
            sep = "\n"
        return sep.join(_document_text(child) for child in children)
    return ""


def read_content(content: Content, field_name: str = "body") -> str:
    """The markdown of a request body (400 naming the field when missing, empty or too long)."""
    if content.markdown is not None:
        markdown = content.markdown
    elif content.document is not None:
        markdown = _document_text(content.document)
    else:
        raise bad_request(f"{field_name}.markdown: is required")
    if not markdown.strip():
        raise bad_request(f"{field_name}.markdown: must not be empty")
    if len(markdown) > MAX_MARKDOWN:
        raise bad_request(f"{field_name}.markdown: at most {MAX_MARKDOWN} characters")
    return markdown


def _text_block(kind: str, text: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "object": "block",
        "type": kind,
        "data": data or {},
        "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": text, "marks": []}]}],
    }


def markdown_document(markdown: str) -> dict[str, Any]:
    """A simple JSON document of markdown: headings, paragraphs and code blocks keep their
    type; other top-level blocks (lists, quotes, ...) become paragraphs of their source."""
    lines = markdown.splitlines()
    tokens = _MD.parse(markdown)
    nodes: list[dict[str, Any]] = []
    for index, token in enumerate(tokens):
        if token.level != 0 or token.nesting == -1:
            continue
        inline = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.type == "heading_open" and inline is not None:
            level = min(int(token.tag[1:]), 3)
            nodes.append(_text_block(f"heading-{level}", inline.content))
        elif token.type == "paragraph_open" and inline is not None:
            nodes.append(_text_block("paragraph", inline.content))
        elif token.type in ("fence", "code_block"):
            code_lines = token.content.rstrip("\n").split("\n")
            nodes.append(
                {
                    "object": "block",
                    "type": "code",
                    "data": {"syntax": token.info.strip() or None},
                    "nodes": [_text_block("code-line", line) for line in code_lines],
                }
            )
        elif token.map:
            text = "\n".join(lines[token.map[0] : token.map[1]]).strip()
            if text:
                nodes.append(_text_block("paragraph", text))
    return {"object": "document", "data": {}, "nodes": nodes}


def render_body(markdown: str, fmt: Format | None) -> dict[str, Any]:
    body: dict[str, Any] = {"markdown": markdown}
    if fmt == "document":
        body["document"] = markdown_document(markdown)
    return body
