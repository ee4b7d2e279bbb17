"""Comment bodies: markdown read from requests, rendered back as markdown or a JSON document."""

from __future__ import annotations

from typing import Any

from ..content.official_document import to_document, to_markdown
from ..core.checks import check_body_length
from ..core.errors import bad_request
from .schemas import Content, Format

# -- bodies: markdown (or a document) in, markdown or document out ----------------------------


def read_content(content: Content, field_name: str = "body") -> str:
    """The markdown of a request body: ``{markdown}``, ``{document}`` (converted) or ``{}``
    (the empty document); 400 naming the field when blank or too long."""
    if content.markdown is not None:
        if not content.markdown.strip():
            raise bad_request(f"{field_name}.markdown: must not be empty")
        return check_body_length(content.markdown, f"{field_name}.markdown")
    if content.document is not None:
        if not isinstance(content.document.get("nodes", []), list):
            raise bad_request(f"{field_name}.document: 'nodes' must be a list of blocks")
        return check_body_length(to_markdown(content.document), f"{field_name}.document")
    return ""


def render_body(markdown: str, fmt: Format | None) -> dict[str, Any]:
    """``{markdown}``, or with ``format=document`` only ``{document}`` (the official body is
    one of the two forms, never both)."""
    if fmt == "document":
        return {"document": to_document(markdown)}
    return {"markdown": markdown}
