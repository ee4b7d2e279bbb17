"""Full-text search over the main content of spaces (SQLite FTS5, ranked by bm25).

Each document page of a space's MAIN revision is split into sections at its headings (the
part before the first heading is the page's intro, titled with the page title and holding
its description); one row per section goes into the ``page_sections`` FTS5 table of
``storage.py``. Its ``revision`` column holds the SPACE id (rows outlive revisions: when the
main revision changes only the pages whose title, description or document changed are
re-indexed). Pages with ``noIndex`` and group/link pages are not indexed.

What is indexed per space is recorded in a ``search-state`` document (id = space id):
``{"revision": <indexed main revision>, "pages": {page id: signature}}``.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..core.slugs import slugify
from ..core.storage import Tx
from .store import get_revision, iter_pages, page_markdown

STATE_KIND = "search-state"
MAX_QUERY = 512
_MAX_HITS = 2000
_SECTIONS_PER_PAGE = 5

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_TAG_RE = re.compile(r"\{%.*?%\}", re.S)
_HTML_RE = re.compile(r"<[^>\n]{1,500}>")
_IMAGE_RE = re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)")
_LINK_RE = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")
_REF_DEF_RE = re.compile(r"^ {0,3}\[[^\]\n]+\]:.*$", re.M)
_MARKS = ("**", "__", "~~", "`")
_LINE_PREFIX_RE = re.compile(
    r"^[ \t]*(?:>[ \t]?|#{1,6}[ \t]+|[*+-][ \t]+|\d{1,9}[.)][ \t]+|\[[ xX]\][ \t]*)+", re.M
)
_RULE_LINE_RE = re.compile(
    r"^[ \t]*(?:(?:[-*_][ \t]*){3,}|\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?|=+)[ \t]*$",
    re.M,
)
_STAR_RE = re.compile(r"\*+")
_UNDERSCORE_RE = re.compile(r"(?<![\w\\])_+(?=\S)|(?<=\S)_+(?!\w)")
_ESCAPE_RE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
INDEX_FORMAT = 2  # bump when what plain_text() indexes changes: spaces are re-indexed


def _plain_prose(text: str) -> str:
    """Markdown outside code blocks reduced to its words."""
    if "{%" in text:
        text = _TAG_RE.sub(" ", text)
    if "<" in text:
        text = _HTML_RE.sub(" ", text)
    if "](" in text:
        text = _IMAGE_RE.sub(r"\1", text)
        text = _LINK_RE.sub(r"\1", text)
    if "]:" in text:
        text = _REF_DEF_RE.sub("", text)
    text = _RULE_LINE_RE.sub("", text)
    text = _LINE_PREFIX_RE.sub("", text)
    for mark in _MARKS:
        if mark in text:
            text = text.replace(mark, "")
    if "*" in text:
        text = _STAR_RE.sub("", text)
    if "_" in text:
        text = _UNDERSCORE_RE.sub("", text)
    if "|" in text:
        text = text.replace("|", " ")
    if "\\" in text:
        text = _ESCAPE_RE.sub(r"\1", text)
    return text


def plain_text(markdown: str) -> str:
    """Markdown reduced to the words a reader sees (for indexing and snippets): no
    emphasis, link, list, table, heading or quote syntax, no GitBook ``{% %}`` tags or
    HTML tags; code blocks keep their text but lose their fences and language word."""
    if "```" not in markdown and "~~~" not in markdown:
        return _plain_prose(markdown).strip()  # no code block: all of it is prose
    parts: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    for line in markdown.split("\n"):
        marker = _FENCE_RE.match(line)
        if marker:
            mark = marker.group(1)
            if fence is None:
                parts.append(_plain_prose("\n".join(prose)))
                prose = []
                fence = mark
                continue
            if mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip(" `~"):
                fence = None
                continue
        if fence is None:
            prose.append(line)
        else:
            parts.append(line)
    parts.append(_plain_prose("\n".join(prose)))
    return "\n".join(part for part in parts if part.strip()).strip()


_FRONT_MATTER_RE = re.compile(r"\A---[ \t]*\r?\n.*?\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
"""A page's leading front matter block (``---`` … ``---``): never shown in a snippet."""


def split_sections(
    markdown: str, page_title: str, description: str = ""
) -> list[tuple[str, str, str]]:
    """``(section id, title, plain body)`` per section; the intro section has id ``""``."""
    sections: list[tuple[str, str, list[str]]] = [
        ("", page_title, [description] if description else [])
    ]
    used: dict[str, int] = {}
    fence: str | None = None
    markdown = _FRONT_MATTER_RE.sub("", markdown, count=1)  # metadata, not prose
    for line in markdown.split("\n"):
        marker = _FENCE_RE.match(line) if "```" in line or "~~~" in line else None
        if marker:
            mark = marker.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = None
            sections[-1][2].append(line)
            continue
        heading = _HEADING_RE.match(line) if fence is None and "#" in line[:8] else None
        if heading:
            title = plain_text(heading.group(2)) or heading.group(2)
            anchor = slugify(title)
            count = used.get(anchor, 0)
            used[anchor] = count + 1
            sections.append((anchor if count == 0 else f"{anchor}-{count}", title, []))
        else:
            sections[-1][2].append(line)
    result = []
    for index, (anchor, title, lines) in enumerate(sections):
        body = plain_text("\n".join(lines))
        if index == 0 or body or title:
            result.append((anchor, title, body))
    return result


