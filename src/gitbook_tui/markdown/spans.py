"""Inline text of the block model: styled runs (:class:`Span`) and the styles they carry."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

__all__ = ["STYLES", "Cell", "Span", "Spans", "plain_text"]

STYLES: frozenset[str] = frozenset(
    {
        "bold",
        "italic",
        "code",
        "strike",
        "link",
        "footnote_ref",
        "kbd",
        "mark",
        "button",
        "icon",
        "mention",
        "math",
    }
)
"""Every style a :class:`Span` may carry. ``kbd``/``mark``/``button`` come from those HTML
tags, ``icon`` is a Font Awesome icon (its text is the icon's name), ``mention`` a page
mention (a link whose text the viewer replaces by the target page's title) and ``math``
inline ``$$…$$`` math."""


_NO_STYLE: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Span:
    """A run of inline text with one combination of styles (and a link target if ``link``)."""

    text: str
    style: frozenset[str] = _NO_STYLE
    href: str | None = None


Spans: TypeAlias = tuple[Span, ...]
Cell: TypeAlias = Spans


def plain_text(spans: Iterable[Span]) -> str:
    """The spans' text, without styling."""
    return "".join(span.text for span in spans)
