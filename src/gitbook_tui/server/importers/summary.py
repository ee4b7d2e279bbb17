"""Parsing of Git Sync text formats: the .gitbook.yaml subset, page front matter and SUMMARY.md."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# -- tiny YAML subset and front matter ---------------------------------------------------------


def _scalar(value: str) -> Any:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    if " #" in value:
        value = value.split(" #", 1)[0].rstrip()
    lowered = value.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("null", "~", ""):
        return None
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


def parse_simple_yaml(text: str) -> dict[str, Any]:
    """Nested ``key: value`` mappings by indentation (the subset .gitbook.yaml and front
    matter use); lists and flow syntax are not supported and are skipped."""
    root: dict[str, Any] = {}
    stack: list[tuple[int, dict[str, Any]]] = [(-1, root)]
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        match = re.match(r"^\s*([^:#][^:]*?)\s*:(?:\s+(.*))?\s*$", raw)
        if match is None:
            continue
        key, value = match.group(1).strip().strip("\"'"), match.group(2)
        while stack and indent <= stack[-1][0]:
            stack.pop()
        parent = stack[-1][1] if stack else root
        if value is None or value.strip() == "" or value.strip().startswith("#"):
            child: dict[str, Any] = {}
            parent[key] = child
            stack.append((indent, child))
        else:
            parent[key] = _scalar(value)
    return root


_FRONT_RE = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)


def split_front_matter(markdown: str) -> tuple[dict[str, Any], str]:
    """``(front matter, body)``; no front matter gives ``({}, markdown)``."""
    match = _FRONT_RE.match(markdown)
    if match is None:
        return {}, markdown
    return parse_simple_yaml(match.group(1)), markdown[match.end() :]


_H1_RE = re.compile(r"\A\s*#[ \t]+(.+?)[ \t#]*(?:\r?\n|\Z)")


def split_title(markdown: str) -> tuple[str | None, str]:
    """The leading ``# Title`` of a page (GitBook keeps it as the page title) and the rest."""
    match = _H1_RE.match(markdown)
    if match is None:
        return None, markdown
    return match.group(1).strip(), markdown[match.end() :].lstrip("\r\n")


# -- SUMMARY.md ---------------------------------------------------------------------------------


@dataclass
class Entry:
    """One entry of SUMMARY.md."""

    kind: str  # document | link | group
    title: str
    target: str | None = None
    children: list[Entry] = field(default_factory=list)


_ITEM_RE = re.compile(r"^(\s*)[*+-][ \t]+(.*)$")
_LINK_RE = re.compile(r"^\[((?:[^\]\\]|\\.)*)\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\s*\)")
_GROUP_RE = re.compile(r"^#{2,6}[ \t]+(.+?)[ \t#]*$")


def parse_summary(text: str) -> list[Entry]:
    """The page tree of a SUMMARY.md."""
    top: list[Entry] = []
    group: Entry | None = None
    stack: list[tuple[int, Entry]] = []
    for raw in text.splitlines():
        line = raw.replace("\t", "    ")
        if not line.strip():
            continue
        heading = _GROUP_RE.match(line.strip()) if line.startswith("#") else None
        if heading:
            group = Entry("group", _unescape(heading.group(1)))
            top.append(group)
            stack = []
            continue
        item = _ITEM_RE.match(line)
        if item is None:
            continue
        indent, content = len(item.group(1)), item.group(2).strip()
        link = _LINK_RE.match(content)
        if link:
            title, target = _unescape(link.group(1)), link.group(2).strip("<>").strip()
        else:
            title, target = _unescape(content), ""
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            entry = Entry("link", title or target, target)
        else:
            entry = Entry("document", title, target or None)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if stack:
            stack[-1][1].children.append(entry)
        elif group is not None:
            group.children.append(entry)
        else:
            top.append(entry)
        stack.append((indent, entry))
    return top


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text).strip()
