"""Core types of the layout engine: targets, layout state, block layouts and line helpers."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from ..common.text import cell_width
from ..textual_compat import style_has_meta
from .flows import FlowMarks
from .styles import DEFAULT_PALETTE, Palette

__all__ = [
    "BlockLayout",
    "Context",
    "FileInfo",
    "LayoutState",
    "Path",
    "PlacedTarget",
    "Target",
    "finalize",
    "overlay",
    "pad",
    "prefixed",
    "wrap",
]

Path: TypeAlias = tuple[int, ...]
"""Where a block sits in the document: top-level index, then child indices."""

TargetKind: TypeAlias = Literal["link", "details", "tab"]

# Meta keys carried by styles *during* layout only: they let composition (indents,
# columns, table cells, wrapping) move text around while target and anchor positions
# are recovered afterwards from the final lines. `finalize` strips them.
TARGET_KEY = "gbt"
ANCHOR_KEY = "gba"

# Rich needs a console to wrap and render Text; nothing is ever written to it.
_CONSOLE = Console(
    file=io.StringIO(),
    width=1000,
    color_system="truecolor",
    force_terminal=False,
    legacy_windows=False,
    markup=False,
    emoji=False,
    highlight=False,
)


@dataclass(frozen=True, slots=True)
class Target:
    """Something focusable: a link, a details summary, or a tab title."""

    kind: TargetKind
    label: str = ""
    href: str | None = None
    external: bool = False
    safe: bool = True
    path: Path = ()
    """The details block (``details``) or the tabs block (``tab``) this target drives."""
    tab: int = 0
    tabs: Path | None = None
    """The innermost tabs block whose header or active content holds this target."""


@dataclass(frozen=True, slots=True)
class PlacedTarget:
    target: Target
    regions: tuple[tuple[int, int, int], ...]
    """``(line, x0, x1)`` cell ranges inside the block layout, in reading order."""

    @property
    def line(self) -> int:
        return self.regions[0][0] if self.regions else 0


@dataclass(frozen=True, slots=True)
class FileInfo:
    """What the caller knows about a file or image (shown in its placeholder box)."""

    name: str | None = None
    size: int | None = None
    width: int | None = None
    height: int | None = None


@dataclass(slots=True)
class LayoutState:
    """The user-driven state that changes a layout: open details and active tabs."""

    toggled: set[Path] = field(default_factory=set)
    active_tabs: dict[Path, int] = field(default_factory=dict)

    def details_open(self, path: Path, default: bool) -> bool:
        return default != (path in self.toggled)

    def toggle(self, path: Path) -> None:
        self.toggled ^= {path}


@dataclass(slots=True)
class BlockLayout:
    """One top-level block laid out at one width."""

    segments: list[list[Segment]]
    """Each line's segments (not Strips: a Strip carries per-instance caches that
    would cost more than the line itself across a whole megabyte page)."""
    widths: list[int]
    plain: list[str]
    targets: list[PlacedTarget]
    anchors: dict[str, int]

    @property
    def height(self) -> int:
        return len(self.segments)

    def strip(self, line: int) -> Strip:
        return Strip(self.segments[line], self.widths[line])


@dataclass(slots=True)
class Context:
    """Per-layout bookkeeping shared by the block renderers."""

    palette: Palette = DEFAULT_PALETTE
    state: LayoutState = field(default_factory=LayoutState)
    files: Mapping[str, FileInfo] = field(default_factory=dict)
    targets: list[Target] = field(default_factory=list)
    tabs_stack: list[Path] = field(default_factory=list)
    list_depth: int = 0
    highlight: bool = True
    """False for text-only layouts (search): same characters, no syntax colouring."""
    marks: FlowMarks | None = None
    """Set for search layouts: wrapped text is marked so its lines can be joined back."""
    titles: Callable[[str], str | None] | None = None
    """The title of the page a link leads to (mentions, content refs, cards), if known."""

    def title_of(self, href: str | None) -> str | None:
        """The title of the page ``href`` leads to, when the caller can tell."""
        if not href or self.titles is None:
            return None
        try:
            title = self.titles(href)
        except Exception:  # a resolver bug must not break the page: show the link as is
            return None
        return title or None

    def register(self, target: Target) -> Style:
        """Record ``target`` and return the (meta-only) style marking its characters."""
        if target.tabs is None and self.tabs_stack:
            target = replace(target, tabs=self.tabs_stack[-1])
        self.targets.append(target)
        return Style.from_meta({TARGET_KEY: len(self.targets) - 1})


def anchor_style(anchor: str) -> Style:
    return Style.from_meta({ANCHOR_KEY: anchor})


def wrap(
    text: Text,
    width: int,
    justify: Literal["left", "center", "right"] = "left",
    marks: FlowMarks | None = None,
) -> list[Text]:
    """Word-wrap ``text`` to ``width`` cells (long words fold); always at least one line.

    With ``marks`` (a search layout), ``text`` itself is marked as one flow of text
    first: in place, as every caller wraps a Text made for the purpose, and copying
    each one would slow down the first search of a large page.
    """
    if marks is not None:
        marks.mark(text)
    plain = text.plain
    if not plain or ("\n" not in plain and text.cell_len <= width and justify == "left"):
        # Most table cells and short paragraphs fit: skip Rich's wrapping machinery.
        return [text]
    lines = text.wrap(_CONSOLE, max(1, width), justify=justify, overflow="fold")
    return list(lines) or [Text()]


def pad(line: Text, width: int) -> Text:
    """A copy of ``line`` cut or padded with spaces to exactly ``width`` cells."""
    line = line.copy()
    line.truncate(max(0, width), pad=True)
    return line


def prefixed(lines: Iterable[Text], first: Text, rest: Text | None = None) -> list[Text]:
    """``lines`` with ``first`` before the first line and ``rest`` (default: ``first``) after."""
    out: list[Text] = []
    for index, line in enumerate(lines):
        head = first if index == 0 or rest is None else rest
        out.append(Text.assemble(head, line))
    return out


def finalize(lines: list[Text], targets: list[Target]) -> BlockLayout:
    """Render ``lines`` into strips; recover target regions and anchors from style meta."""
    lines_segments: list[list[Segment]] = []
    widths: list[int] = []
    plain: list[str] = []
    regions: list[list[tuple[int, int, int]]] = [[] for _ in targets]
    anchors: dict[str, int] = {}
    for y, line in enumerate(lines):
        x = 0
        segments: list[Segment] = []
        for segment in line.render(_CONSOLE, end=""):
            text, style = segment.text, segment.style
            width = cell_width(text)
            if style is not None and style_has_meta(style):
                meta = style.meta
                index = meta.get(TARGET_KEY)
                if index is not None:
                    spans = regions[index]
                    if spans and spans[-1][0] == y and spans[-1][2] == x:
                        spans[-1] = (y, spans[-1][1], x + width)
                    else:
                        spans.append((y, x, x + width))
                anchor = meta.get(ANCHOR_KEY)
                if anchor is not None:
                    anchors.setdefault(anchor, y)
                # Meta never reaches Textual: it would otherwise be read as handlers.
                style = style.clear_meta_and_links()
            segments.append(Segment(text, style))
            x += width
        lines_segments.append(segments)
        widths.append(x)
        plain.append("".join(segment.text for segment in segments))
    placed = [
        PlacedTarget(target, tuple(spans))
        for target, spans in zip(targets, regions, strict=True)
        if spans
    ]
    return BlockLayout(lines_segments, widths, plain, placed, anchors)


def overlay(strip: Strip, spans: Iterable[tuple[int, int, Style]]) -> Strip:
    """``strip`` with each ``(x0, x1, style)`` drawn on top of its cells (later spans win)."""
    spans = list(spans)
    length = strip.cell_length
    cuts = sorted({x for x0, x1, _ in spans for x in (x0, x1) if 0 < x < length} | {length})
    segments: list[Segment] = []
    position = 0
    for part, cut in zip(strip.divide(cuts), cuts, strict=False):
        style: Style | None = None
        for x0, x1, span_style in spans:
            if x0 <= position < x1:
                style = span_style
        segments.extend(part if style is None else Segment.apply_style(part, post_style=style))
        position = cut
    return Strip(segments, length)
