"""Reads a Textual SVG screenshot back as rows of text and styles, to say in the test output
what a mismatched snapshot drew differently (CI keeps no HTML report)."""

from __future__ import annotations

import difflib
import html
import re

_STYLE = re.compile(r"\.(terminal-(?:\d+-)?r\d+) \{ ([^}]*)\}")
_TEXT = re.compile(
    r'<text class="(terminal-(?:\d+-)?r\d+)" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#terminal-(?:\d+-)?line-(\d+)\)">([^<]*)</text>'
)
_CELL_WIDTH = 12.2


def svg_rows(svg: str) -> list[tuple[str, list[tuple[int, str]]]]:
    """Each terminal row of ``svg``: its text and its runs as (column, style declaration)."""
    styles = {name: body.strip() for name, body in _STYLE.findall(svg)}
    cells: dict[int, dict[int, str]] = {}
    runs: dict[int, list[tuple[int, str]]] = {}
    for cls, x, line, content in _TEXT.findall(svg):
        row, column = int(line), round(float(x) / _CELL_WIDTH)
        text = html.unescape(content).replace("\xa0", " ")
        for offset, char in enumerate(text):
            cells.setdefault(row, {})[column + offset] = char
        runs.setdefault(row, []).append((column, styles.get(cls, cls)))
    height = max([*cells, *runs], default=-1) + 1
    rows = []
    for row in range(height):
        line = cells.get(row, {})
        text = "".join(line.get(c, " ") for c in range(max(line, default=-1) + 1)).rstrip()
        rows.append((text, sorted(runs.get(row, []))))
    return rows


def describe_mismatch(expected: str, actual: str, *, limit: int = 60) -> str:
    """The rows whose text differ (a unified diff), else the rows whose styles differ."""
    before, after = svg_rows(expected), svg_rows(actual)
    text_diff = list(
        difflib.unified_diff(
            [t for t, _ in before], [t for t, _ in after], "snapshot", "drawn", lineterm="", n=1
        )
    )
    if text_diff:
        return "\n".join(text_diff[:limit])
    lines = ["same text; styles differ on rows:"]
    for row, ((text, old), (_, new)) in enumerate(zip(before, after, strict=False)):
        if old != new:
            changed = sorted(set(new) - set(old))[:4]
            lines.append(f"{row:3d} {text[:70]!r}: now {changed}")
    return "\n".join(lines[:limit])
