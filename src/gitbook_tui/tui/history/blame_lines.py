"""LineBlame: which step of a walk back through a page's texts last changed each of its blocks
(pure text work, no client, no widgets).

The page's newest text is cut into *source blocks* (:func:`source_blocks`: runs of
non-blank lines, a fenced code block whole, a heading alone). Each step gives the text one
revision older; its lines are aligned with the newer text's by ``rapidfuzz`` Indel (the
longest common subsequence over lines, the first stage of the review diff's block
alignment) and a block still open is settled at the step where one of its lines is not in
the older text, or where lines inside it were removed. Going back in time, the first such
step is the newest change, so a block is final once settled: a screen can show it at once.
Whole-page parses per revision (the review diff's display blocks) would cost a second per
revision of a 1 MB page; a line alignment costs milliseconds.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from rapidfuzz.distance import Indel

__all__ = ["LineBlame", "source_blocks"]

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r" {0,3}#{1,6}(?:\s|$)")


def source_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """The blocks of a page's lines as ``[start, end)`` line ranges: runs of non-blank
    lines, split before and after a heading, a fenced code block whole (blank lines in it
    included, to its closing fence or the end of the page)."""
    blocks: list[tuple[int, int]] = []
    i, count = 0, len(lines)
    while i < count:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        start = i
        fence = _FENCE.match(line)
        if fence:
            mark = fence.group(1)
            i += 1
            while i < count and not lines[i].lstrip().startswith(mark[0] * len(mark)):
                i += 1
            i = min(count, i + 1)
        elif _HEADING.match(line):
            i += 1
        else:
            i += 1
            while (
                i < count
                and lines[i].strip()
                and not _FENCE.match(lines[i])
                and not _HEADING.match(lines[i])
            ):
                i += 1
        blocks.append((start, i))
    return blocks


class LineBlame:
    """The blocks of ``text`` and, for each, the step that last changed it (``None`` while
    the walk has not found it). Step ``k`` compares text ``k`` (0: ``text``) with the text
    one revision older; :meth:`finish` settles what is left at the oldest step reached."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.blocks = source_blocks(self.lines)
        self.origin: list[int | None] = [None] * len(self.blocks)
        self.open = len(self.blocks)
        """Blocks not settled yet."""
        self.steps = 0
        self._current = self.lines
        # the lines of the open blocks: where each is in the current text (ascending) and
        # its block (blank lines never count: a block is its text); both lists stay sorted,
        # so a block's lines are one run of them
        self._pos: list[int] = []
        self._block: list[int] = []
        for b, (start, end) in enumerate(self.blocks):
            for line in range(start, end):
                if self.lines[line].strip():
                    self._pos.append(line)
                    self._block.append(b)
        self._block_starts = [start for start, _end in self.blocks]

    def block_at(self, line: int) -> int | None:
        """The block holding ``line`` of the newest text (None: a blank line between)."""
        b = bisect_left(self._block_starts, line + 1) - 1
        if b >= 0 and line < self.blocks[b][1]:
            return b
        return None

    def step(self, older: str) -> list[int]:
        """Compare the current text with ``older`` (one revision back): the blocks settled
        at this step (``self.steps`` before it counts up).

        The work is per run of the alignment, not per line (slices and bisections over the
        tracked lines): a step over a 1 MB page costs what splitting and aligning it do."""
        k = self.steps
        self.steps += 1
        older_lines = older.split("\n")
        pos, block = self._pos, self._block
        if not pos:
            self._current = older_lines
            return []
        settled: set[int] = set()
        new_pos: list[int] = []
        new_block: list[int] = []
        t = 0  # the next tracked line
        for op in Indel.opcodes(self._current, older_lines):
            s1, s2, d1 = op.src_start, op.src_end, op.dest_start
            if op.tag == "equal":
                end = bisect_left(pos, s2, t)
                shift = d1 - s1
                new_pos += pos[t:end] if not shift else [p + shift for p in pos[t:end]]
                new_block += block[t:end]
                t = end
                continue
            if s2 > s1:  # lines of the newer text the older does not have: brought here
                end = bisect_left(pos, s2, t)
                settled.update(block[t:end])
                t = end
            elif t and t < len(pos) and block[t - 1] == block[t] and pos[t - 1] < s1 <= pos[t]:
                settled.add(block[t])  # lines the newer text removed from inside an open block
        self._current = older_lines
        for b in sorted(settled, reverse=True):
            if self.origin[b] is None:
                self.origin[b] = k
                self.open -= 1
            first = bisect_left(new_block, b)
            last = bisect_right(new_block, b, first)
            del new_pos[first:last], new_block[first:last]
        self._pos, self._block = new_pos, new_block
        return sorted(settled)

    def finish(self) -> list[int]:
        """The walk ends (the page was created at the last step's newer text, or its history
        cannot be read further back): the blocks still open are settled there."""
        last = max(0, self.steps)
        left = [b for b, origin in enumerate(self.origin) if origin is None]
        for b in left:
            self.origin[b] = last
        self.open = 0
        self._pos, self._block = [], []
        return left
