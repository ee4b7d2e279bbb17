"""The one sanitising path for server text shown in the terminal: inert, control-free
Content (:func:`inert`), a plain string for sinks told ``markup=False`` (:func:`plain`) or
for an editable field prefilled from the server (:func:`form_value`); and the one rule for how many cells text takes (:func:`cell_width`, :func:`fit`) and how
an emoji is drawn in a label (:func:`emoji_slot`)."""

from __future__ import annotations

import unicodedata

from rich.cells import cell_len, set_cell_size
from textual.content import Content

from ...markdown.sanitize import clean_text

__all__ = [
    "EMOJI_FALLBACK",
    "cell_width",
    "count_of",
    "emoji_slot",
    "fit",
    "form_value",
    "inert",
    "plain",
]

EMOJI_FALLBACK = "✦"
"""Drawn in place of an emoji no terminal can be trusted to draw at a known width."""


def inert(text: str | None, *, style: str = "") -> Content:
    """Server text as a Content object: controls stripped, markup never interpreted."""
    return (
        Content.styled(clean_text(text or ""), style) if style else Content(clean_text(text or ""))
    )


def plain(text: str | None) -> str:
    """Server text as a control-free string, for a sink given ``markup=False`` (``notify``
    takes a ``str``): pass the result with ``markup=False`` so it is never parsed."""
    return clean_text(text or "")


def form_value(text: str | None, *, one_line: bool = False) -> str:
    """Server text prefilled into an ``Input``, ``TextArea`` or composer: control-free.

    An editable field writes its value to the terminal as it is (an ``Input``/``TextArea``
    never parses markup, but ANSI/OSC escapes and bidi controls would reach the screen), so
    every server string put into one goes through here first. Only the *prefill* is
    cleaned: a restored draft is the user's own text and is left alone. ``one_line`` (for
    an ``Input``) also turns line breaks and tabs into spaces.
    """
    value = clean_text(text or "")
    if one_line:
        value = value.replace("\n", " ").replace("\t", " ")  # \r is already gone
    return value


def count_of(count: int, noun: str, plural: str = "") -> str:
    """``1 thread``, ``2 threads`` (``plural`` for an irregular noun)."""
    return f"{count} {noun if count == 1 else (plural or noun + 's')}"


cell_width = cell_len
"""How many terminal cells a string takes: Rich's count, which is what Textual draws with.
Every widget that lines text up measures with this (never ``len``); the same function
object as Rich's, so hot layout loops pay nothing for it."""


def fit(text: str, width: int, *, ellipsis: bool = False) -> str:
    """``text`` cut or padded with spaces to exactly ``width`` cells (see :func:`cell_width`);
    with ``ellipsis`` a cut ends with ``…`` so the reader knows there is more."""
    width = max(0, width)
    if ellipsis and width and cell_len(text) > width:
        return set_cell_size(set_cell_size(text, width - 1).rstrip() + "…", width)
    return set_cell_size(text, width)


def _steady(char: str) -> bool:
    """Whether every terminal draws ``char`` alone at the width Rich counts for it."""
    category = unicodedata.category(char)
    if category in ("Cn", "Co", "Cs", "Cc", "Cf", "Mn", "Me", "Zl", "Zp"):
        # Cn: newer than this Python's Unicode (e.g. 🪭, Unicode 15, under Python 3.11):
        # terminals of the same age draw it one cell wide, or as a box.
        return False
    if 0x1F1E6 <= ord(char) <= 0x1F1FF:  # a regional indicator: half of a flag
        return False
    if unicodedata.east_asian_width(char) == "A":
        return False  # one cell or two, depending on the terminal's locale
    return cell_len(char) in (1, 2)


def emoji_slot(emoji: str | None) -> str:
    """A page's or space's emoji as a label prefix exactly two cells wide, drawn at that
    width by every terminal (so rows of a tree line up whatever the emoji), or ``""``.

    Terminals disagree on emoji *sequences* — an emoji with its presentation selector
    (``☀️``: one cell in many terminals, two in Rich's count), skin tones, ZWJ families,
    flags — and on emoji newer than they are. The slot keeps the sequence's first
    character: a wide emoji (``📘``, ``👩`` of ``👩‍💻``) fills it; a character drawn one
    cell wide by default (``☀`` of ``☀️``, ``⚙``) gets a space after it; one whose width
    cannot be trusted becomes :data:`EMOJI_FALLBACK` and a space.
    """
    text = clean_text(emoji or "").strip()
    if not text:
        return ""
    first = text[0]
    if not _steady(first):
        first = EMOJI_FALLBACK
    return first + " " * (2 - cell_len(first))
