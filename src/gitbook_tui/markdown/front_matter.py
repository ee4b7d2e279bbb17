"""YAML front matter of a page: found at the top of the markdown, read with PyYAML's safe loader."""

from __future__ import annotations

import datetime
import re
from typing import Any

import yaml

__all__ = ["MAX_FRONT_MATTER", "FrontMatterError", "read_front_matter", "split_front_matter"]

MAX_FRONT_MATTER = 64 * 1024
"""Front matter longer than this is refused (it is page metadata, never a document)."""

_FRONT_RE = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)(?:\r?\n)?^---[ \t]*(?:\r?\n|\Z)", re.S | re.M)

try:  # libyaml when present (much faster); the pure-Python loader otherwise
    _Loader: type[yaml.SafeLoader] = yaml.CSafeLoader  # type: ignore[assignment]
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Loader = yaml.SafeLoader


class FrontMatterError(ValueError):
    """Front matter that is not a readable YAML mapping; the message says where and why."""


def split_front_matter(markdown: str) -> tuple[str | None, str]:
    """``(front matter text, body)``; ``(None, markdown)`` when the page has none.

    Front matter is a ``---`` line first in the page, YAML lines, and a closing ``---``.
    """
    if not markdown.startswith(("---", "\ufeff---")):
        return None, markdown
    match = _FRONT_RE.match(markdown)
    if match is None:
        return None, markdown
    return match.group(1), markdown[match.end() :]


def _plain(value: Any) -> Any:
    """YAML values made JSON-friendly: dates become ISO strings, keys strings."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, datetime.date):
        return value.isoformat()
    if value is None or isinstance(value, str | bool | int | float):
        return value
    return str(value)


def read_front_matter(text: str) -> dict[str, Any]:
    """The mapping a page's front matter holds (every YAML scalar style: plain, quoted,
    folded ``>-``, literal ``|``…). Raises :class:`FrontMatterError` when it is not YAML,
    not a mapping, too long or uses aliases (which could expand without bound)."""
    if len(text) > MAX_FRONT_MATTER:
        raise FrontMatterError(f"front matter longer than {MAX_FRONT_MATTER // 1024} KB")
    if not text.strip():
        return {}
    try:
        if "*" in text:
            for event in yaml.parse(text, Loader=_Loader):
                if isinstance(event, yaml.AliasEvent):
                    raise FrontMatterError("YAML aliases are not allowed in front matter")
        data = yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        raise FrontMatterError(f"{where}{exc.problem or exc.context or 'invalid YAML'}") from exc
    except yaml.YAMLError as exc:
        raise FrontMatterError(str(exc) or "invalid YAML") from exc
    except RecursionError as exc:
        raise FrontMatterError("front matter nested too deeply") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise FrontMatterError(f"front matter is a {type(data).__name__}, not a mapping")
    plain: dict[str, Any] = _plain(data)
    return plain
