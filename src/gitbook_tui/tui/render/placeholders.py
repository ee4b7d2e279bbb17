"""Placeholder boxes and link cards: figures, images, files, embeds, content refs, OpenAPI."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from rich.style import Style
from rich.text import Text

from ...markdown import model as m
from .core import Context, FileInfo, Path, pad, wrap
from .links import inline_text, link_style, link_target, safe_text

__all__ = [
    "describe_file",
    "layout_content_ref",
    "layout_embed",
    "layout_figure",
    "layout_file",
    "layout_image",
    "layout_openapi",
]

LayoutBlocks = Callable[[Sequence[m.Block], int, Context, Path], list[Text]]


def _box(ctx: Context, content: list[Text], width: int) -> list[Text]:
    """``content`` (already wrapped to ``width - 4``) inside a rounded box fitted to it."""
    border = ctx.palette.box
    inner = max(1, min(width - 4, max((line.cell_len for line in content), default=1)))
    out = [Text("╭" + "─" * (inner + 2) + "╮", style=border)]
    for line in content:
        out.append(
            Text.assemble(Text("│ ", style=border), pad(line, inner), Text(" │", style=border))
        )
    out.append(Text("╰" + "─" * (inner + 2) + "╯", style=border))
    return out


def _split(url: str) -> tuple[str, str]:
    """``(host, path)`` of a URL or relative path; malformed URLs never raise."""
    if "://" not in url:
        return "", url.split("?", 1)[0].split("#", 1)[0]
    try:
        parts = urlsplit(url)
        return parts.hostname or "", parts.path
    except ValueError:
        return "", url


def _basename(src: str) -> str:
    return _split(src)[1].rstrip("/").rsplit("/", 1)[-1] or src


def _human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"  # pragma: no cover - loop always returns


def describe_file(info: FileInfo | None) -> str:
    """``"1280×720 · 120.0 KB"`` from whatever the caller knows about a file."""
    if info is None:
        return ""
    parts: list[str] = []
    if info.width and info.height:
        parts.append(f"{info.width}×{info.height}")
    if info.size is not None:
        parts.append(_human_size(info.size))
    return " · ".join(parts)


def _lookup(ctx: Context, src: str) -> FileInfo | None:
    if not ctx.files:
        return None
    return ctx.files.get(src) or ctx.files.get(_basename(src))


def _media(
    ctx: Context, width: int, icon: str, src: str, text: Text, extra: str = ""
) -> list[Text]:
    """The shared placeholder: ``icon name — text`` (+ dimensions/size), a link to ``src``."""
    src = safe_text(src, single_line=True).strip()
    info = _lookup(ctx, src)
    name = safe_text(info.name if info and info.name else _basename(src), single_line=True)
    label = Text(style=link_style(ctx, link_target(src, name)) if src else "")
    label.append(f"{icon} ")
    label.append(name or "(unnamed)", Style(bold=True))
    if text.plain:
        label.append(" — ")
        label.append_text(text)
    content = wrap(label, width - 4, marks=ctx.marks)
    details = " · ".join(part for part in (describe_file(info), extra) if part)
    if details:
        content.extend(wrap(Text(details, style=ctx.palette.dim), width - 4, marks=ctx.marks))
    return _box(ctx, content, width)


def layout_figure(block: m.Figure, width: int, ctx: Context) -> list[Text]:
    caption = inline_text(ctx, block.caption, single_line=True)
    alt = safe_text(block.alt, single_line=True).strip()
    if not caption.plain:
        return _media(ctx, width, "🖼", block.src, Text(alt))
    extra = f"alt: {alt}" if alt and alt != caption.plain.strip() else ""
    return _media(ctx, width, "🖼", block.src, caption, extra)


def layout_image(block: m.Image, width: int, ctx: Context) -> list[Text]:
    alt = safe_text(block.alt, single_line=True).strip()
    title = safe_text(block.title, single_line=True).strip()
    return _media(ctx, width, "🖼", block.src, Text(alt or title), title if alt and title else "")


def layout_file(block: m.FileBlock, width: int, ctx: Context) -> list[Text]:
    return _media(ctx, width, "📄", block.src, inline_text(ctx, block.caption, single_line=True))


def _card_link(ctx: Context, href: str, label: str) -> Text:
    href = safe_text(href, single_line=True).strip()
    target = link_target(href, label or href)
    return Text(label or href, style=link_style(ctx, target))


def layout_embed(block: m.EmbedCard, width: int, ctx: Context) -> list[Text]:
    url = safe_text(block.url, single_line=True).strip()
    host = _split(url)[0] or "embed"
    head = Text("▶ Embed · ", style=ctx.palette.label)
    head.append(host, Style(bold=True))
    content = wrap(head, width - 4, marks=ctx.marks)
    caption = inline_text(ctx, block.caption)
    if caption.plain:
        content.extend(wrap(caption, width - 4, marks=ctx.marks))
    content.extend(wrap(_card_link(ctx, url, url), width - 4, marks=ctx.marks))
    return _box(ctx, content, width)


def layout_content_ref(block: m.ContentRef, width: int, ctx: Context) -> list[Text]:
    url = safe_text(block.url, single_line=True).strip()
    title = safe_text(block.title, single_line=True).strip()
    # GitBook writes the target's file name as the text: show the page's title instead.
    page_title = ctx.title_of(url)
    if page_title and (not title or title == url or title == _basename(url)):
        title = safe_text(page_title, single_line=True).strip()
    head = Text.assemble(Text("→ ", style=ctx.palette.label), _card_link(ctx, url, title or url))
    content = wrap(head, width - 4, marks=ctx.marks)
    if title and title != url:
        content.extend(wrap(Text(url, style=ctx.palette.dim), width - 4, marks=ctx.marks))
    return _box(ctx, content, width)


def layout_openapi(
    block: m.OpenAPICard, width: int, ctx: Context, path: Path, layout_blocks: LayoutBlocks
) -> list[Text]:
    palette = ctx.palette
    method = safe_text(block.method, single_line=True).strip().upper() or "GET"
    head = Text(f"⚙ {'Swagger' if block.kind == 'swagger' else 'OpenAPI'} ", style=palette.label)
    head.append(f" {method} ", palette.method)
    head.append(" ")
    head.append(safe_text(block.path, single_line=True), Style(bold=True))
    content = wrap(head, width - 4, marks=ctx.marks)
    body = layout_blocks(block.blocks, width - 4, ctx, path)
    if body:
        content.extend(body)
    elif block.src:
        content.extend(wrap(_card_link(ctx, block.src, ""), width - 4, marks=ctx.marks))
    return _box(ctx, content, width)
