"""Parse GitBook-flavoured markdown into the block model (markdown-it-py plus a tag plugin).

The work is shared out: :mod:`.rules` sets up markdown-it, :mod:`.blocks` converts block
tokens, :mod:`.tag_blocks` the GitBook tags, :mod:`.inline` inline spans and
:mod:`.html_blocks` raw HTML.
"""

from __future__ import annotations

import gc
import logging
from typing import Any

from .blocks import Converter, convert, finish
from .html_blocks import strip_html
from .model import Document, Paragraph, Span
from .rules import MAX_NESTING, MD, TAGS_ENV_KEY
from .tags import preprocess

__all__ = ["MAX_NESTING", "parse", "strip_html"]

_log = logging.getLogger(__name__)


def _parse(markdown: str) -> Document:
    src, table = preprocess(markdown)
    env: dict[str, Any] = {TAGS_ENV_KEY: table}
    tokens = MD.parse(src, env)
    conv = Converter()
    blocks = finish(convert(conv, tokens, src))
    footnotes = conv.footnotes(env)
    if footnotes is not None:
        blocks = (*blocks, footnotes)
    return Document(blocks, tuple(conv.headings), tuple(conv.links), conv.front_matter)


_GC_PAUSE_THRESHOLD = 64 * 1024
"""Inputs at least this long are parsed with the cyclic GC paused (see :func:`parse`)."""


def parse(markdown: str) -> Document:
    """Parse GitBook-flavoured markdown into a :class:`Document`. Never raises.

    Large inputs allocate hundreds of thousands of short-lived, acyclic token
    objects, which makes CPython's cyclic collector run over and over for no
    gain (it doubles the parse time of a 1 MB page), so it is paused meanwhile
    and restored afterwards; reference counting still frees everything.

    Should converting a block fail on some input (a bug), that block alone comes
    back as plain text (:func:`.blocks.convert`); should anything else fail, the
    whole text comes back as one plain paragraph, so the page stays readable.
    """
    pause_gc = len(markdown) >= _GC_PAUSE_THRESHOLD and gc.isenabled()
    if pause_gc:
        gc.disable()
    try:
        return _parse(markdown)
    except Exception:  # pragma: no cover - defensive; the tests exercise _parse directly
        _log.exception("markdown parse failed; showing the page as plain text")
        return Document((Paragraph((Span(markdown),)),) if markdown else ())
    finally:
        if pause_gc:
            gc.enable()
