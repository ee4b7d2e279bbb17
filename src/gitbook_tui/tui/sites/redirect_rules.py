"""Redirect rules without widgets: validation, following redirects (path tests) and lint.

Nothing here imports Textual: the site editor's panes and forms call these functions, and
the unit tests exercise them directly (import and export: :mod:`.redirect_files`). A site is described by a :class:`SiteMap` (the
published URL of each section, site space and live page); redirects by
:class:`RedirectEntry`. Sources are compared case-insensitively, as the published site
resolves them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

from ...models.paths import dot_segment

__all__ = [
    "SOURCE_MAX",
    "SOURCE_RE",
    "URL_MAX",
    "URL_RE",
    "Destination",
    "Finding",
    "LintDiff",
    "RedirectEntry",
    "SiteMap",
    "Trace",
    "fix_effect",
    "lint",
    "lint_diff",
    "shown_source",
    "source_error",
    "trace",
    "url_error",
]

# The contract's source pattern (workspace-api.md, SiteRedirect) and the server's bounds.
SOURCE_RE = re.compile(
    r"^\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$"
)
SOURCE_MAX = 512
URL_MAX = 2048
URL_RE = re.compile(r"^https?://[^\s/$.?#][^\s]*$", re.IGNORECASE)
MAX_HOPS = 20


# -- the site and its redirects ---------------------------------------------------------------
@dataclass(frozen=True)
class Destination:
    """Where a redirect goes (the API's ``destination``)."""

    kind: str  # site-section, site-space, site-page, external
    url: str | None = None
    site_section: str | None = None
    site_space: str | None = None
    page: str | None = None

    def to_api(self) -> dict[str, str]:
        body = {"kind": self.kind}
        for key, value in (
            ("url", self.url),
            ("siteSectionId", self.site_section),
            ("siteSpaceId", self.site_space),
            ("pageId", self.page),
        ):
            if value is not None:
                body[key] = value
        return body


@dataclass(frozen=True)
class RedirectEntry:
    id: str
    source: str
    destination: Destination
    permanent: bool = False
    draft: bool = False
    wildcard: bool = False


WILDCARD_MARK = "/*"
"""How a wildcard source is shown: the API keeps the source bare (``/v1``) and sets
``captureWildcard``; the official source pattern writes the same redirect ``/v1/*``."""


def shown_source(entry: RedirectEntry) -> str:
    """The source as shown: ``/v1/*`` for a wildcard (the path and every path below it,
    whose rest is appended to the destination), else the path."""
    return entry.source + WILDCARD_MARK if entry.wildcard else entry.source


@dataclass
class SiteMap:
    """Published URLs of a site: its base, sections, site spaces and live pages.

    ``titles`` names each id (section, site space, page) for display."""

    base_url: str = ""
    sections: dict[str, str] = field(default_factory=dict)
    site_spaces: dict[str, str] = field(default_factory=dict)
    pages: dict[tuple[str, str], str] = field(default_factory=dict)  # (site space, page) → URL
    titles: dict[str, str] = field(default_factory=dict)
    opaque: set[str] = field(default_factory=set)  # site spaces whose pages are not known

    def path_of(self, url: str | None) -> str | None:
        """``url`` as a path of this site (``/guides/install``), or ``None`` when elsewhere."""
        if not url:
            return None
        base = self.base_url.rstrip("/")
        if base and (url == base or url.startswith(base + "/")):
            rest = url[len(base) :]
            return rest if rest else "/"
        return None

    def url_of(self, dest: Destination) -> str | None:
        """The URL ``dest`` leads to (``None``: its section, site space or page is gone)."""
        if dest.kind == "external":
            return dest.url
        if dest.kind == "site-section":
            return self.sections.get(dest.site_section or "")
        if dest.kind == "site-space":
            return self.site_spaces.get(dest.site_space or "")
        if dest.kind == "site-page":
            url = self.pages.get((dest.site_space or "", dest.page or ""))
            if url is None and dest.site_space in self.opaque:  # hidden from us, not gone
                return self.site_spaces.get(dest.site_space or "")
            return url
        return None

    def label_of(self, dest: Destination) -> str:
        """A human name of ``dest``: the URL, or the title of the section/space/page."""
        if dest.kind == "external":
            path = self.path_of(dest.url)
            return f"{path} (this site)" if path is not None else dest.url or ""
        if dest.kind == "site-section":
            return f"section {self.titles.get(dest.site_section or '', dest.site_section)}"
        if dest.kind == "site-space":
            return f"space {self.titles.get(dest.site_space or '', dest.site_space)}"
        if dest.kind == "site-page":
            page = self.titles.get(dest.page or "")
            if dest.site_space in self.opaque and page is None:
                return f"page {dest.page} (not visible to you)"
            if page is None or (dest.site_space or "", dest.page or "") not in self.pages:
                return f"page {dest.page} (gone)"
            space = self.titles.get(dest.site_space or "", "")
            return f"{space} › {page}" if space else page
        return dest.kind

    def live_paths(self) -> dict[str, str]:
        """Lower-cased site path of every live page, section and site space → its URL."""
        found: dict[str, str] = {}
        for url in (*self.sections.values(), *self.site_spaces.values(), *self.pages.values()):
            path = self.path_of(url)
            if path is not None:
                found.setdefault(path.lower(), url)
        return found

    def destination_at(self, target: str) -> Destination | None:
        """The destination a file names: an http(s) URL (external unless it is a URL of this
        site) or a path of this site (``/guides/install``)."""
        target = target.strip()
        found = self.destinations_at(target)
        if found:
            return found[0]
        if URL_RE.match(target) and self.path_of(target) is None:
            return Destination("external", url=target)
        return None

    def destinations_at(self, target: str) -> list[Destination]:
        """Every page, site space and section of this site at ``target`` (a path or a URL of
        this site), in that order: a section and its default space share a URL."""
        target = target.strip()
        if URL_RE.match(target):
            path = self.path_of(target)
            if path is None:
                return []
            target = path
        wanted = "/" + target.strip("/").lower()
        found: list[Destination] = []
        for (ss, page), url in self.pages.items():
            if (self.path_of(url) or "").lower() == wanted:
                found.append(Destination("site-page", site_space=ss, page=page))
        for ss, url in self.site_spaces.items():
            if (self.path_of(url) or "").lower() == wanted:
                found.append(Destination("site-space", site_space=ss))
        for section, url in self.sections.items():
            if (self.path_of(url) or "").lower() == wanted:
                found.append(Destination("site-section", site_section=section))
        return found

    def target_text(self, dest: Destination) -> str:
        """How ``dest`` is written in an export: its URL as a site path, else the URL."""
        url = self.url_of(dest)
        path = self.path_of(url)
        return path if path is not None else (url or "")


# -- validation -------------------------------------------------------------------------------
def source_error(
    value: str, others: Iterable[RedirectEntry], *, editing: str | None = None
) -> str | None:
    """Why ``value`` is not a valid new source (``None``: it is). ``editing`` is the id of
    the redirect being edited (its own source is no duplicate)."""
    if not value:
        return "Source is required (a path like /old/page)."
    if len(value) > SOURCE_MAX:
        return f"Source is {len(value)} characters; at most {SOURCE_MAX}."
    if not value.startswith("/"):
        return "Source must start with '/' (a path of this site, not a URL)."
    if "//" in value or (value.endswith("/") and value != "/"):
        return "Source has an empty segment ('//' or a trailing '/')."
    if not SOURCE_RE.match(value):
        bad = sorted({c for c in value if not re.match(r"[A-Za-z0-9\-._~/%]", c)})
        shown = " ".join(repr(c) for c in bad[:5]) if bad else "a bad %XX escape"
        return f"Source may hold letters, digits, - . _ ~ and %XX escapes only (not {shown})."
    if (odd := dot_segment(value)) is not None:
        return f"Source has a '.' or '..' segment ({odd}); write the path it means."
    folded = value.lower()
    for other in others:
        if other.id != editing and other.source.lower() == folded:
            same = "" if other.source == value else f" as {other.source}"
            return f"Already redirected{same} (sources match case-insensitively)."
    return None


def url_error(value: str) -> str | None:
    if not value:
        return "Destination URL is required."
    if len(value) > URL_MAX:
        return f"URL is {len(value)} characters; at most {URL_MAX}."
    if not URL_RE.match(value):
        return "Destination must be an absolute http:// or https:// URL."
    if dot_segment(urlsplit(value).path) is not None:
        return "Destination URL has a '.' or '..' segment; write the path it means."
    return None


# -- following redirects ----------------------------------------------------------------------
class _Resolver:
    """The live redirects indexed by folded source (and the wildcards), and the site's live
    paths: what :func:`trace` asks for every hop, built once per lint."""

    def __init__(self, redirects: Sequence[RedirectEntry], site: SiteMap) -> None:
        self.site = site
        self.pages = site.live_paths()
        self.exact: dict[str, RedirectEntry] = {}
        self.wild: list[RedirectEntry] = []
        for entry in redirects:
            if entry.draft:
                continue
            self.exact.setdefault(entry.source.lower(), entry)
            if entry.wildcard:
                self.wild.append(entry)
        self.wild.sort(key=lambda e: len(e.source), reverse=True)

    def applying(self, path: str) -> RedirectEntry | None:
        """The redirect serving ``path``: an exact source first, else the longest wildcard."""
        folded = path.lower()
        found = self.exact.get(folded)
        if found is not None:
            return found
        return next((e for e in self.wild if folded.startswith(e.source.lower() + "/")), None)


@dataclass(frozen=True)
class Trace:
    """What happens to a visitor asking for a path: the hops and where they end."""

    path: str
    hops: tuple[tuple[RedirectEntry, str | None], ...]  # each redirect and the URL it sends to
    lands: str | None  # final URL (None: a gone destination)
    loop: bool = False
    page: bool = False  # the path is a live page (redirects do not apply)


def trace(
    path: str,
    redirects: Sequence[RedirectEntry],
    site: SiteMap,
    *,
    resolver: _Resolver | None = None,
) -> Trace:
    """Follow the live redirects from ``path`` until a URL no redirect serves."""
    index = resolver or _Resolver(redirects, site)
    pages = index.pages
    if path.lower() in pages:
        return Trace(path, (), pages[path.lower()], page=True)
    hops: list[tuple[RedirectEntry, str | None]] = []
    seen: set[str] = set()
    current = path
    while len(hops) < MAX_HOPS:
        entry = index.applying(current)
        if entry is None:
            break
        if entry.id in seen:
            return Trace(path, tuple(hops), None, loop=True)
        seen.add(entry.id)
        url = site.url_of(entry.destination)
        hops.append((entry, url))
        next_path = site.path_of(url)
        if url is None or next_path is None or next_path.lower() in pages:
            return Trace(path, tuple(hops), url)
        current = next_path
    else:
        return Trace(path, tuple(hops), None, loop=True)
    return Trace(path, tuple(hops), hops[-1][1] if hops else None)


# -- lint -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """A problem with one redirect, and the key that fixes it (``e`` edit, ``d`` delete)."""

    kind: str  # unsafe, chain, loop, gone, shadowed, duplicate
    redirect: RedirectEntry
    message: str
    fix: str  # "edit" or "delete"
    fix_label: str
    suggestion: Destination | None = None  # for a chain: the final destination


def lint(redirects: Sequence[RedirectEntry], site: SiteMap) -> list[Finding]:
    """Dot segments, chains, loops, gone destinations, sources shadowed by a live page,
    duplicates."""
    findings: list[Finding] = []
    resolver = _Resolver(redirects, site)
    pages = resolver.pages
    by_source: dict[str, RedirectEntry] = {}
    for entry in sorted(redirects, key=lambda r: r.source.lower()):
        folded = entry.source.lower()
        # a server from before the check stored them: the path says one place, means another
        odd = dot_segment(entry.source)
        if odd is None and entry.destination.kind == "external":
            odd = dot_segment(urlsplit(entry.destination.url or "").path)
        if odd is not None:
            message = (
                f"{entry.source} → {site.label_of(entry.destination)}: '{odd}' is a dot segment"
            )
            findings.append(Finding("unsafe", entry, message, "edit", "write the path it means"))
        if folded in by_source and by_source[folded].draft == entry.draft:
            findings.append(
                Finding(
                    "duplicate",
                    entry,
                    f"{entry.source} duplicates {by_source[folded].source} "
                    "(sources match case-insensitively); one of them never applies",
                    "delete",
                    "delete it",
                )
            )
        by_source.setdefault(folded, entry)
        if folded in pages:
            findings.append(
                Finding(
                    "shadowed",
                    entry,
                    f"{entry.source} is a live page: the page is served, the redirect never is",
                    "delete",
                    "delete it",
                )
            )
        url = site.url_of(entry.destination)
        if url is None:
            findings.append(
                Finding(
                    "gone",
                    entry,
                    f"{entry.source} → {site.label_of(entry.destination)}: "
                    "the destination no longer exists",
                    "edit",
                    "point it elsewhere",
                )
            )
            continue
        if entry.draft:
            continue
        result = (
            trace(entry.source, redirects, site, resolver=resolver) if folded not in pages else None
        )
        if result is None:
            continue
        if result.loop:
            chain = " → ".join(h[0].source for h in result.hops)
            findings.append(
                Finding(
                    "loop",
                    entry,
                    f"{entry.source} loops: {chain} → {result.hops[0][0].source}",
                    "edit",
                    "point it at a page",
                )
            )
        elif len(result.hops) > 1:
            chain = " → ".join(h[0].source for h in result.hops)
            last = result.hops[-1][0].destination
            findings.append(
                Finding(
                    "chain",
                    entry,
                    f"{entry.source} is a chain of {len(result.hops)}: {chain} → "
                    f"{site.label_of(last)}",
                    "edit",
                    "point it at the end",
                    suggestion=last,
                )
            )
    order = {"unsafe": 0, "loop": 1, "gone": 2, "chain": 3, "shadowed": 4, "duplicate": 5}
    findings.sort(key=lambda f: (order.get(f.kind, 9), f.redirect.source.lower()))
    return findings


# -- what a fix does to the findings ----------------------------------------------------------
@dataclass(frozen=True)
class LintDiff:
    """Two lints compared, finding by finding (a finding is its kind and its redirect)."""

    fixed: tuple[Finding, ...] = ()
    new: tuple[Finding, ...] = ()
    changed: tuple[tuple[Finding, Finding], ...] = ()  # (before, after): e.g. a shorter chain


def _key(finding: Finding) -> tuple[str, str]:
    return finding.kind, finding.redirect.id


def lint_diff(before: Sequence[Finding], after: Sequence[Finding]) -> LintDiff:
    """What changed from the findings ``before`` to those ``after``."""
    old = {_key(f): f for f in before}
    now = {_key(f): f for f in after}
    return LintDiff(
        fixed=tuple(f for k, f in old.items() if k not in now),
        new=tuple(f for k, f in now.items() if k not in old),
        changed=tuple(
            (f, now[k]) for k, f in old.items() if k in now and now[k].message != f.message
        ),
    )


def fix_effect(
    finding: Finding,
    action: str,
    redirects: Sequence[RedirectEntry],
    site: SiteMap,
    before: Sequence[Finding] | None = None,
) -> LintDiff | None:
    """What lint would find after ``action`` (``delete``, or ``edit`` to the finding's
    suggested destination) on the finding's redirect, compared with ``before`` (the
    current findings). ``None``: the edit has no suggestion, the user chooses."""
    target = finding.redirect
    if action == "delete":
        after = [r for r in redirects if r.id != target.id]
    elif finding.suggestion is not None:
        fixed = replace(target, destination=finding.suggestion)
        after = [fixed if r.id == target.id else r for r in redirects]
    else:
        return None
    current = lint(redirects, site) if before is None else before
    return lint_diff(current, lint(after, site))
