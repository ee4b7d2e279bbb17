"""Links of a page: the one classifier (scheme rule, path resolution) and opening http(s).

The scheme rule is shared by the renderer (:func:`classify_href`: link shown as safe or
unsafe) and the link follower (:func:`classify_link`): only ``http``/``https`` leave the
app; every other scheme and every protocol-relative form (``//host``, and ``/\\host``,
``\\/host``, ``\\\\host``, which browsers read the same way) is refused."""

from __future__ import annotations

import posixpath
import re
import webbrowser
from dataclasses import dataclass
from urllib.parse import unquote

__all__ = [
    "LinkTarget",
    "classify_href",
    "classify_link",
    "external_url",
    "open_in_browser",
]

_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
# Browsers treat a backslash like a slash in http(s) URLs, so these all start a host.
_PROTOCOL_RELATIVE = ("//", "\\\\", "/\\", "\\/")
_STABLE_RE = re.compile(r"^/?pages/([A-Za-z0-9_-]+)/?$")
_README_RE = re.compile(r"(^|/)readme(\.md|\.markdown)?$", re.IGNORECASE)
_MD_RE = re.compile(r"\.(md|markdown)$", re.IGNORECASE)


@dataclass(frozen=True)
class LinkTarget:
    """Where a link of a page leads.

    ``kind``: ``external`` (http/https ``url``), ``refused`` (another ``scheme``),
    ``anchor`` (on this page), ``page`` (``page_id`` in this space), ``path`` (a page
    path in this space; ``file`` is the Git Sync file it names), ``file`` (a file, not opened here), ``broken``."""

    kind: str
    url: str = ""
    scheme: str = ""
    page_id: str = ""
    path: str = ""
    file: str = ""
    anchor: str | None = None


def _leaving_target(href: str) -> LinkTarget | None:
    """The scheme rule: ``external`` for http(s), ``refused`` for any other scheme or a
    protocol-relative link, None for a link within the space (a path or an anchor)."""
    if href.startswith(_PROTOCOL_RELATIVE):
        # Which scheme it means depends on a page origin we do not have: refused, never guessed.
        return LinkTarget("refused", url=href, scheme="protocol-relative")
    match = _SCHEME_RE.match(href)
    if match is None:
        return None
    scheme = match.group(1).lower()
    kind = "external" if scheme in ("http", "https") else "refused"
    return LinkTarget(kind, url=href, scheme=scheme)


def classify_href(href: str) -> tuple[bool, bool]:
    """``(external, safe)`` for a link as the page shows it: only http(s) is external,
    links within the space (paths, ``#anchors``) are safe, refused ones are not."""
    target = _leaving_target(href.strip())
    if target is None:
        return False, True
    external = target.kind == "external"
    return external, external


def classify_link(
    href: str, page_path: str, has_children: bool, git_path: str | None = None
) -> LinkTarget:
    """Classify ``href`` found on the page at ``page_path``. Relative links start in the
    folder of the page's file: ``git_path``'s when known, else the page's own path for a
    page with sub-pages (a folder's README) and its parent's for the others."""
    href = href.strip()
    leaving = _leaving_target(href)
    if leaving is not None:
        return leaving
    raw, _, anchor_raw = href.partition("#")
    anchor = unquote(anchor_raw) or None
    path = unquote(raw.split("?", 1)[0])
    if not path:
        return LinkTarget("anchor", anchor=anchor) if anchor else LinkTarget("broken", url=href)
    stable = _STABLE_RE.match(path)
    if stable:
        return LinkTarget("page", page_id=stable.group(1), anchor=anchor)
    page_path = page_path.strip("/")
    if git_path:
        base = posixpath.dirname(git_path.strip("/"))
    else:
        base = page_path if has_children else posixpath.dirname(page_path)
    if path.startswith("/"):
        joined = posixpath.normpath(path.lstrip("/") or ".")
    else:
        joined = posixpath.normpath(posixpath.join(base, path))
    joined = "" if joined == "." else joined
    if joined.startswith(".."):
        return LinkTarget("broken", url=href)
    extension = posixpath.splitext(posixpath.basename(joined))[1].lower()
    if extension not in ("", ".md", ".markdown") or "/.gitbook/" in f"/{joined}":
        return LinkTarget("file", url=href, path=joined)
    slug = _MD_RE.sub("", _README_RE.sub("", joined))
    return LinkTarget("path", path=slug.strip("/"), file=joined, anchor=anchor)


def open_in_browser(url: str) -> bool:
    """Open ``url`` in a graphical browser; False when there is none (e.g. over SSH,
    where a console browser would take over the terminal)."""
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    if type(browser) is webbrowser.GenericBrowser:  # lynx, w3m, links…: console browsers
        return False
    try:
        return bool(browser.open(url, new=2))
    except Exception:
        return False


def external_url(url: str) -> str | None:
    """The http(s) URL to open for ``url`` (a protocol-relative one gets https), else None."""
    target = classify_link(url, "", False)
    return target.url if target.kind == "external" else None
