"""Site paths the app sends and the local server accepts: no dot segments, even encoded."""

from __future__ import annotations

import re
from urllib.parse import unquote

DOT_SEGMENTS = (".", "..")
# A server or proxy may decode a path more than once, so decoding repeats; a segment still
# encoded after this many rounds is refused rather than decoded further.
_MAX_DECODES = 4


def _decoded(segment: str) -> str | None:
    """``segment`` percent-decoded until it stops changing; ``None`` when it never does."""
    for _ in range(_MAX_DECODES):
        once = unquote(segment)
        if once == segment:
            return segment
        segment = once
    return None


def dot_segment(path: str) -> str | None:
    """The first segment of ``path`` that is ``.`` or ``..`` once percent-decoded (``%2e``,
    ``%252e`` too; an encoded slash or backslash in a segment splits it), else ``None``."""
    for segment in path.split("/"):
        decoded = _decoded(segment)
        if decoded is None or any(p in DOT_SEGMENTS for p in re.split(r"[/\\]", decoded)):
            return segment
    return None
