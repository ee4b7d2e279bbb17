"""The one sanitising path for server text: strip terminal control and bidi characters."""

from __future__ import annotations

import re

__all__ = ["clean_text"]

# Whole terminal escape sequences are removed (not just their introducer), so no
# ``[31m`` or ``]8;;https://…`` residue is left behind for the reader.
_ESCAPE_SEQUENCE_RE = re.compile(
    r"""
      (?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]          # CSI … final byte
    | (?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)         # OSC … BEL or ST
    | (?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)  # DCS/SOS/PM/APC … ST
    | \x1b[\x20-\x2f]*[\x30-\x7e]                                 # other ESC sequences
    """,
    re.VERBOSE,
)

_REMOVED_CODEPOINTS: tuple[int, ...] = (
    *(cp for cp in range(0x00, 0x20) if cp not in (0x09, 0x0A)),  # C0 except \t and \n
    0x7F,  # DEL
    *range(0x80, 0xA0),  # C1
    0x061C,  # ARABIC LETTER MARK
    0x200E,  # LEFT-TO-RIGHT MARK
    0x200F,  # RIGHT-TO-LEFT MARK
    *range(0x202A, 0x202F),  # LRE, RLE, PDF, LRO, RLO
    *range(0x2066, 0x206A),  # LRI, RLI, FSI, PDI
    # VARIATION SELECTOR-16 asks for emoji presentation: terminals then draw "⌨️" or "🗄️"
    # two cells wide while Rich measures one, which shifts every column after it. Without
    # it the character takes its one-cell text presentation and the layout holds.
    0xFE0F,
)

_TABLE: dict[int, None] = dict.fromkeys(_REMOVED_CODEPOINTS)

# One C-level scan decides whether any work is needed at all (the common case).
_NEEDS_CLEANING_RE = re.compile(
    "[" + "".join(f"\\U{cp:08x}" for cp in _REMOVED_CODEPOINTS) + "]",
)
_SEQUENCE_START_RE = re.compile("[\x1b\x90\x98\x9b\x9d\x9e\x9f]")


def clean_text(s: str) -> str:
    """Return ``s`` without C0/C1 controls (except ``\\n``/``\\t``), DEL, bidi controls and
    the emoji variation selector (U+FE0F, which breaks terminal column widths).

    Complete ANSI escape sequences (CSI such as colours, OSC such as OSC 8 hyperlinks
    and OSC 52 clipboard writes, DCS/PM/APC strings) are removed as a whole; any
    stray control character left over is then dropped. Printable text, including
    emoji (with ZWJ sequences) and CJK, is returned unchanged.
    """
    if _NEEDS_CLEANING_RE.search(s) is None:
        return s
    if _SEQUENCE_START_RE.search(s) is not None:
        s = _ESCAPE_SEQUENCE_RE.sub("", s)
    return s.translate(_TABLE)