def _signature(node: dict[str, Any]) -> str:
    return "\x1f".join(
        (str(node.get("document") or ""), node.get("title") or "", node.get("description") or "")
    )


def _indexable(node: dict[str, Any]) -> bool:
    return node.get("type", "document") == "document" and not node.get("noIndex")


def index_space(tx: Tx, space_id: str, revision_id: str) -> int:
    """Bring the index of ``space_id`` in step with its main revision ``revision_id``.

    Returns the number of pages (re)indexed."""
    state = tx.get(STATE_KIND, space_id)
    if state is not None and state.get("format") != INDEX_FORMAT:
        state = None
    if state is not None and state.get("revision") == revision_id:
        return 0
    revision = get_revision(tx, revision_id)
    nodes: dict[str, dict[str, Any]] = {}
    wanted: dict[str, str] = {}
    for node, _, _ in iter_pages(revision.get("pages", [])):
        if _indexable(node):
            nodes[node["id"]] = node
            wanted[node["id"]] = _signature(node)
    if state is None:
        tx.conn.execute("DELETE FROM page_sections WHERE revision=?", (space_id,))
        indexed: dict[str, str] = {}
    else:
        indexed = dict(state.get("pages", {}))
    stale = [pid for pid, sig in indexed.items() if wanted.get(pid) != sig]
    fresh = [pid for pid, sig in wanted.items() if indexed.get(pid) != sig]
    for chunk in _chunks(stale, 500):
        marks = ",".join("?" * len(chunk))
        tx.conn.execute(
            f"DELETE FROM page_sections WHERE revision=? AND page_id IN ({marks})",
            (space_id, *chunk),
        )
    rows: list[tuple[str, str, str, str, str]] = []
    for pid in fresh:
        node = nodes[pid]
        sections = split_sections(
            page_markdown(tx, node), node.get("title") or "", node.get("description") or ""
        )
        rows.extend((space_id, pid, anchor, title, body) for anchor, title, body in sections)
    if rows:
        tx.conn.executemany(
            "INSERT INTO page_sections(revision, page_id, section_id, title, body) "
            "VALUES(?,?,?,?,?)",
            rows,
        )
    tx.put(
        STATE_KIND,
        space_id,
        {"revision": revision_id, "pages": wanted, "format": INDEX_FORMAT},
    )
    return len(fresh)


def is_indexed(tx: Tx, space_id: str, revision_id: str) -> bool:
    state = tx.get(STATE_KIND, space_id)
    return (
        state is not None
        and state.get("revision") == revision_id
        and state.get("format") == INDEX_FORMAT
    )


def _chunks(items: list[str], size: int) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def fts_query(query: str, *, any_term: bool = False) -> str | None:
    """The user's words as quoted FTS5 phrases (so ``"``, ``*``, ``NEAR``, ``-`` are text);
    the last word also matches as a prefix. ``None`` when no word is left."""
    words = [w for w in query.split() if re.search(r"\w", w)]
    if not words:
        return None
    phrases = ['"' + word.replace('"', '""') + '"' for word in words]
    if re.search(r"\w$", words[-1]):
        phrases[-1] += "*"
    return (" OR " if any_term else " ").join(phrases)


@dataclass
class SectionHit:
    section_id: str
    title: str
    snippet: str
    score: float


@dataclass
class PageHit:
    space_id: str
    page_id: str
    score: float
    sections: list[SectionHit] = field(default_factory=list)


def search(tx: Tx, space_ids: list[str], query: str) -> list[PageHit]:
    """Pages of ``space_ids`` matching ``query``, best first (all words; any word when
    no page has them all)."""
    if not space_ids:
        return []
    hits = _run(tx, space_ids, fts_query(query))
    if not hits and len(query.split()) > 1:
        hits = _run(tx, space_ids, fts_query(query, any_term=True))
    return hits


def _run(tx: Tx, space_ids: list[str], match: str | None) -> list[PageHit]:
    if match is None:
        return []
    marks = ",".join("?" * len(space_ids))
    rows = tx.conn.execute(
        "SELECT revision, page_id, section_id, title, "
        "snippet(page_sections, 4, '', '', '…', 24), "
        "bm25(page_sections, 0.0, 0.0, 0.0, 5.0, 1.0) AS rank "
        f"FROM page_sections WHERE page_sections MATCH ? AND revision IN ({marks}) "
        "ORDER BY rank LIMIT ?",
        (match, *space_ids, _MAX_HITS),
    ).fetchall()
    pages: OrderedDict[tuple[str, str], PageHit] = OrderedDict()
    for space_id, page_id, section_id, title, snippet, rank in rows:
        hit = pages.get((space_id, page_id))
        if hit is None:
            hit = pages[(space_id, page_id)] = PageHit(space_id, page_id, -float(rank))
        if len(hit.sections) < _SECTIONS_PER_PAGE:
            body = " ".join(snippet.split())
            hit.sections.append(SectionHit(section_id, title, body, -float(rank)))
    return list(pages.values())
