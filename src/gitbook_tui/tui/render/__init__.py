"""Block → terminal lines layout engine of the page viewer (pure: no widgets here)."""

from __future__ import annotations

from collections.abc import Mapping

from ...markdown.model import Document
from ..common.link_targets import classify_href
from .blocks import COLUMNS_SIDE_BY_SIDE, layout_top_level
from .core import BlockLayout, FileInfo, LayoutState, Path, PlacedTarget, Target, overlay
from .find import FindResults, Match, iter_matches
from .layout import DocumentLayout
from .styles import DEFAULT_PALETTE, Palette

__all__ = [
    "COLUMNS_SIDE_BY_SIDE",
    "DEFAULT_PALETTE",
    "BlockLayout",
    "DocumentLayout",
    "FileInfo",
    "FindResults",
    "LayoutState",
    "Match",
    "Palette",
    "Path",
    "PlacedTarget",
    "Target",
    "classify_href",
    "iter_matches",
    "layout_top_level",
    "overlay",
    "render_plain",
]


def render_plain(
    document: Document,
    width: int,
    *,
    state: LayoutState | None = None,
    files: Mapping[str, FileInfo] | None = None,
) -> list[str]:
    """Every rendered line of ``document`` as plain text (trailing spaces removed)."""
    layout = DocumentLayout(document, width, state=state, files=files)
    return [text.rstrip() for _block, _line, text in layout.lines()]
