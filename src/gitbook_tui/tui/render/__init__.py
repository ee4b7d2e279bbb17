"""Block → terminal lines layout engine of the page viewer (pure: no widgets here).

Each name is imported from its module when first used (``__getattr__``): the engine (and
the markdown block model it lays out) is needed once a page is shown, not for the app's
first screen (the tree), which imports this package's light modules only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...lazy_exports import lazy_exports

if TYPE_CHECKING:
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

_MODULE_OF = {
    "COLUMNS_SIDE_BY_SIDE": "blocks",
    "layout_top_level": "blocks",
    "BlockLayout": "core",
    "FileInfo": "core",
    "LayoutState": "core",
    "Path": "core",
    "PlacedTarget": "core",
    "Target": "core",
    "overlay": "core",
    "FindResults": "find",
    "Match": "find",
    "iter_matches": "find",
    "DocumentLayout": "layout",
    "DEFAULT_PALETTE": "styles",
    "Palette": "styles",
}

_lazy_getattr, __dir__ = lazy_exports(__name__, _MODULE_OF, globals(), __all__)


def __getattr__(name: str) -> object:
    if name == "classify_href":  # (from tui.common, exported here for the engine's users)
        from ..common.link_targets import classify_href

        return classify_href
    return _lazy_getattr(name)


def render_plain(
    document: Document,
    width: int,
    *,
    state: LayoutState | None = None,
    files: Mapping[str, FileInfo] | None = None,
) -> list[str]:
    """Every rendered line of ``document`` as plain text (trailing spaces removed)."""
    from .layout import DocumentLayout

    layout = DocumentLayout(document, width, state=state, files=files)
    return [text.rstrip() for _block, _line, text in layout.lines()]
