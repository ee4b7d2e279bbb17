"""DiffLines: the screen lines of a block diff — gutter marks, word highlights, folds,
code lines folded with the continuation mark, inline and split rows — in the theme's
colours (made readable). A mixin for :class:`.diff_view.DiffView`."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.color import Color

from ...markdown.diff import (
    AttributeChange,
    BlockKind,
    DisplayBlock,
    Fold,
    InlineLine,
    SplitLine,
    WordSpan,
    WordTag,
)
from ...markdown.sanitize import clean_text
from ..common.contrast import TEXT_CONTRAST, readable
from .code import CONTINUATION
from .core import pad, wrap
from .links import safe_text

__all__ = ["DiffLines"]

_PREFIX = {
    BlockKind.HEADING: "# ",
    BlockKind.LIST_ITEM: "• ",
    BlockKind.CODE_LINE: "│ ",
    BlockKind.CODE_TITLE: "▤ ",
    BlockKind.QUOTE: "▎ ",
    BlockKind.TABLE_HEADER: "┃ ",
    BlockKind.TABLE_ROW: "│ ",
    BlockKind.RULE: "──────",
}


class DiffLines:
    """Lays out a diff's lines (see the module); the widget paints them."""

    app: App[object]
    header: tuple[AttributeChange, ...]
    _style_cache: dict[str, Style] | None

    def _styles(self) -> dict[str, Style]:
        """Styles from the theme (computed once per layout: blocks ask for them often)."""
        if self._style_cache is None:
            v = self.app.theme_variables

            def colour(name: str, fallback: str) -> str:
                value = v.get(name, fallback)
                return value if value.startswith("#") else fallback

            def word(background: str) -> str:
                """The theme's text colour, made readable on a changed word's background."""
                fg, bg = colour("foreground", ""), colour(background, "")
                if not fg or not bg:
                    return ""
                text = readable(Color.parse(fg), Color.parse(bg), Color.parse(fg), TEXT_CONTRAST)
                return text.hex

            ins_bg, del_bg = (
                colour("success-muted", "dark_green"),
                colour("error-muted", "dark_red"),
            )
            self._style_cache = {
                "add": Style.parse(colour("text-success", "green")),
                "del": Style.parse(colour("text-error", "red")),
                "ins_word": Style.parse(f"bold {word('success-muted')} on {ins_bg}".strip()),
                "del_word": Style.parse(f"strike {word('error-muted')} on {del_bg}".strip()),
                "dim": Style(dim=True),
                "current": Style.parse(f"bold {colour('text-warning', 'yellow')}"),
            }
        return self._style_cache

    def _header_lines(self, width: int) -> list[Text]:
        styles = self._styles()
        out: list[Text] = []
        for change in self.header:
            old = "" if change.old is None else clean_text(str(change.old))
            new = "" if change.new is None else clean_text(str(change.new))
            line = Text.assemble(
                ("± ", styles["current"]),
                (f"{change.name}: ", "bold"),
                (old or "(none)", styles["del_word"]),
                " → ",
                (new or "(none)", styles["ins_word"]),
            )
            out.extend(wrap(line, width))
        if out:
            out.append(Text("─" * width, style=styles["dim"]))
        return out

    def _block_text(
        self, block: DisplayBlock, spans: Sequence[WordSpan] | None, removed: bool
    ) -> Text:
        styles = self._styles()
        prefix = "  " * block.depth + _PREFIX.get(block.kind, "")
        if block.is_container:
            prefix += f"[{block.kind.value}{' ' + block.variant if block.variant else ''}] "
        text = Text(clean_text(prefix), style=styles["dim"])
        if spans is None:
            text.append(safe_text(block.text))
            return text
        for span in spans:
            if span.tag is WordTag.EQUAL:
                text.append(safe_text(span.text))
            elif span.tag is WordTag.DELETE:
                text.append(safe_text(span.text), styles["del_word"])
            else:
                text.append(safe_text(span.text), styles["ins_word"])
        return text

    def _fold_text(self, line_fold: Fold) -> Text:
        where = f" · {clean_text(line_fold.section)}" if line_fold.section else ""
        return Text(
            f"·· {line_fold.count} unchanged{where} ··  (enter opens, }} more context)",
            style=self._styles()["dim"],
        )

    def _gutter(self, marker: str, current: bool) -> Text:
        styles = self._styles()
        style = (
            styles["current"]
            if current
            else styles["add"]
            if marker == "+"
            else styles["del"]
            if marker == "−"
            else styles["dim"]
        )
        return Text(("▶" if current else "▌" if marker.strip() else " ") + marker, style=style)

    def _wrap_block(self, block: DisplayBlock, body: Text, width: int) -> list[Text]:
        """``body`` wrapped to ``width``; a code line folded to fit keeps its ``│`` gutter
        and marks each later piece with the page viewer's continuation mark."""
        if block.kind is not BlockKind.CODE_LINE:
            return wrap(body, width)
        indent = "  " * block.depth
        prefix = len(indent) + len(_PREFIX[BlockKind.CODE_LINE])
        if body.cell_len <= width or width <= prefix + 1:
            return wrap(body, width)
        head, code = body[:prefix], body[prefix:]
        pieces = wrap(code, width - prefix)
        mark = Text.assemble(indent, "│", style=self._styles()["dim"])
        mark.append(CONTINUATION, self._styles()["dim"])
        return [Text.assemble(head if i == 0 else mark, piece) for i, piece in enumerate(pieces)]

    def _inline(self, line: InlineLine, width: int) -> list[Text]:
        if line.fold is not None:
            return wrap(Text.assemble("  ", self._fold_text(line.fold)), width)
        assert line.block is not None
        body = self._block_text(line.block, line.spans(), line.marker == "−")
        gutter = self._gutter(line.marker, False)
        lines = self._wrap_block(line.block, body, max(1, width - 3))
        return [
            Text.assemble(gutter if i == 0 else Text("  "), " ", part)
            for i, part in enumerate(lines)
        ]

    def _split(self, line: SplitLine, width: int) -> list[Text]:
        if line.fold is not None:
            return wrap(Text.assemble("  ", self._fold_text(line.fold)), width)
        half = max(10, (width - 1) // 2)
        sides: list[list[Text]] = []
        for block, marker, spans in (
            (line.left, line.left_marker, line.left_spans()),
            (line.right, line.right_marker, line.right_spans()),
        ):
            if block is None:
                sides.append([])
                continue
            body = self._wrap_block(
                block, self._block_text(block, spans, marker == "−"), max(1, half - 3)
            )
            gutter = self._gutter(marker, False)
            sides.append(
                [
                    Text.assemble(gutter if i == 0 else Text("  "), " ", part)
                    for i, part in enumerate(body)
                ]
            )
        height = max(len(sides[0]), len(sides[1]), 1)
        filler = Text("╱" * half, style=self._styles()["dim"])
        out = []
        for i in range(height):
            left = (
                pad(sides[0][i], half)
                if i < len(sides[0])
                else (filler if not sides[0] else Text(" " * half))
            )
            right = (
                pad(sides[1][i], half)
                if i < len(sides[1])
                else (filler if not sides[1] else Text(" " * half))
            )
            out.append(Text.assemble(left, Text("│", style=self._styles()["dim"]), right))
        return out
