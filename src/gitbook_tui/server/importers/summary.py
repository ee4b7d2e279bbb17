"""Parsing of Git Sync text formats: the .gitbook.yaml subset, page front matter and SUMMARY.md."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from typing import Any

from ...markdown.front_matter import FrontMatterError, read_front_matter
from ...markdown.front_matter import split_front_matter as find_front_matter
from ...markdown.html_blocks import strip_html
from ..content.page_text import read_page, split_title

__all__ = [
    "Entry",
    "parse_simple_yaml",
    "parse_summary",
    "read_page",
    "split_front_matter",
    "split_title",
]

# -- YAML (.gitbook.yaml, front matter) -------------------------------------------------------


def parse_simple_yaml(text: str) -> dict[str, Any]:
    """The mapping a YAML document holds (PyYAML's safe loader); ``{}`` when it is not one."""
    try:
        return read_front_matter(text)
    except FrontMatterError:
        return {}


def split_front_matter(markdown: str) -> tuple[dict[str, Any], str]:
    """``(front matter, body)``; no front matter, or unreadable front matter, gives
    ``({}, markdown)`` (see :func:`read_page` to learn why it was unreadable)."""
    raw, body = find_front_matter(markdown)
    if raw is None:
        return {}, markdown
    try:
        return read_front_matter(raw), body
    except FrontMatterError:
        return {}, markdown


# -- SUMMARY.md ---------------------------------------------------------------------------------


@dataclass
class Entry:
    """One entry of SUMMARY.md."""

    kind: str  # document | link | group | computed
    title: str
    target: str | None = None
    children: list[Entry] = field(default_factory=list)
    computed: dict[str, Any] | None = None
    """A computed entry's source (``{type: builtin:openapi, dependencies, props}``)."""


_ITEM_RE = re.compile(r"^(\s*)[*+-][ \t]+(.*)$")
_LINK_RE = re.compile(r"^\[((?:[^\]\\]|\\.)*)\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\s*\)")
_GROUP_RE = re.compile(r"^#{2,6}[ \t]+(.+?)[ \t#]*$")


def parse_summary(text: str, warnings: list[str] | None = None) -> list[Entry]:
    """The page tree of a SUMMARY.md (problems found go to ``warnings``)."""
    top: list[Entry] = []
    group: Entry | None = None
    stack: list[tuple[int, Entry]] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index].replace("\t", "    ")
        index += 1
        if not line.strip():
            continue
        heading = _GROUP_RE.match(line.strip()) if line.startswith("#") else None
        if heading:
            group = Entry("group", _plain_title(heading.group(1)))
            top.append(group)
            stack = []
            continue
        item = _ITEM_RE.match(line)
        if item is None:
            continue
        indent, content = len(item.group(1)), item.group(2).strip()
        fence = _FENCE_RE.match(content)
        if fence is not None:
            index, entry = _computed_entry(lines, index, indent, fence.group(1), warnings)
            if entry is None:
                continue
        else:
            entry = _link_entry(content)
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


def _link_entry(content: str) -> Entry:
    link = _LINK_RE.match(content)
    if link:
        title = _plain_title(link.group(1))
        target = _unescape(link.group(2).strip("<>").strip())
    else:
        title, target = _plain_title(content), ""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
        return Entry("link", title or target, target)
    return Entry("document", title, target or None)


_FENCE_RE = re.compile(r"^(`{3,}|~{3,})\s*([\w-]*)\s*$")


def _computed_entry(
    lines: list[str], index: int, indent: int, fence: str, warnings: list[str] | None
) -> tuple[int, Entry | None]:
    """A list item holding a fenced YAML block (GitBook's computed pages, e.g. an OpenAPI
    reference): the lines up to the closing fence are its source."""
    body: list[str] = []
    while index < len(lines):
        line = lines[index].replace("\t", "    ")
        index += 1
        if line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0]):
            break
        body.append(line)
    source = parse_simple_yaml(textwrap.dedent("\n".join(body)))
    kind = source.get("type")
    if not isinstance(kind, str) or not kind:
        if warnings is not None:
            warnings.append("SUMMARY.md: a fenced block that is no computed page was skipped")
        return index, None
    return index, Entry("computed", _computed_title(source), None, computed=source)


def _computed_title(source: dict[str, Any]) -> str:
    props = source.get("props") if isinstance(source.get("props"), dict) else {}
    title = props.get("title") if isinstance(props, dict) else None
    if isinstance(title, str) and title.strip():
        return title.strip()
    spec = None
    dependencies = source.get("dependencies")
    if isinstance(dependencies, dict) and isinstance(dependencies.get("spec"), dict):
        ref = dependencies["spec"].get("ref")
        if isinstance(ref, dict):
            spec = ref.get("spec") or ref.get("url")
    kind = str(source.get("type", "computed")).removeprefix("builtin:")
    label = "OpenAPI reference" if kind == "openapi" else f"{kind.capitalize()} content"
    return f"{label}: {spec}" if spec else label


def _plain_title(text: str) -> str:
    """A title without markdown escapes or HTML (GitBook puts anchors in group headings:
    ``Get Started <a href="#getting-started" id="getting-started"></a>``)."""
    if "<" in text:
        text = strip_html(text).replace("\n", " ")
    return _unescape(text)


def _unescape(text: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text).strip()
