"""GitBook ``{% tag %}`` syntax: tag parsing and the line pre-pass that pairs open/end tags."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = [
    "CONTAINER_TAGS",
    "SELF_CLOSING_TAGS",
    "TagInfo",
    "TagTable",
    "find_markers",
    "parse_attrs",
    "parse_marker",
    "preprocess",
]

# Tags that always wrap content; left unclosed they run to the end of their parent.
CONTAINER_TAGS: frozenset[str] = frozenset(
    {
        "hint",
        "tabs",
        "tab",
        "stepper",
        "step",
        "columns",
        "column",
        "code",
        "updates",
        "update",
        "openapi",
        "openapi-operation",
        "openapi-webhook",
        "swagger",
        "content-ref",
        "html:details",
        "html:summary",
    }
)
# Tags that never have an end tag (``else``/``elif`` split an ``if`` into branches).
SELF_CLOSING_TAGS: frozenset[str] = frozenset({"include", "else", "elif", "elsif", "elseif"})
# Everything else (embed, file, unknown tags) wraps content only if its end tag exists.

_HTML_MARKER_RE = re.compile(r"</?(?:details|summary)(?:\s[^<>\n]*)?>", re.IGNORECASE)
_MAX_QUOTE_EXTENSIONS = 8

_NAME_RE = re.compile(r"[^\s\"'=%]+")
_ATTR_RE = re.compile(
    r"""
      ([^\s"'=]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^\s"']+))
    | "((?:[^"\\]|\\.)*)"
    | '((?:[^'\\]|\\.)*)'
    | ([^\s"'=]+)
    """,
    re.VERBOSE | re.DOTALL,
)
_ESCAPED_RE = re.compile(r"\\(.)", re.DOTALL)
_HTML_NAME_RE = re.compile(r"<(/?)(details|summary)\b(.*)>\s*\Z", re.IGNORECASE | re.DOTALL)

# Leading whitespace, blockquote markers and list markers in front of a tag.
_PREFIX_RE = re.compile(r"[ \t]*(?:(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))[ \t]*)*")
_LIST_MARKER_RE = re.compile(r"[-*+]|\d{1,9}[.)]")
_FENCE_RE = re.compile(r"(`{3,}|~{3,})(.*)")


@dataclass(frozen=True, slots=True)
class TagInfo:
    """One ``{% name attrs %}`` / ``{% endname %}`` (or ``<details>``-like HTML) marker."""

    name: str
    end: bool = False
    attrs: dict[str, str] = field(default_factory=dict, hash=False)
    args: tuple[str, ...] = ()
    """Positional quoted values, e.g. the path in ``{% include "x.md" %}``."""
    source: str = field(default="", compare=False)
    """Everything after the name, as written (an ``if`` tag's condition)."""

    @property
    def kind(self) -> str:
        """``"container"``, ``"self-closing"`` or ``"optional"`` (closed only if paired)."""
        if self.name in CONTAINER_TAGS:
            return "container"
        if self.name in SELF_CLOSING_TAGS:
            return "self-closing"
        return "optional"


@dataclass(slots=True)
class TagTable:
    """Result of :func:`preprocess`: which lines are tags, and where each one closes."""

    tags: dict[int, TagInfo] = field(default_factory=dict)
    closes: dict[int, int] = field(default_factory=dict)


def _unescape(value: str) -> str:
    return _ESCAPED_RE.sub(r"\1", value) if "\\" in value else value


def find_markers(line: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every ``{% … %}`` and ``<details>``-like marker in one line.

    Linear time even on hostile input: a tag ends at the first ``%}`` (extended a
    few times while a double quote is unbalanced, so ``%}`` may appear in values).
    """
    found: list[tuple[int, int]] = []
    pos = 0
    end = -1  # the next "%}" (kept between iterations: no rescans, linear time)
    while True:
        start = line.find("{%", pos)
        if start < 0:
            break
        if end < start + 2:
            end = line.find("%}", start + 2)
            if end < 0:
                break
        inner = line.find("{%", start + 2, end)
        if inner >= 0:
            pos = inner
            continue
        for _ in range(_MAX_QUOTE_EXTENSIONS):
            if line.count('"', start, end) % 2 == 0:
                break
            later = line.find("%}", end + 2)
            if later < 0 or line.find("{%", end + 2, later) >= 0:
                break
            end = later
        found.append((start, end + 2))
        pos = end + 2
    if "<" in line:
        html = [m.span() for m in _HTML_MARKER_RE.finditer(line)]
        if html:
            merged: list[tuple[int, int]] = []
            for span in sorted(found + html):
                if not merged or span[0] >= merged[-1][1]:
                    merged.append(span)
            found = merged
    return found


def parse_attrs(text: str) -> tuple[dict[str, str], tuple[str, ...]]:
    """``key="v" key2='v 2' key3=v flag "positional"`` → (attrs, positional args).

    A bare ``flag`` maps to ``""``.
    """
    attrs: dict[str, str] = {}
    args: list[str] = []
    for m in _ATTR_RE.finditer(text):
        key, dq, sq, bare, pos_dq, pos_sq, flag = m.groups()
        if key is not None:
            if dq is not None:
                attrs[key] = _unescape(dq)
            elif sq is not None:
                attrs[key] = _unescape(sq)
            else:
                attrs[key] = bare or ""
        elif pos_dq is not None:
            args.append(_unescape(pos_dq))
        elif pos_sq is not None:
            args.append(_unescape(pos_sq))
        elif flag is not None:
            attrs[flag] = ""
    return attrs, tuple(args)


def parse_marker(text: str) -> TagInfo | None:
    """Parse one complete marker (``{% … %}``, ``<details>``, ``</summary>`` …), else ``None``."""
    if text.startswith("{%"):
        body = text[2:-2].strip()
        if body.startswith("-"):
            body = body[1:]
        if body.endswith("-"):
            body = body[:-1]
        body = body.strip()
        m = _NAME_RE.match(body)
        if m is None:
            return None
        name = m.group().lower()
        rest = body[m.end() :]
        if name.startswith("end") and len(name) > 3 and not rest.strip():
            return TagInfo(name[3:], end=True)
        attrs, args = parse_attrs(rest) if rest.strip() else ({}, ())
        return TagInfo(name, attrs=attrs, args=args, source=rest.strip())
    m = _HTML_NAME_RE.match(text)
    if m is None:
        return None
    closing, name, rest = m.groups()
    name = "html:" + name.lower()
    if closing:
        return TagInfo(name, end=True)
    attrs, _args = parse_attrs(rest) if rest.strip() else ({}, ())
    return TagInfo(name, attrs=attrs)


def _continuation_prefix(prefix: str) -> str:
    """The prefix for lines split off a tag line: list markers become spaces."""
    return _LIST_MARKER_RE.sub(lambda m: " " * len(m.group()), prefix)


def _split_line(line: str, start: int, rest: str, markers: list[tuple[int, int]]) -> list[str]:
    """Put every tag of ``line`` on a line of its own; ``[]`` when it needs no change.

    ``rest`` is the line after its ``start``-long prefix (indent, ``>``, list marker),
    ``markers`` the tags found in it. A line that *starts* with a tag is split at
    every tag; a line of text that *ends* with end tags (``text{% endhint %}``) has
    them split off. Tags in the middle of a text line are left alone (they stay
    literal text).
    """
    prefix = line[:start]
    pieces: list[str] = []
    if markers[0][0] == 0:
        pos = 0
        for m_start, m_end in markers:
            text = rest[pos:m_start].strip()
            if text:
                pieces.append(text)
            pieces.append(rest[m_start:m_end])
            pos = m_end
        tail = rest[pos:].strip()
        if tail:
            pieces.append(tail)
    else:
        # Trailing end tags only.
        cut = len(rest)
        first_end_tag = len(markers)
        for index in range(len(markers) - 1, -1, -1):
            m_start, m_end = markers[index]
            if rest[m_end:cut].strip():
                break
            info = parse_marker(rest[m_start:m_end])
            if info is None or not info.end:
                break
            cut = m_start
            first_end_tag = index
        if cut == len(rest) or not rest[:cut].strip():
            return []
        pieces.append(rest[:cut].rstrip())
        pieces.extend(rest[m_start:m_end] for m_start, m_end in markers[first_end_tag:])
    cont = _continuation_prefix(prefix)
    return [prefix + pieces[0]] + [cont + piece for piece in pieces[1:]]


# Lines worth a look: possible fences and possible markers.
_INTERESTING_RE = re.compile(r"```|~~~|\{%|</?(?:details|summary)", re.IGNORECASE)


class _Pairer:
    """Stack-based pairing of open and end tags, line by line."""

    __slots__ = ("cache", "counts", "stack", "table")

    def __init__(self, table: TagTable) -> None:
        self.table = table
        self.stack: list[tuple[str, int]] = []
        self.counts: dict[str, int] = {}
        self.cache: dict[str, TagInfo | None] = {}

    def add_line(self, lineno: int, line: str) -> None:
        prefix_m = _PREFIX_RE.match(line)
        rest = line[prefix_m.end() if prefix_m else 0 :].rstrip()
        if rest and (rest[0] == "{" or rest[0] == "<"):
            markers = find_markers(rest)
            if len(markers) == 1 and markers[0] == (0, len(rest)):
                self.add_marker(lineno, rest)

    def add_marker(self, lineno: int, marker: str) -> None:
        """``marker`` is the whole content of line ``lineno``."""
        cache = self.cache
        if marker in cache:
            info = cache[marker]
        else:
            info = cache[marker] = parse_marker(marker)
        if info is None:
            return
        self.table.tags[lineno] = info
        name = info.name
        counts = self.counts
        if not info.end:
            if info.kind != "self-closing":
                self.stack.append((name, lineno))
                counts[name] = counts.get(name, 0) + 1
            return
        if not counts.get(name):
            return  # stray end tag
        stack = self.stack
        while stack:
            open_name, open_line = stack.pop()
            counts[open_name] -= 1
            if open_name == name:
                self.table.closes[open_line] = lineno
                return


def preprocess(src: str) -> tuple[str, TagTable]:
    """Normalise newlines, put GitBook/``<details>`` tags on lines of their own, pair them.

    Fenced code is left untouched. Pairing uses a stack: an end tag closes the
    nearest open tag of that name (anything opened after it is left unclosed);
    an end tag with no open partner is stray. The returned source keeps every
    character of user text; only line breaks around tags are added. Only lines
    that may hold a fence or a marker are visited, so plain prose costs nothing.
    """
    if "\r" in src:
        src = src.replace("\r\n", "\n").replace("\r", "\n")
    if "\0" in src:
        src = src.replace("\0", "\ufffd")
    table = TagTable()
    pairer = _Pairer(table)
    out: list[str] = []  # rebuilt source, only when some line was split
    copied = 0  # src[:copied] is already in ``out``
    lineno = 0  # line number (in the output) of the line at ``counted``
    counted = 0
    fence_char = ""
    fence_len = 0
    search = _INTERESTING_RE.search
    pos = 0
    size = len(src)
    while pos < size:
        m = search(src, pos)
        if m is None:
            break
        line_start = src.rfind("\n", 0, m.start()) + 1
        line_end = src.find("\n", m.start())
        if line_end < 0:
            line_end = size
        pos = line_end + 1
        lineno += src.count("\n", counted, line_start)
        counted = line_start
        line = src[line_start:line_end]
        if "```" in line or "~~~" in line:
            prefix_m = _PREFIX_RE.match(line)
            fm = _FENCE_RE.match(line, prefix_m.end() if prefix_m else 0)
            if fm is not None:
                marker, info = fm.groups()
                if fence_char:
                    if marker[0] == fence_char and len(marker) >= fence_len and not info.strip():
                        fence_char = ""
                elif not (marker[0] == "`" and "`" in info):
                    fence_char, fence_len = marker[0], len(marker)
                continue
        if fence_char:
            continue
        prefix_m = _PREFIX_RE.match(line)
        start = prefix_m.end() if prefix_m else 0
        rest = line[start:].rstrip()
        markers = find_markers(rest) if rest else []
        if not markers:
            continue
        if len(markers) == 1 and markers[0] == (0, len(rest)):
            pairer.add_marker(lineno, rest)  # the common case: a tag alone on its line
            continue
        pieces = _split_line(line, start, rest, markers)
        if not pieces:
            continue
        out.append(src[copied:line_start])
        out.append("\n".join(pieces))
        copied = line_end
        for k, piece in enumerate(pieces):
            pairer.add_line(lineno + k, piece)
        lineno += len(pieces) - 1
    if not out:
        return src, table
    out.append(src[copied:])
    return "".join(out), table
