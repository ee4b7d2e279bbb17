"""The markdown-it instance used by the parser: GitBook tag, depth-guard and link-guard rules."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline import image as _image_rule
from markdown_it.rules_inline import link as _link_rule
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from .tags import TagTable

__all__ = ["MAX_NESTING", "MD", "PAUSE_ENV_KEY", "TAGS_ENV_KEY", "PauseParse"]

MAX_NESTING = 100
"""markdown-it's nesting limit (block and inline)."""
_DEPTH_LIMIT = MAX_NESTING - 10
"""Past this block depth the rest of a container is kept as plain text, never dropped."""
TAGS_ENV_KEY = "gitbook_tui.markdown.tags"
PAUSE_ENV_KEY = "gitbook_tui.markdown.pause"
"""``env`` key: the line from which the next top-level block pauses the block tokenizer."""


class PauseParse(Exception):
    """Raised by the pause rule to stop the block tokenizer between top-level blocks."""


def _pause_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """First of all rules: at a top-level block starting at or past the pause line, stop.

    The tokenizer sets ``state.line`` to this block's first line before trying the
    rules, so tokenizing again from ``state.line`` carries on exactly where it stopped
    (see :mod:`.progressive`).
    """
    if silent or state.level != 0:
        return False
    stop = state.env.get(PAUSE_ENV_KEY)
    if stop is not None and start_line >= stop:
        raise PauseParse
    return False


def _depth_guard_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Keep text past the nesting limit (markdown-it would silently skip it)."""
    if silent or state.level < _DEPTH_LIMIT:
        return False
    token = state.push("gitbook_raw", "", 0)
    token.content = state.getLines(start_line, end_line, max(state.blkIndent, 0), False)
    token.map = [start_line, end_line]
    state.line = end_line
    return True


def _gitbook_tag_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A line holding one ``{% tag %}`` / ``<details>`` marker found by the pre-pass."""
    table: TagTable | None = state.env.get(TAGS_ENV_KEY)
    if table is None:
        return False
    info = table.tags.get(start_line)
    if info is None or state.sCount[start_line] - state.blkIndent >= 4:
        return False
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if pos >= state.eMarks[start_line] or state.src[pos] not in "{<":
        return False
    if silent:
        return True
    if info.end:  # a stray end tag (paired ones are consumed with their opener)
        state.line = start_line + 1
        return True
    close = table.closes.get(start_line)
    if close is not None and close >= end_line:
        close = None  # closes outside this container: unclosed here
    kind = info.kind
    if kind == "self-closing" or (kind == "optional" and close is None):
        token = state.push("gitbook_tag", "", 0)
        token.meta = {"tag": info}
        token.map = [start_line, start_line + 1]
        state.line = start_line + 1
        return True

    content_end = close if close is not None else end_line
    token = state.push("gitbook_open", "", 1)
    token.meta = {"tag": info}
    token.map = [start_line, content_end]
    old_line_max, old_parent, old_indent = state.lineMax, state.parentType, state.blkIndent
    state.lineMax = content_end
    state.parentType = "gitbook"
    state.blkIndent = max(state.sCount[start_line], 0)
    line = start_line + 1
    while line < content_end:
        state.md.block.tokenize(state, line, content_end)
        stopped = state.line
        if stopped >= content_end:
            break
        # Stopped on a line indented less than the tag: lower the indent, carry on.
        indent = state.sCount[stopped]
        if 0 <= indent < state.blkIndent:
            state.blkIndent = indent
            line = stopped
            continue
        raw = state.push("gitbook_raw", "", 0)
        raw.content = state.getLines(stopped, content_end, 0, False)
        break
    state.push("gitbook_close", "", -1)
    state.lineMax, state.parentType, state.blkIndent = old_line_max, old_parent, old_indent
    state.line = close + 1 if close is not None else content_end
    return True


_MAX_INNER_BRACKETS = 8
"""A ``[…]`` holding more ``[`` than this never starts a link label (see :func:`_may_start_label`)."""
_BRACKETSTAGS_ENV_KEY = "gitbook_tui.markdown.brackets"
_BRACKET_TOKEN_RE = re.compile(r"\\.|[\[\]]", re.DOTALL)


def _label_starts(src: str) -> set[int]:
    """Positions of the ``[`` in ``src`` with a matching ``]`` and few ``[`` in between."""
    starts: set[int] = set()
    stack: list[tuple[int, int]] = []  # (position, how many "[" came before it)
    opened = 0
    for m in _BRACKET_TOKEN_RE.finditer(src):
        ch = m.group()
        if ch == "[":
            stack.append((m.start(), opened))
            opened += 1
        elif ch == "]" and stack:
            pos, index = stack.pop()
            if opened - index - 1 <= _MAX_INNER_BRACKETS:
                starts.add(pos)
    return starts


def _may_start_label(state: StateInline, pos: int) -> bool:
    """Can the ``[`` at ``pos`` start a link label at all?

    markdown-it explores every ``[`` by scanning ahead for its label end, tens of
    microseconds per bracket and quadratic for unbalanced runs (``[[]``…), so a
    hostile page would take minutes. One linear pass per inline run finds the
    brackets that are balanced (escapes honoured) and do not hold an absurd number
    of other brackets; the link and image rules are skipped for the others, whose
    text stays literal.
    """
    src = state.src
    # id -> (src, starts); the src is held so that its id cannot be reused meanwhile
    cache: dict[int, tuple[str, set[int]]] = state.env.setdefault(_BRACKETSTAGS_ENV_KEY, {})
    entry = cache.get(id(src))
    if entry is None or entry[0] is not src:
        entry = cache[id(src)] = (src, _label_starts(src))
    return pos in entry[1]


def _guarded_link(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != "[" or not _may_start_label(state, state.pos):
        return False
    return _link_rule(state, silent)


def _guarded_image(state: StateInline, silent: bool) -> bool:
    pos = state.pos
    if (
        state.src[pos] != "!"
        or pos + 1 >= state.posMax
        or state.src[pos + 1] != "["
        or not _may_start_label(state, pos + 1)
    ):
        return False
    return _image_rule(state, silent)


def _build_markdown_it() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING})
    md.enable(["table", "strikethrough"])
    md.use(front_matter_plugin)
    # GitBook has no ^[inline] footnotes; keep definitions in place so that
    # unreferenced ones are not thrown away (the tail is assembled here).
    md.use(footnote_plugin, inline=False, move_to_end=False)
    md.use(tasklists_plugin)
    # GitBook writes math as $$…$$ (blocks and inline); single dollars only around text
    # that cannot be prices or shell variables ("$5", "$ x", "$HOME and $PATH" stay text).
    md.use(
        dollarmath_plugin,
        allow_labels=False,
        allow_space=False,
        allow_digits=False,
        double_inline=True,
    )
    md.block.ruler.before(
        "table",
        "gitbook_tag",
        _gitbook_tag_rule,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.block.ruler.before("front_matter", "gitbook_depth_guard", _depth_guard_rule)
    md.block.ruler.before("gitbook_depth_guard", "gitbook_pause", _pause_rule)
    md.inline.ruler.at("link", _guarded_link)
    md.inline.ruler.at("image", _guarded_image)
    return md


MD = _build_markdown_it()
