"""Widget-free diff of two revisions of a GitBook page: rendered blocks aligned, paired, word-diffed.

Pipeline (each step usable alone)::

    old_doc, new_doc = parse(old_md), parse(new_md)          # None for a missing side
    diff = diff_documents(old_doc, new_doc)                 # flatten + align + pair
    diff = diff_markdown(old_md, new_md)   # the same rows, lazily: unchanged blocks are
                                           # parsed when read (lazy.py, chunks.py)
    staged = stage_diff(old_md, new_md)    # a large page's first changes at once, then
                                           # staged.rest() the whole (staged.py)
    rows = fold(diff.rows, context=3)      # what the pane shows; {/}: narrower/wider
    lines = inline_lines(rows)  or  split_lines(rows)       # one column or old | new
    changes = ChangeIndex.of(lines)                         # n / N
    same_line(line, rows, other_lines, other_rows)          # the line showing the same
                                                            # block in another view (place.py)
    lines[k].spans()                                        # word highlights, lazily
    header = header_diff(old_page, new_page)                # title, emoji, description…

Nothing here sanitises text: blocks carry the parsed text as data and the renderer makes it
inert, once.
"""

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
from .place import same_change, same_line, shown_blocks
from .staged import (
    STAGED_FROM_CHARS,
    StagedDiff,
    continues,
    diff_markdown,
    diff_to_show,
    first_part,
    stage_diff,
)
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
    "STAGED_FROM_CHARS",
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
    "StagedDiff",
    "ViewRow",
    "WordDiff",
    "WordSpan",
    "WordTag",
    "attribute_changes",
    "continues",
    "cut_base",
    "diff_blocks",
    "diff_documents",
    "diff_markdown",
    "diff_to_show",
    "first_part",
    "flatten",
    "fold",
    "header_diff",
    "inline_lines",
    "lazy_diff",
    "narrower",
    "pair_run",
    "parse_pair",
    "same_change",
    "same_line",
    "shown_blocks",
    "similarity",
    "split_lines",
    "stage_diff",
    "tokenize",
    "wider",
    "word_diff",
]
