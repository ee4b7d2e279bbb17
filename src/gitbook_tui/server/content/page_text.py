"""A page's markdown as Git Sync reads it: front matter (page metadata), a leading ``# Title``
(the page title) and the body (what the page shows below its title).

Shared by the importers (a file of a Git Sync folder) and the content-update API (a markdown
document of ``insert_page``/``update_page``), so a page written either way is stored the same
way: metadata and title on the page, only the body as its document. The markdown export of a
page (``format=markdown``) is that body, so reading it and writing it back is a no-op.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...markdown.front_matter import FrontMatterError, read_front_matter
from ...markdown.front_matter import split_front_matter as find_front_matter

__all__ = [
    "PageText",
    "apply_front_matter",
    "page_text",
    "read_page",
    "same_title",
    "split_title",
]

_H1_RE = re.compile(r"\A\s*#[ \t]+(.+?)[ \t#]*(?:\r?\n|\Z)")
_LAYOUT_KEYS = ("cover", "title", "description", "tableOfContents", "outline", "pagination")


def read_page(markdown: str) -> tuple[dict[str, Any], str, str | None]:
    """``(front matter, body, problem)``. Unreadable front matter stays at the top of the
    body (so the viewer shows it with a warning) and ``problem`` says why."""
    raw, body = find_front_matter(markdown)
    if raw is None:
        return {}, markdown, None
    try:
        return read_front_matter(raw), body, None
    except FrontMatterError as exc:
        return {}, markdown, str(exc)


def split_title(markdown: str) -> tuple[str | None, str]:
    """The leading ``# Title`` of a page (GitBook keeps it as the page title) and the rest."""
    match = _H1_RE.match(markdown)
    if match is None:
        return None, markdown
    return match.group(1).strip(), markdown[match.end() :].lstrip("\r\n")


@dataclass
class PageText:
    """A page file read: ``meta`` (readable front matter), ``title`` (its leading heading),
    ``body`` (the rest) and ``problem`` (why the front matter could not be read)."""

    meta: dict[str, Any] = field(default_factory=dict)
    title: str | None = None
    body: str = ""
    problem: str | None = None
    headed: str = ""
    """The body with its title heading left in, as written (for when it is not the title)."""


def page_text(text: str) -> PageText:
    """``text`` read as Git Sync reads a page file. Unreadable front matter is kept above the
    body (the viewer shows it with the warning ``problem``); the title heading below it is
    still the title."""
    meta, body, problem = read_page(text)
    if problem is not None:
        raw, rest = find_front_matter(text)
        title, markdown = split_title(rest)
        kept = f"---\n{raw}\n---\n"
        return PageText({}, title, kept + markdown, problem, kept + rest)
    if body is not text:  # the blank lines between front matter and body are neither
        body = body.lstrip("\r\n")
    title, markdown = split_title(body)
    return PageText(meta, title, markdown, None, body)


def same_title(heading: str, title: str | None) -> bool:
    """Whether a ``# heading`` repeats the page title ``title`` (case, spacing and inline
    emphasis aside)."""

    def plain(text: str) -> str:
        return " ".join(re.sub(r"[*_`\\]", "", text).split()).casefold()

    return title is not None and plain(heading) == plain(title)


def apply_front_matter(node: dict[str, Any], meta: dict[str, Any]) -> bool:
    """Set the page metadata ``meta`` holds on ``node``; whether anything changed."""
    before = {key: node.get(key) for key in (*_NODE_KEYS, "layout")}
    for key in ("description", "emoji", "icon"):
        value = meta.get(key)
        # Folded and literal YAML blocks end with a newline ("description: >"): not content.
        if isinstance(value, str | int) and not isinstance(value, bool) and str(value).strip():
            node[key] = str(value).strip()
    for key in ("hidden", "noIndex", "noRobotsIndex"):
        if key in meta:
            node[key] = meta[key] is True
    layout = meta.get("layout")
    if isinstance(layout, dict):
        flags: dict[str, Any] = {}
        for key in _LAYOUT_KEYS:
            value = layout.get(key)
            if isinstance(value, dict) and isinstance(value.get("visible"), bool):
                flags[key] = value["visible"]
            elif isinstance(value, bool):
                flags[key] = value
        if isinstance(layout.get("coverSize"), str):
            flags["coverSize"] = layout["coverSize"]
        if flags:
            node["layout"] = flags
    return any(node.get(key) != value for key, value in before.items())


_NODE_KEYS = ("description", "emoji", "icon", "hidden", "noIndex", "noRobotsIndex")
