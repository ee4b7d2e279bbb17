"""Links of a page: the one classifier (scheme rule, path resolution) and opening http(s).

The scheme rule is shared by the renderer (:func:`classify_href`: link shown as safe or
unsafe) and the link follower (:func:`classify_link`): only ``http``/``https`` leave the
app; every other scheme and every protocol-relative form (``//host``, and ``/\\host``,
``\\/host``, ``\\\\host``, which browsers read the same way) is refused.

A link holding a control character (ESC, BEL, C0/C1, DEL) or an invisible bidi/format
character (U+202E, U+2066–2069, …) is refused outright (:func:`url_problem`): cleaning it
would open another address than the server sent, and the raw string could drive the
terminal or spoof what is shown. So the one string shown is the one opened and copied:
:func:`open_in_browser` and :func:`copy_link` take only URLs that passed."""

from __future__ import annotations

import posixpath
import re
import webbrowser
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from textual.app import App

__all__ = [
    "LinkTarget",
    "UnsafeURLError",
    "classify_href",
    "classify_link",
    "copy_link",
    "external_url",
    "open_in_browser",
    "open_in_web_page",
    "url_problem",
]

_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
# Browsers treat a backslash like a slash in http(s) URLs, so these all start a host.
_PROTOCOL_RELATIVE = ("//", "\\\\", "/\\", "\\/")
_STABLE_RE = re.compile(r"^/?pages/([A-Za-z0-9_-]+)/?$")
_README_RE = re.compile(r"(^|/)readme(\.md|\.markdown)?$", re.IGNORECASE)
_MD_RE = re.compile(r"\.(md|markdown)$", re.IGNORECASE)
# C0 (tab and newline too: a URL never holds them), DEL, C1.
_CONTROL_RE = re.compile("[\x00-\x1f\x7f-\x9f]")
# Bidi controls and invisible format characters (marks, embeddings, overrides, isolates,
# zero-width characters, line/paragraph separators, BOM): they reorder or hide what is shown.
_INVISIBLE_RE = re.compile("[\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


class UnsafeURLError(ValueError):
    """A URL with control or bidi characters reached a sink (opener, clipboard)."""


def url_problem(url: str) -> str | None:
    """Why ``url`` must not be shown, opened or copied (None: it may be)."""
    if _CONTROL_RE.search(url):
        return "it contains control characters"
    if _INVISIBLE_RE.search(url):
        return "it contains bidirectional or invisible formatting characters"
    return None


@dataclass(frozen=True)
class LinkTarget:
    """Where a link of a page leads.

    ``kind``: ``external`` (http/https ``url``), ``refused`` (another ``scheme``, or
    ``reason`` says why: control/bidi characters; ``url`` is then empty),
    ``anchor`` (on this page), ``page`` (``page_id`` in this space), ``path`` (a page
    path in this space; ``file`` is the Git Sync file it names), ``file`` (a file, not opened here), ``broken``."""

    kind: str
    url: str = ""
    scheme: str = ""
    page_id: str = ""
    path: str = ""
    file: str = ""
    anchor: str | None = None
    reason: str = ""


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
    if url_problem(href) is not None:
        return False, False
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
    problem = url_problem(href.strip(" "))
    if problem is not None:
        return LinkTarget("refused", reason=problem)
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


def _checked(url: str) -> str:
    problem = url_problem(url)
    if problem is not None:
        raise UnsafeURLError(f"refused a URL: {problem}")
    return url


def open_in_browser(url: str) -> bool:
    """Open ``url`` in a graphical browser; False when there is none (e.g. over SSH,
    where a console browser would take over the terminal). :class:`UnsafeURLError` for a
    URL :func:`url_problem` refuses (callers check first and say why)."""
    _checked(url)
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


def open_in_web_page(app: App[Any], url: str) -> bool:
    """Under ``gitbook-tui web`` (the app drawn in a web page), have the user's browser open
    ``url`` in a new tab and say True; elsewhere False (then :func:`open_in_browser`: the
    machine the app runs on is the user's). :class:`UnsafeURLError` as there."""
    if not app.is_web:
        return False
    app.open_url(_checked(url), new_tab=True)
    return True


def copy_link(app: App[Any], url: str) -> None:
    """Copy ``url`` to the clipboard (OSC 52); :class:`UnsafeURLError` for a URL
    :func:`url_problem` refuses."""
    app.copy_to_clipboard(_checked(url))


def external_url(url: str) -> str | None:
    """``url`` when it is http(s) and free of control/bidi characters, else None."""
    target = classify_link(url, "", False)
    return target.url if target.kind == "external" else None
