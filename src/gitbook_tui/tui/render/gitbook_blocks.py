"""Renderers of GitBook's own blocks: cards, conditions, includes, integrations, math, notices."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.style import Style
from rich.text import Text

from ...markdown import model as m
from .code import layout_code
from .core import Context, Path, prefixed, wrap
from .links import inline_text, safe_text
from .placeholders import _box, _card_link, _lookup, _split, describe_file

__all__ = [
    "layout_cards",
    "layout_conditional",
    "layout_include",
    "layout_math",
    "layout_notice",
    "layout_unknown",
    "page_label",
]

LayoutBlocks = Callable[[Sequence[m.Block], int, Context, Path], list[Text]]


def page_label(ctx: Context, href: str) -> str:
    """What a link to a page shows: the page's title when known, else the link itself."""
    href = safe_text(href, single_line=True).strip()
    title = ctx.title_of(href)
    return safe_text(title, single_line=True).strip() if title else href


def layout_cards(block: m.Cards, width: int, ctx: Context) -> list[Text]:
    """Every card as a box: title, text, where it leads (the page's title) and its cover."""
    palette = ctx.palette
    out: list[Text] = []
    for card in block.cards:
        content: list[Text] = []
        title = inline_text(ctx, card.title, palette.card_title)
        if title.plain.strip():
            content.extend(wrap(title, width - 4, marks=ctx.marks))
        for paragraph in card.body:
            content.extend(wrap(inline_text(ctx, paragraph), width - 4, marks=ctx.marks))
        if card.target:
            head = Text("→ ", style=palette.label)
            head.append_text(_card_link(ctx, card.target, page_label(ctx, card.target)))
            content.extend(wrap(head, width - 4, marks=ctx.marks))
        if card.cover:
            cover = safe_text(card.cover, single_line=True).strip()
            info = _lookup(ctx, cover)
            name = (
                info.name if info is not None and info.name else _split(cover)[1].rsplit("/", 1)[-1]
            )
            # No picture emoji here: terminals disagree on its width, which would shift the box.
            line = Text(f"cover: {safe_text(name, single_line=True)}", style=palette.dim)
            details = describe_file(info)
            if details:
                line.append(f" · {details}")
            content.extend(wrap(line, width - 4, marks=ctx.marks))
        out.extend(_box(ctx, content or [Text("(empty card)", style=palette.dim)], width))
    return out


def layout_conditional(
    block: m.Conditional, width: int, ctx: Context, path: Path, layout_blocks: LayoutBlocks
) -> list[Text]:
    """Each branch under its condition (``◇ if visitor.claims.beta``), content indented."""
    palette = ctx.palette
    out: list[Text] = []
    for index, (label, blocks) in enumerate(block.branches):
        head = Text("◇ ", style=palette.condition)
        head.append(safe_text(label, single_line=True).strip() or "if", palette.condition)
        out.extend(wrap(head, width, marks=ctx.marks))
        body = layout_blocks(blocks, width - 2, ctx, (*path, index))
        out.extend(prefixed(body, Text("┊ ", style=palette.step_bar)))
    return out


def _attribute_lines(ctx: Context, attrs: dict[str, str], width: int, skip: str = "") -> list[Text]:
    lines: list[Text] = []
    for key, value in attrs.items():
        if key == skip:
            continue
        key = safe_text(key, single_line=True)
        value = safe_text(value, single_line=True)
        line = Text(f"{key}: ", style=ctx.palette.dim)
        line.append(value if not value.startswith(("http://", "https://")) else "")
        if value.startswith(("http://", "https://")):
            line.append_text(_card_link(ctx, value, value))
        lines.extend(wrap(line, width, marks=ctx.marks))
    return lines


def layout_unknown(
    block: m.UnknownBlock, width: int, ctx: Context, path: Path, layout_blocks: LayoutBlocks
) -> list[Text]:
    """An integration block (``{% @app/block url=… %}``) as an embed-like card; any other
    tag as a box labelled with its name, listing its attributes, around its content."""
    palette = ctx.palette
    tag = safe_text(block.tag, single_line=True).strip() or "block"
    content: list[Text] = []
    if tag.startswith("@"):
        app, _, kind = tag[1:].partition("/")
        url = block.attrs.get("url") or block.attrs.get("src") or block.attrs.get("arg0") or ""
        head = Text("▶ ", style=palette.label)
        head.append(app or "integration", Style(bold=True))
        if kind:
            head.append(f" · {kind}", palette.label)
        content.extend(wrap(head, width - 4, marks=ctx.marks))
        if url:
            content.extend(wrap(_card_link(ctx, url, url), width - 4, marks=ctx.marks))
        attrs = {k: v for k, v in block.attrs.items() if v and k not in ("url", "src", "arg0")}
        content.extend(_attribute_lines(ctx, attrs, width - 4))
    else:
        content.extend(wrap(Text(f"‹{tag}›", style=palette.label), width - 4, marks=ctx.marks))
        content.extend(
            _attribute_lines(ctx, {k: v for k, v in block.attrs.items() if v}, width - 4)
        )
        flags = [k for k, v in block.attrs.items() if not v]
        if flags:
            flag_line = Text(" ".join(safe_text(f, single_line=True) for f in flags), palette.dim)
            content.extend(wrap(flag_line, width - 4, marks=ctx.marks))
    body = layout_blocks(block.blocks, width - 4, ctx, path)
    if body:
        content.append(Text())
        content.extend(body)
    return _box(ctx, content, width)


def layout_include(
    block: m.Include, width: int, ctx: Context, path: Path, layout_blocks: LayoutBlocks
) -> list[Text]:
    """An expanded include: a quiet "included from" line, then its content; a missing one
    as a visible placeholder; one not looked up yet as its path."""
    palette = ctx.palette
    source = safe_text(block.path, single_line=True).strip()
    if block.state == "missing":
        line = Text("⚠ Missing reusable content: ", style=palette.notice)
        line.append(source or "(no path)", palette.dim)
        return _box(ctx, wrap(line, width - 4, marks=ctx.marks), width)
    label = Text("⤷ Included from ", style=palette.label)
    if block.state == "included":
        name = safe_text(block.title, single_line=True).strip() or source
        label.append(name, palette.label + Style(bold=True))
        lines = wrap(label, width, marks=ctx.marks)
        body = layout_blocks(block.blocks, width - 2, ctx, path)
        lines.extend(prefixed(body, Text("┆ ", style=palette.step_bar)))
        return lines
    label.append_text(_card_link(ctx, source, source))
    return wrap(label, width, marks=ctx.marks)


def layout_math(block: m.MathBlock, width: int, ctx: Context) -> list[Text]:
    """TeX as written, in a code-like box titled "Math" (a terminal cannot typeset it)."""
    return layout_code(m.CodeBlock(block.tex, "latex", "∑ Math"), width, ctx)


def layout_notice(block: m.Notice, width: int, ctx: Context) -> list[Text]:
    palette = ctx.palette
    message = safe_text(block.message, single_line=True)
    text = Text(f"⚠ {message}", style=palette.notice)
    if block.detail:
        text.append(": ")
        text.append(safe_text(block.detail, single_line=True), Style(bold=False))
    bar = Text("┃ ", style=palette.notice)
    return prefixed(wrap(text, width - 2, marks=ctx.marks), bar)
