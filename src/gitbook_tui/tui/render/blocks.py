"""Block renderers: every block type of the model to a list of Rich Text lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.style import Style
from rich.text import Text

from ...markdown import model as m
from ..common.text import cell_width
from .code import layout_code
from .core import BlockLayout, Context, Path, Target, anchor_style, finalize, pad, prefixed, wrap
from .flows import FlowMarks, SearchText
from .gitbook_blocks import (
    layout_cards,
    layout_conditional,
    layout_include,
    layout_math,
    layout_notice,
    layout_unknown,
)
from .links import inline_text, safe_text
from .placeholders import (
    layout_content_ref,
    layout_embed,
    layout_figure,
    layout_file,
    layout_image,
    layout_openapi,
)
from .styles import HINT_ICONS
from .tables import layout_table

__all__ = [
    "COLUMNS_SIDE_BY_SIDE",
    "layout_block",
    "layout_blocks",
    "layout_top_level",
    "layout_top_level_search",
    "layout_top_level_text",
]

COLUMNS_SIDE_BY_SIDE = 100
"""Columns sit side by side from this width on, and are stacked below it."""

_BULLETS = ("•", "◦", "▪")


def layout_top_level(block: m.Block, index: int, width: int, ctx: Context) -> BlockLayout:
    """Lay out top-level block ``index``: its lines plus one blank line of spacing."""
    ctx.targets = []
    ctx.highlight = True
    lines = layout_block(block, max(1, width), ctx, (index,))
    lines.append(Text())
    return finalize(lines, ctx.targets)


def layout_top_level_text(block: m.Block, index: int, width: int, ctx: Context) -> list[str]:
    """The same lines as :func:`layout_top_level`, as plain text only (cheap)."""
    ctx.targets = []
    ctx.highlight = False
    try:
        lines = layout_block(block, max(1, width), ctx, (index,))
    finally:
        ctx.highlight = True
    return [line.plain for line in lines] + [""]


def layout_top_level_search(block: m.Block, index: int, width: int, ctx: Context) -> SearchText:
    """The same lines as :func:`layout_top_level_text`, plus the text search looks in."""
    ctx.targets = []
    ctx.highlight = False
    ctx.marks = marks = FlowMarks()
    try:
        lines = layout_block(block, max(1, width), ctx, (index,))
    finally:
        ctx.highlight = True
        ctx.marks = None
    lines.append(Text())
    return marks.search_text(lines)


def layout_blocks(
    blocks: Sequence[m.Block], width: int, ctx: Context, path: Path, *, tight: bool = False
) -> list[Text]:
    """Sibling blocks, separated by a blank line unless ``tight``."""
    out: list[Text] = []
    for index, block in enumerate(blocks):
        lines = layout_block(block, width, ctx, (*path, index))
        if not lines:
            continue
        if out and not tight:
            out.append(Text())
        out.extend(lines)
    return out


def layout_block(block: m.Block, width: int, ctx: Context, path: Path) -> list[Text]:
    renderer = _RENDERERS.get(type(block))
    if renderer is None:
        # A block type this viewer predates: show whatever text it nests.
        return layout_blocks(tuple(m.child_blocks(block)), width, ctx, path)
    return renderer(block, max(1, width), ctx, path)


def _heading(block: m.Heading, width: int, ctx: Context, path: Path) -> list[Text]:
    style = ctx.palette.heading(block.level)
    text = inline_text(ctx, block.spans, style, single_line=True)
    text.stylize(anchor_style(block.anchor))
    lines = wrap(text, width, marks=ctx.marks)
    if block.level <= 2:
        rule = "━" if block.level == 1 else "─"
        length = min(width, max(line.cell_len for line in lines))
        lines.append(Text(rule * length, style=ctx.palette.heading_rule))
    return lines


def _paragraph(block: m.Paragraph, width: int, ctx: Context, path: Path) -> list[Text]:
    return wrap(inline_text(ctx, block.spans), width, marks=ctx.marks)


def _quote(block: m.Quote, width: int, ctx: Context, path: Path) -> list[Text]:
    body = layout_blocks(block.blocks, width - 2, ctx, path)
    for line in body:
        line.stylize(ctx.palette.quote_text)
    return prefixed(body, Text("▎ ", style=ctx.palette.quote_bar))


def _list(block: m.ListBlock, width: int, ctx: Context, path: Path) -> list[Text]:
    bullet = _BULLETS[ctx.list_depth % len(_BULLETS)]
    last_number = block.start + len(block.items) - 1
    number_width = max(len(str(block.start)), len(str(last_number)))
    out: list[Text] = []
    ctx.list_depth += 1
    try:
        for index, item in enumerate(block.items):
            if item.checked is not None:
                marker = "☑ " if item.checked else "☐ "
            elif block.ordered:
                marker = f"{block.start + index:>{number_width}}. "
            else:
                marker = f"{bullet} "
            indent = len(marker)
            body = layout_blocks(
                item.blocks, width - indent, ctx, (*path, index), tight=block.tight
            )
            if out and not block.tight:
                out.append(Text())
            out.extend(
                prefixed(body or [Text()], Text(marker, style=ctx.palette.dim), Text(" " * indent))
            )
    finally:
        ctx.list_depth -= 1
    return out


def _rule(block: m.Rule, width: int, ctx: Context, path: Path) -> list[Text]:
    return [Text("─" * width, style=ctx.palette.rule)]


def _hint(block: m.Hint, width: int, ctx: Context, path: Path) -> list[Text]:
    color = ctx.palette.hint(block.style)
    icon = HINT_ICONS.get(block.style, HINT_ICONS["info"])
    name = safe_text(str(block.style), single_line=True).title()
    body = layout_blocks(block.blocks, width - 4, ctx, path) or [Text(name)]
    bar = Text("┃ ", style=color)
    first = Text.assemble(bar, Text(f"{icon} ", style=color + Style(bold=True)))
    return prefixed(body, first, Text.assemble(bar, "  "))


def _tabs(block: m.Tabs, width: int, ctx: Context, path: Path) -> list[Text]:
    if not block.tabs:
        return []
    palette = ctx.palette
    active = min(max(0, ctx.state.active_tabs.get(path, 0)), len(block.tabs) - 1)
    # Titles are placed row by row; under each row a rule marks the active title with
    # "━" so it stands out even without colour.
    rows: list[tuple[Text, str]] = []
    row, under = Text(), ""
    for index, tab in enumerate(block.tabs):
        title = safe_text(tab.title, single_line=True).strip() or f"Tab {index + 1}"
        label = f" {title} "
        if row.cell_len and row.cell_len + 1 + len(label) > width:
            rows.append((row, under))
            row, under = Text(), ""
        if row.cell_len:
            row.append(" ")
            under += "─"
        target = Target("tab", label=title, path=path, tab=index, tabs=path)
        style = palette.tab_active if index == active else palette.tab_inactive
        row.append(label, style + ctx.register(target))
        under += ("━" if index == active else "─") * cell_width(label)
    rows.append((row, under))
    lines: list[Text] = []
    for row, under in rows:
        lines.extend(wrap(row, width, marks=ctx.marks))
        under = under[:width] + "─" * max(0, width - len(under))
        rule = Text(under, style=palette.rule)
        rule.highlight_regex("━+", palette.tab_marker)
        lines.append(rule)
    ctx.tabs_stack.append(path)
    try:
        lines.extend(layout_blocks(block.tabs[active].blocks, width, ctx, (*path, active)))
    finally:
        ctx.tabs_stack.pop()
    return lines


def _stepper(block: m.Stepper, width: int, ctx: Context, path: Path) -> list[Text]:
    palette = ctx.palette
    out: list[Text] = []
    for index, step in enumerate(block.steps):
        blocks = step.blocks
        head = Text(f"{index + 1} ▸ ", style=palette.step_number)
        if step.title is not None:
            head.append(safe_text(step.title, single_line=True), Style(bold=True))
        elif blocks and isinstance(blocks[0], m.Heading):
            # A step's own heading is its title ("1 ▸ Install"), not a second line.
            first = blocks[0]
            title = inline_text(ctx, first.spans, Style(bold=True), single_line=True)
            title.stylize(anchor_style(first.anchor))
            head.append_text(title)
            blocks = blocks[1:]
        elif blocks and _is_bold_line(blocks[0]):
            # So is a first paragraph that is all bold (how GitBook writes a step title).
            head.append_text(
                inline_text(ctx, blocks[0].spans, Style(bold=True), single_line=True)  # type: ignore[union-attr]
            )
            blocks = blocks[1:]
        if out:
            out.append(Text("│", style=palette.step_bar))
        out.extend(wrap(head, width, marks=ctx.marks))
        body = layout_blocks(blocks, width - 4, ctx, (*path, index))
        bar = Text("│   " if index < len(block.steps) - 1 else "    ", style=palette.step_bar)
        out.extend(prefixed(body, bar))
    return out


def _is_bold_line(block: m.Block) -> bool:
    if not isinstance(block, m.Paragraph) or not block.spans:
        return False
    text = m.plain_text(block.spans)
    return (
        "\n" not in text
        and len(text) <= 120
        and all("bold" in span.style or not span.text.strip() for span in block.spans)
    )


def _columns(block: m.Columns, width: int, ctx: Context, path: Path) -> list[Text]:
    count = len(block.columns)
    if count == 0:
        return []
    if width < COLUMNS_SIDE_BY_SIDE or count == 1:
        out: list[Text] = []
        for index, column in enumerate(block.columns):
            lines = layout_blocks(column, width, ctx, (*path, index))
            if out and lines:
                out.append(Text())
            out.extend(lines)
        return out
    gap = 3
    column_width = max(1, (width - gap * (count - 1)) // count)
    laid = [
        layout_blocks(col, column_width, ctx, (*path, i)) for i, col in enumerate(block.columns)
    ]
    rows: list[Text] = []
    separator = Text(" │ ", style=ctx.palette.rule)
    for y in range(max(len(lines) for lines in laid)):
        row = Text()
        for index, lines in enumerate(laid):
            if index:
                row.append_text(separator)
            row.append_text(pad(lines[y] if y < len(lines) else Text(), column_width))
        rows.append(row)
    return rows


def _details(block: m.Details, width: int, ctx: Context, path: Path) -> list[Text]:
    palette = ctx.palette
    is_open = ctx.state.details_open(path, block.open)
    label = safe_text("".join(span.text for span in block.summary), single_line=True).strip()
    # The whole summary line is the focusable item: its marker is the line's base
    # style, so links inside the summary (spans drawn on top) stay their own targets.
    target = ctx.register(Target("details", label=label or "Details", path=path))
    head = Text(style=target)
    head.append("▾ " if is_open else "▸ ", palette.details_marker)
    summary = inline_text(ctx, block.summary, Style(bold=True), single_line=True)
    head.append_text(summary if summary.plain else Text("Details", style=Style(bold=True)))
    lines = wrap(head, width, marks=ctx.marks)
    if is_open:
        body = layout_blocks(block.blocks, width - 2, ctx, path)
        lines.extend(prefixed(body, Text("  ")))
    return lines


def _updates(block: m.Updates, width: int, ctx: Context, path: Path) -> list[Text]:
    palette = ctx.palette
    out: list[Text] = []
    for index, update in enumerate(block.updates):
        if out:
            out.append(Text())
        date = safe_text(update.date, single_line=True) or "Update"
        out.append(Text(f"● {date}", style=palette.update_date))
        body = layout_blocks(update.blocks, width - 2, ctx, (*path, index))
        out.extend(prefixed(body, Text("│ ", style=palette.step_bar)))
    return out


def _footnotes(block: m.Footnotes, width: int, ctx: Context, path: Path) -> list[Text]:
    palette = ctx.palette
    out = [Text("─" * min(width, 24), style=palette.rule)]
    for index, (label, blocks) in enumerate(block.items):
        marker = f"[{safe_text(label, single_line=True)}] "
        body = layout_blocks(blocks, width - len(marker), ctx, (*path, index), tight=True)
        out.extend(
            prefixed(
                body or [Text()], Text(marker, style=palette.footnote_ref), Text(" " * len(marker))
            )
        )
    return out


def _html(block: m.HtmlBlock, width: int, ctx: Context, path: Path) -> list[Text]:
    text = safe_text(block.text).strip()
    return wrap(Text(text), width, marks=ctx.marks) if text else []


_RENDERERS: dict[type, Callable[[Any, int, Context, Path], list[Text]]] = {
    m.Heading: _heading,
    m.Paragraph: _paragraph,
    m.CodeBlock: lambda block, width, ctx, path: layout_code(block, width, ctx),
    m.Quote: _quote,
    m.ListBlock: _list,
    m.Table: lambda block, width, ctx, path: layout_table(block, width, ctx),
    m.Rule: _rule,
    m.Hint: _hint,
    m.Tabs: _tabs,
    m.Stepper: _stepper,
    m.Columns: _columns,
    m.Details: _details,
    m.Figure: lambda block, width, ctx, path: layout_figure(block, width, ctx),
    m.Image: lambda block, width, ctx, path: layout_image(block, width, ctx),
    m.FileBlock: lambda block, width, ctx, path: layout_file(block, width, ctx),
    m.EmbedCard: lambda block, width, ctx, path: layout_embed(block, width, ctx),
    m.ContentRef: lambda block, width, ctx, path: layout_content_ref(block, width, ctx),
    m.Include: lambda block, width, ctx, path: layout_include(
        block, width, ctx, path, layout_blocks
    ),
    m.OpenAPICard: lambda block, width, ctx, path: layout_openapi(
        block, width, ctx, path, layout_blocks
    ),
    m.Updates: _updates,
    m.Footnotes: _footnotes,
    m.UnknownBlock: lambda block, width, ctx, path: layout_unknown(
        block, width, ctx, path, layout_blocks
    ),
    m.HtmlBlock: _html,
    m.Cards: lambda block, width, ctx, path: layout_cards(block, width, ctx),
    m.Conditional: lambda block, width, ctx, path: layout_conditional(
        block, width, ctx, path, layout_blocks
    ),
    m.MathBlock: lambda block, width, ctx, path: layout_math(block, width, ctx),
    m.Notice: lambda block, width, ctx, path: layout_notice(block, width, ctx),
}
