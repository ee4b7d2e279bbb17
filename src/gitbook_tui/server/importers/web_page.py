"""One web page imported as a page: fetched, HTML converted to markdown (markdown and text
kept as they are), appended to the space's top-level pages as a new revision."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from ..content.store import get_revision, store_markdown
from ..core.fetch import FetchError, fetch_url
from ..core.slugs import slugify, unique_slug
from ..core.storage import Tx
from ..core.url_guard import FetchPolicy
from .commit import CtxLike, commit_content
from .html import html_to_markdown
from .sources import ContentImportError, _reason
from .summary import split_front_matter, split_title
from .tree import _title_from_path


@dataclass
class WebPage:
    title: str
    markdown: str
    url: str


def fetch_web_page(
    url: str,
    *,
    timeout: float,
    max_bytes: int,
    source: str = "website",
    policy: FetchPolicy | None = None,
) -> WebPage:
    """Fetch one page and turn it into markdown (HTML converted; markdown/text as is)."""
    try:
        fetched = fetch_url(url, timeout=timeout, max_bytes=max_bytes, policy=policy)
    except FetchError as exc:
        raise ContentImportError(f"Could not import {url}: {_reason(exc)}", exc.status) from exc
    content_type = fetched.content_type.split(";", 1)[0].strip().lower()
    text = fetched.text
    path = urlparse(fetched.url).path.lower()
    looks_html = text.lstrip()[:15].lower().startswith(("<!doctype html", "<html"))
    if (
        source == "html"
        or "html" in content_type
        or (source != "markdown" and (looks_html or path.endswith((".html", ".htm"))))
    ):
        title, markdown = html_to_markdown(text, base_url=fetched.url)
        return WebPage(title or _title_from_path(path or url), markdown, fetched.url)
    if (
        source == "markdown"
        or content_type in ("text/markdown", "text/x-markdown", "text/plain", "")
        or path.endswith((".md", ".markdown", ".txt"))
    ):
        _, body = split_front_matter(text)
        title, markdown = split_title(body)
        return WebPage(title or _title_from_path(path or url), markdown, fetched.url)
    raise ContentImportError(f"Could not import {url}: unsupported content type '{content_type}'")


def apply_web_page(
    tx: Tx,
    ctx: CtxLike,
    space: dict[str, Any],
    page: WebPage,
    *,
    change_request: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Append ``page`` as a new top-level page (new revision): import result."""
    current = get_revision(tx, change_request["revision"] if change_request else space["revision"])
    pages = list(current.get("pages", []))
    now = ctx.now()
    taken = {p.get("slug") for p in pages if p.get("slug")}
    node: dict[str, Any] = {
        "id": ctx.new_id(),
        "title": page.title[:200] or "Imported page",
        "type": "document",
        "slug": unique_slug(slugify(page.title), taken),  # type: ignore[arg-type]
        "emoji": None,
        "icon": None,
        "description": None,
        "hidden": False,
        "noIndex": False,
        "createdAt": now,
        "updatedAt": now,
        "document": store_markdown(tx, page.markdown),
        "pages": [],
    }
    pages.append(node)
    revision_id = commit_content(
        tx, ctx, space, pages, list(current.get("files", [])), change_request=change_request
    )
    return {"revision": revision_id, "importedResources": 1, "totalResources": 1}
