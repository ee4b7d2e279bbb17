"""OUTLINE: the parser's block tokenizer with top-level tables outlined, for cutting chunks.

A page's chunks (:mod:`.chunks`) need only where each top-level block ends and, for a
table, how many rows it has; most are never converted (their text matches the other
side's). On a reference page most lines are table rows, and markdown-it's table rule
spends most of the tokenizing on them: three tokens per cell. The outline's table rule is
markdown-it's own (4.x), line for line, except that it pushes no tokens inside the
table (``table_open`` carries the number of rows) and does not try a row starting with
``|`` against the rules that may end a table (none takes such a line): the table ends
on the same line. Its tokens are only counted and cut: a chunk holding them is tokenized
again by the real rule before it is converted (:attr:`.chunks.Chunk.outlined`). Tables
inside containers are tokenized by the real rule (containers tokenize their content
through ``state.md``).
"""

from __future__ import annotations

from markdown_it import rules_block
from markdown_it.common.utils import isStrSpace, mdTrim
from markdown_it.parser_block import ParserBlock, RuleFuncBlockType
from markdown_it.ruler import Ruler
from markdown_it.rules_block import StateBlock
from markdown_it.rules_block.table import MAX_AUTOCOMPLETED_CELLS, escapedSplit, headerLineRe

from ..rules import MD

__all__ = ["OUTLINE", "OUTLINE_ROWS", "cell_count"]

OUTLINE_ROWS = "outline_rows"
"""``meta`` key of an outlined ``table_open``: the table's rows, the header's included."""

_TERMINATORS: tuple[RuleFuncBlockType | str, ...] = (
    "mdit_py_plugins.front_matter.index._front_matter_rule",
    "gitbook_tui.markdown.rules._gitbook_tag_rule",
    rules_block.fence,
    rules_block.blockquote,
    rules_block.hr,
    rules_block.list_block,
    rules_block.html_block,
    rules_block.heading,
)
"""The rules that may end a table (markdown-it's "blockquote" chain) as the parser has
them (markdown-it's own by identity: the fence rule with its default marks): none takes
a line starting with ``|`` (front matter starts on the first line only; a GitBook tag
line with ``{`` or ``<``; the others with their own marks), so a table row
starting with one is not tried against them. Checked when the outline is made: should the
chain change, every row is tried as markdown-it does."""


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def cell_count(text: str) -> int:
    """``len(columns)`` of markdown-it's table rule for a row's (trimmed, non-empty)
    text: its cells split at pipes not right after a backslash, an empty first and last
    cell dropped — without making the cells."""
    count = text.count("|") - text.count("\\|") + 1
    if text.startswith("|"):
        count -= 1
    if count and text.endswith("|") and not text.endswith("\\|"):
        count -= 1
    return count


def _outline_table(state: StateBlock, startLine: int, endLine: int, silent: bool) -> bool:
    """markdown-it's ``table`` rule (rules_block/table.py), cell tokens left out."""
    if startLine + 2 > endLine:
        return False
    nextLine = startLine + 1
    if state.sCount[nextLine] < state.blkIndent:
        return False
    if state.is_code_block(nextLine):
        return False
    pos = state.bMarks[nextLine] + state.tShift[nextLine]
    if pos >= state.eMarks[nextLine]:
        return False
    first_ch = state.src[pos]
    pos += 1
    if first_ch not in ("|", "-", ":"):
        return False
    if pos >= state.eMarks[nextLine]:
        return False
    second_ch = state.src[pos]
    pos += 1
    if second_ch not in ("|", "-", ":") and not isStrSpace(second_ch):
        return False
    if first_ch == "-" and isStrSpace(second_ch):
        return False
    while pos < state.eMarks[nextLine]:
        ch = state.src[pos]
        if ch not in ("|", "-", ":") and not isStrSpace(ch):
            return False
        pos += 1

    columns = _line(state, startLine + 1).split("|")
    aligns = 0
    for i in range(len(columns)):
        t = mdTrim(columns[i])
        if not t:
            if i == 0 or i == len(columns) - 1:
                continue
            return False
        if not headerLineRe.search(t):
            return False
        aligns += 1

    lineText = mdTrim(_line(state, startLine))
    if "|" not in lineText:
        return False
    if state.is_code_block(startLine):
        return False
    header = escapedSplit(lineText)
    if header and header[0] == "":
        header.pop(0)
    if header and header[-1] == "":
        header.pop()
    columnCount = len(header)
    if columnCount == 0 or columnCount != aligns:
        return False
    if silent:
        return True

    oldParentType = state.parentType
    state.parentType = "table"
    terminatorRules = state.md.block.ruler.getRules("blockquote")
    plain_rows = _PIPE_ENDS_NO_TERMINATOR and terminatorRules == _KNOWN_TERMINATORS
    src, bMarks, tShift = state.src, state.bMarks, state.tShift

    token = state.push("table_open", "table", 1)
    token.map = tableLines = [startLine, 0]
    rows = 1  # the header's
    autocompleted_cells = 0
    nextLine = startLine + 2
    while nextLine < endLine:
        if state.sCount[nextLine] < state.blkIndent:
            break
        # A row that starts with a pipe ends no table (see _TERMINATORS).
        at = bMarks[nextLine] + tShift[nextLine]
        if not (plain_rows and src[at : at + 1] == "|") and any(
            rule(state, nextLine, endLine, True) for rule in terminatorRules
        ):
            break
        lineText = mdTrim(_line(state, nextLine))
        if not lineText:
            break
        if state.is_code_block(nextLine):
            break
        autocompleted_cells += columnCount - cell_count(lineText)
        if autocompleted_cells > MAX_AUTOCOMPLETED_CELLS:
            break
        rows += 1
        nextLine += 1

    token.meta = {OUTLINE_ROWS: rows}
    state.push("table_close", "table", -1)
    tableLines[1] = nextLine
    state.parentType = oldParentType
    state.line = nextLine
    return True


def _is(rule: RuleFuncBlockType, known: RuleFuncBlockType | str) -> bool:
    """``rule`` is markdown-it's own ``known`` (a plugin's or ours: by its name)."""
    if isinstance(known, str):
        return f"{rule.__module__}.{rule.__qualname__}" == known
    return rule is known


_KNOWN_TERMINATORS = MD.block.ruler.getRules("blockquote")
_PIPE_ENDS_NO_TERMINATOR = len(_KNOWN_TERMINATORS) == len(_TERMINATORS) and all(
    _is(rule, known) for rule, known in zip(_KNOWN_TERMINATORS, _TERMINATORS, strict=True)
)


def _outline_parser() -> ParserBlock:
    parser = ParserBlock()
    ruler: Ruler[RuleFuncBlockType] = Ruler()
    for rule in MD.block.ruler.__rules__:
        fn = _outline_table if rule.name == "table" else rule.fn
        ruler.push(rule.name, fn, {"alt": list(rule.alt)})
        if not rule.enabled:
            ruler.disable(rule.name)
    parser.ruler = ruler
    return parser


OUTLINE = _outline_parser()
"""``OUTLINE.tokenize(state, start, end)``: ``MD.block.tokenize`` with top-level tables
outlined (see the module docstring)."""
