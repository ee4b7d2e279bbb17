"""Pieces of the structure pane without its state: field checks, row labels, the detail."""

from __future__ import annotations

import re

from rich.color import Color as RichColor
from textual.color import Color
from textual.content import Content
from textual.widgets import OptionList

from ...models import SiteSection, SiteSectionGroup, SiteSpace
from ..common.contrast import TEXT_CONTRAST, contrast
from ..common.form_screen import FormField, Values
from ..common.text import inert

__all__ = [
    "condition_check",
    "detail_of",
    "edit_fields",
    "group_detail",
    "group_fields",
    "group_label",
    "group_title_check",
    "icon_check",
    "mark_style",
    "path_check",
    "section_label",
    "space_label",
    "space_title",
    "title_check",
]

PATH_RE = re.compile(r"^[A-Za-z0-9._~-]+(?:/[A-Za-z0-9._~-]+)*$")


def title_check(values: Values) -> str | None:
    title = str(values.get("title", "")).strip()
    if not 2 <= len(title) <= 128:
        return "Title: 2 to 128 characters."
    return None


def group_title_check(values: Values) -> str | None:
    title = str(values.get("title", "")).strip()
    if not 1 <= len(title) <= 100:
        return "Title: 1 to 100 characters."
    return None


def path_check(values: Values) -> str | None:
    path = str(values.get("path", ""))
    if not path:
        return "Path is required."
    if len(path) > 100:
        return "Path: at most 100 characters."
    if not PATH_RE.match(path):
        return "Path: letters, digits, '-', '_', '.', '~' ('/' between segments)."
    return None


def condition_check(values: Values) -> str | None:
    return (
        "Condition: at most 1024 characters." if len(values.get("condition", "")) > 1024 else None
    )


def icon_check(values: Values) -> str | None:
    return "Icon: at most 50 characters." if len(values.get("icon", "")) > 50 else None


def group_label(group: SiteSectionGroup, grabbed: bool, indent: str, held: int) -> Content:
    parts: list[Content | str] = [
        indent,
        "⇕ " if grabbed else "▤ ",
        inert(group.title or group.id, style="bold $accent"),
        Content.styled(
            f"  group · {held} item{'s' if held != 1 else ''}" if held else "  group · empty",
            "$text-muted",
        ),
    ]
    if group.draft:
        parts.append(Content.styled("  draft", "$warning"))
    return Content.assemble(*parts)


DEFAULT_MARK = "bold $text-warning"
"""The style of the default mark ★ (the pane passes one measured against its theme)."""


def section_label(
    section: SiteSection, grabbed: bool, indent: str = "", mark: str = DEFAULT_MARK
) -> Content:
    parts: list[Content | str] = [
        indent,
        "⇕ " if grabbed else "▾ ",
        inert(section.title or section.id, style="bold"),
    ]
    if section.default:
        parts.append(Content.styled(" ★", mark))
    parts += [Content.styled("  /", "$text-muted"), inert(section.path or "", style="$text-muted")]
    if section.condition:
        parts.append(Content.styled("  ⚑ condition", "$accent"))
    return Content.assemble(*parts)


def space_label(
    ss: SiteSpace, grabbed: bool, indent: str = "   ", mark: str = DEFAULT_MARK
) -> Content:
    parts: list[Content | str] = [indent, "⇕ " if grabbed else "", inert(ss.title or ss.id)]
    if ss.default:
        parts.append(Content.styled(" ★", mark))
    parts += [Content.styled(" · ", "$text-muted"), inert(ss.path or "", style="$text-muted")]
    if ss.condition:
        parts.append(Content.styled("  ⚑", "$accent"))
    return Content.assemble(*parts)


def _lines(lines: list[tuple[str, str]]) -> Content:
    return Content("\n").join(
        Content.assemble(Content.styled(f"{k:<10}", "$text-muted"), inert(v)) for k, v in lines
    )


