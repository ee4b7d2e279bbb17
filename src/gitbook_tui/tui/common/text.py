"""The one sanitising path for server text shown in the terminal: inert, control-free
Content (:func:`inert`), or a plain string for sinks told ``markup=False`` (:func:`plain`)."""

from __future__ import annotations

from textual.content import Content

from ...markdown.sanitize import clean_text


def inert(text: str | None, *, style: str = "") -> Content:
    """Server text as a Content object: controls stripped, markup never interpreted."""
    return (
        Content.styled(clean_text(text or ""), style) if style else Content(clean_text(text or ""))
    )


def plain(text: str | None) -> str:
    """Server text as a control-free string, for a sink given ``markup=False`` (``notify``
    takes a ``str``): pass the result with ``markup=False`` so it is never parsed."""
    return clean_text(text or "")
