"""Widget-free diff of two revisions of a GitBook page: rendered blocks aligned, paired, word-diffed.

Pipeline (each step usable alone)::

    old_doc, new_doc = parse(old_md), parse(new_md)          # None for a missing side
    diff = diff_documents(old_doc, new_doc)                 # flatten + align + pair
    diff = diff_markdown(old_md, new_md)   # the same rows, lazily: unchanged blocks are
                                           # parsed when read (lazy.py, chunks.py)
    rows = fold(diff.rows, context=3)      # what the pane shows; {/}: narrower/wider
    lines = inline_lines(rows)  or  split_lines(rows)       # one column or old | new
    changes = ChangeIndex.of(lines)                         # n / N
    lines[k].spans()                                        # word highlights, lazily
    header = header_diff(old_page, new_page)                # title, emoji, description…

Nothing here sanitises text: blocks carry the parsed text as data and the renderer makes it
inert, once.
"""

import logging

from .align import (
    DEFAULT_THRESHOLD,
    BlockDiff,
    DiffRow,
    RowKind,
    diff_blocks,
    diff_documents,
    pair_run,
    similarity,
)
from .blocks import PATH_SEPARATOR, BlockKind, DisplayBlock, flatten
from .chunks import Side, cut_base, parse_pair
from .header import PAGE_ATTRIBUTES, AttributeChange, attribute_changes, header_diff
from .lazy import LazyRows, lazy_diff
from .view import (
    ADDED_MARKER,
    CHANGED_MARKER,
    CONTEXT_STEPS,
    DEFAULT_CONTEXT,
    EQUAL_MARKER,
    REMOVED_MARKER,
    ChangeIndex,
    Fold,
    InlineLine,
    SplitLine,
    ViewRow,
    fold,
    inline_lines,
    narrower,
    split_lines,
    wider,
)
from .words import WordDiff, WordSpan, WordTag, tokenize, word_diff

__all__ = [
    "ADDED_MARKER",
    "CHANGED_MARKER",
    "CONTEXT_STEPS",
    "DEFAULT_CONTEXT",
    "DEFAULT_THRESHOLD",
    "EQUAL_MARKER",
    "PAGE_ATTRIBUTES",
    "PATH_SEPARATOR",
    "REMOVED_MARKER",
    "AttributeChange",
    "BlockDiff",
    "BlockKind",
    "ChangeIndex",
    "DiffRow",
    "DisplayBlock",
    "Fold",
    "InlineLine",
    "LazyRows",
    "RowKind",
    "Side",
    "SplitLine",
    "ViewRow",
    "WordDiff",
    "WordSpan",
    "WordTag",
    "attribute_changes",
    "cut_base",
    "diff_blocks",
    "diff_documents",
    "diff_markdown",
    "diff_to_show",
    "flatten",
    "fold",
    "header_diff",
    "inline_lines",
    "lazy_diff",
    "narrower",
    "pair_run",
    "parse_pair",
    "similarity",
    "split_lines",
    "tokenize",
    "wider",
    "word_diff",
]


_log = logging.getLogger(__name__)


def diff_markdown(
    old: str | None,
    new: str | None,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    base: Side | None = None,
) -> BlockDiff:
    """Parse and diff two revisions of a page's markdown (``None`` where the page is missing).

    The diff is lazy (:func:`lazy_diff`: what the two sides share is parsed when first
    read) where it can be, else both sides are parsed (:func:`parse_pair`: what they share,
    once). ``base``: :func:`cut_base` of ``old``, if made already (while ``new`` was on its
    way). For a 1 MB page this still takes half a second: call it from a worker.
    """
    if old is not None and new is not None:
        try:
            diff = lazy_diff(old, new, threshold=threshold, base=base)
        except Exception:  # a bug: the whole parses below have their own fallback
            _log.exception("lazy diff failed; diffing the whole parses")
            diff = None
        if diff is not None:
            return diff
    old_doc, new_doc = parse_pair(old, new)
    return diff_documents(old_doc, new_doc, threshold=threshold)


def diff_to_show(old: str | None, new: str | None, *, base: Side | None = None) -> BlockDiff:
    """:func:`diff_markdown`, with the rows a diff pane's first screen folds made (the
    rows around each change: parsed now, in the worker this runs in, not on the UI thread
    when first folded). What the review pane and the history view both show."""
    diff = diff_markdown(old, new, base=base)
    fold(diff.rows, DEFAULT_CONTEXT)
    return diff