def group_detail(group: SiteSectionGroup, held: list[str], parent: str | None) -> Content:
    """The detail panel of a section group: what it holds (titles) and where it sits."""
    return _lines(
        [
            ("group", group.title or group.id),
            ("icon", group.icon or "—"),
            ("state", "draft" if group.draft else "live"),
            ("in", parent or "the site's root"),
            ("holds", ", ".join(held) or "nothing yet"),
        ]
    )


def group_fields(group: SiteSectionGroup | None) -> tuple[list[FormField], dict[str, str]]:
    """The form of a new or edited section group (title, icon) and its starting values."""
    before = {
        "title": (group.title or "") if group else "",
        "icon": (group.icon or "") if group else "",
    }
    fields = [
        FormField("title", "Title", before["title"], validate=group_title_check, max_length=100),
        FormField(
            "icon",
            "Icon (an icon name like book; empty: none)",
            before["icon"],
            validate=icon_check,
            max_length=50,
        ),
    ]
    return fields, before


def detail_of(item: SiteSection | SiteSpace, spaces: int = 0, group: str | None = None) -> Content:
    """The detail panel of a section (with its number of ``spaces`` and the title of the
    ``group`` holding it) or a site space."""
    lines: list[tuple[str, str]] = [
        ("title", item.title or ""),
        ("path", f"/{item.path or ''}"),
        ("default", "yes ★" if item.default else "no"),
        ("condition", item.condition or "—"),
    ]
    if isinstance(item, SiteSpace):
        lines.insert(1, ("space", space_title(item)))
    else:
        lines.append(("spaces", str(spaces)))
        if group is not None:
            lines.append(("group", group))
    url = item.urls.published if item.urls else None
    lines.append(("url", url or "— (site unpublished)"))
    return _lines(lines)


def edit_fields(item: SiteSection | SiteSpace) -> tuple[list[FormField], dict[str, str]]:
    """The edit form of a section (title, path, condition, icon) or a site space (path,
    condition), and the values it starts from."""
    before = {"title": item.title or "", "path": item.path or "", "condition": item.condition or ""}
    fields = [
        FormField("path", "Path", before["path"], validate=path_check, max_length=100),
        FormField(
            "condition",
            "Condition (adaptive content expression; empty: always shown)",
            before["condition"],
            validate=condition_check,
        ),
    ]
    if isinstance(item, SiteSection):
        before["icon"] = item.icon or ""
        fields.insert(0, FormField("title", "Title", before["title"], validate=title_check))
        fields.append(
            FormField(
                "icon",
                "Icon (an icon name like book; empty: none)",
                before["icon"],
                validate=icon_check,
                max_length=50,
            )
        )
    return fields, before


def space_title(ss: SiteSpace) -> str:
    space = ss.space
    return ss.title or (getattr(space, "title", None) or "") or ss.id


def mark_style(listing: OptionList) -> str:
    """The default mark's style: the theme's warning text colour, moved towards the list's
    foreground until it reads at 4.5:1 on a row and on the highlighted row."""
    warning = listing.app.theme_variables.get("text-warning") or ""
    base = listing.rich_style
    lit = listing.get_component_rich_style("option-list--option-highlighted")
    try:
        color = Color.parse(warning)
        fg, bg = _color(base.color), _color(base.bgcolor)
        lit_bg = _color(lit.bgcolor) if lit.bgcolor is not None else bg
    except (ValueError, TypeError):
        return DEFAULT_MARK  # an ANSI theme: the terminal's own colours
    color = bg.blend(color, color.a) if color.a < 1 else color
    for step in range(11):
        candidate = color.blend(fg, step / 10)
        if min(contrast(candidate, bg), contrast(candidate, lit_bg)) >= TEXT_CONTRAST:
            return f"bold {candidate.hex}"
    return "bold"  # the row's own colour


def _color(value: RichColor | None) -> Color:
    if value is None or value.triplet is None:
        raise ValueError("no colour")
    return Color(*value.triplet)
