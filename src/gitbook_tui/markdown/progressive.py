"""ProgressiveParse: a page parsed in growing prefixes, the last one equal to :func:`parse`.

A 1 MB page takes about a second to parse, but its first screen needs only its first few
kilobytes. markdown-it's own block tokenizer decides where the top-level blocks end: it is
paused (by a rule that raises at the start of a top-level block past a stop line) and
resumed later from exactly that line, so no boundary is guessed by a hand-made scan. Each
step runs the inline rules and the block-model conversion on the tokens of that step only,
with one converter and one markdown-it ``env`` for the whole page (anchors, links and
footnotes come out as in a whole parse).

The first step reads only a window of the page (a few times the step's size), so that
neither the pairing of tags nor markdown-it's line tables have to be built for the whole
page before the first screen: when the tokenizer pauses inside that window, the blocks
before the pause did not run to its end. The next step parses the page for real from its
start up to the same line and checks that it got the same blocks (it keeps the first
step's objects then; otherwise its own document replaces them — a prefix the viewer
compares before extending).

Link reference definitions (``[x]: url``) and footnote definitions may be used *before*
they are defined; a step cannot know a later one. So the first step always runs past the
last line that looks like a definition, and should one be met in a later step anyway
(a form the look-out missed), the whole page is parsed again in one go — the final
document is always exactly what :func:`parse` returns.
"""

from __future__ import annotations

import gc
import logging
import re
from bisect import bisect_left
from typing import Any

from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from .blocks import Converter, convert, finish
from .model import Block, Document
from .parser import parse
from .rules import MD, PAUSE_ENV_KEY, TAGS_ENV_KEY, PauseParse
from .tag_blocks import PART_TYPES, Item
from .tags import preprocess

__all__ = ["DEFINITION_RE", "FIRST_STEP_CHARS", "ProgressiveParse", "block_state", "inline_tokens"]

_log = logging.getLogger(__name__)

FIRST_STEP_CHARS = 12_000
"""The first step parses about this much text (whole top-level blocks): a screenful or
more, in a few tens of milliseconds."""
_NEXT_STEP_CHARS = 64_000
_MAX_STEP_CHARS = 256_000
_GC_PAUSE_THRESHOLD = 64 * 1024
_WINDOW_FACTOR = 4
"""The first step reads a window this many times its size (see the module docstring)."""

# A line that may define a link reference or a footnote, after any quote/list prefix.
DEFINITION_RE = re.compile(
    r"^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*\[(?:[^\]\\\n]|\\.)+\]:", re.MULTILINE
)


def block_state(markdown: str) -> tuple[StateBlock | None, dict[str, Any]]:
    """markdown-it's block state for ``markdown`` (tags pre-processed, newlines normalised)
    and its ``env``, ready for ``MD.block.tokenize``; no state for an empty page."""
    src, table = preprocess(markdown)
    env: dict[str, Any] = {TAGS_ENV_KEY: table}
    core = StateCore(src, MD, env)
    for rule in MD.core.ruler.getRules(""):
        if rule.__name__ == "block":
            break
        if rule.__name__ != "normalize":  # preprocess did (a 1 MB regex: ~25 ms, GIL held)
            rule(core)
    if not core.src:
        return None, env
    return StateBlock(core.src, MD, env, []), env


def inline_tokens(env: dict[str, Any], tokens: list[Token]) -> None:
    """Run the core rules after the block one (inline parsing…) over block ``tokens``."""
    core = StateCore("", MD, env, tokens)
    after_block = False
    for rule in MD.core.ruler.getRules(""):
        if after_block:
            rule(core)
        elif rule.__name__ == "block":
            after_block = True


def _definitions(env: dict[str, Any]) -> tuple[int, int]:
    footnotes = env.get("footnotes", {})
    return len(env.get("references", {})), len(footnotes.get("refs", {}))


class ProgressiveParse:
    """Parses ``markdown`` (already cleaned) step by step; see the module docstring.

    Call :meth:`step` until :attr:`done`; each call returns the document so far (whole
    top-level blocks only; its blocks are a prefix of the next call's, the same objects).
    Never raises: a parser failure ends with what :func:`parse` makes of the page.
    """

    def __init__(
        self, markdown: str, *, first_step: int = FIRST_STEP_CHARS, window: bool = True
    ) -> None:
        self.markdown = markdown
        self._may_window = window
        self.done = False
        self._step_chars = max(1, first_step)
        self._started = False
        self._converter = Converter()
        self._env: dict[str, Any] = {}
        self._block: StateBlock | None = None
        self._blocks: list[Block] = []
        self._pending: list[Item] = []  # trailing parts (tabs, steps…) a later step may extend
        self._definitions = (0, 0)
        self._min_stop = 0
        self._document = Document(())
        self._window: ProgressiveParse | None = None

    @property
    def document(self) -> Document:
        """The document as far as it has been parsed."""
        return self._document

    @property
    def parsed_share(self) -> float:
        """How much of the page's text the document covers so far (0 to 1)."""
        if self.done:
            return 1.0
        state = self._window._block if self._window is not None else self._block
        if state is None or not self.markdown:
            return 0.0
        return min(1.0, state.bMarks[state.line] / len(self.markdown))

    def step(self) -> Document:
        """Parse the next part of the page; the document so far (complete once done)."""
        if self.done:
            return self._document
        pause_gc = len(self.markdown) >= _GC_PAUSE_THRESHOLD and gc.isenabled()
        if pause_gc:
            gc.disable()
        try:
            self._step()
        except Exception:  # a parser bug: parse() has its own fallback and logging
            _log.exception("progressive parse failed; parsing the page whole")
            self._finish_whole()
        finally:
            if pause_gc:
                gc.enable()
        return self._document

    def run(self) -> Document:
        """Parse whatever is left; the complete document."""
        while not self.done:
            self.step()
        return self._document

    # -- steps ---------------------------------------------------------------------

    def _start(self) -> StateBlock | None:
        state, self._env = block_state(self.markdown)
        if state is None:
            return None
        starts = [found.start() for found in DEFINITION_RE.finditer(state.src)]
        if starts:
            self._min_stop = state.src.count("\n", 0, starts[-1]) + 1
        return state

    def _step(self) -> None:
        if not self._started and self._windowed_first_step():
            return
        if not self._started:
            self._started = True
            self._block = self._start()
            window, self._window = self._window, None
            if window is not None:
                self._check_window(window)
                if self.done:
                    return
        state = self._block
        if state is None:
            self._finish_parts([], final=True)
            return
        before = len(state.tokens)
        target = state.bMarks[state.line] + self._step_chars if state.line < state.lineMax else 0
        stop = max(self._min_stop, bisect_left(state.bMarks, target, lo=state.line))
        self._env[PAUSE_ENV_KEY] = stop
        final = True
        try:
            MD.block.tokenize(state, state.line, state.lineMax)
        except PauseParse:
            final = False
        finally:
            self._env.pop(PAUSE_ENV_KEY, None)
        self._step_chars = min(_MAX_STEP_CHARS, max(_NEXT_STEP_CHARS, self._step_chars * 2))
        definitions = _definitions(self._env)
        if self._blocks and definitions != self._definitions:
            # A definition the look-out missed: earlier steps may have used it unseen.
            self._finish_whole()
            return
        self._definitions = definitions
        tokens = state.tokens[before:]
        self._inline(tokens)
        self._finish_parts(convert(self._converter, tokens, state.src), final=final)

    def _windowed_first_step(self) -> bool:
        """Parse the first step from a window of the page; True if that worked."""
        if not self._may_window:
            return False
        self._may_window = False
        size = self._step_chars * _WINDOW_FACTOR
        text = self.markdown
        if len(text) < 2 * size:
            return False
        cut = text.find("\n", size)
        if cut < 0 or DEFINITION_RE.search(text, cut):
            return False  # a definition after the window may be used inside it
        window = ProgressiveParse(text[:cut], first_step=self._step_chars, window=False)
        document = window.step()
        if window.done:
            return False  # the blocks ran to the end of the window: not safe
        self._window, self._document = window, document
        self._step_chars = window._step_chars
        return True

    def _check_window(self, window: ProgressiveParse) -> None:
        """Parse up to where ``window`` paused; keep its blocks when they are the same."""
        assert window._block is not None and self._block is not None
        chars, min_stop = self._step_chars, self._min_stop
        self._step_chars = 1
        self._min_stop = max(min_stop, window._block.line)
        self._step()
        self._step_chars, self._min_stop = chars, min_stop
        same = (
            not self.done
            and self._block.line == window._block.line
            and self._blocks == window._blocks
            and self._pending == window._pending
            and self._document.headings == window._document.headings
            and self._document.links == window._document.links
        )
        if same:
            self._blocks, self._pending = window._blocks, window._pending
            self._document = window._document

    def _inline(self, tokens: list[Token]) -> None:
        inline_tokens(self._env, tokens)

    def _finish_parts(self, items: list[Item], *, final: bool) -> None:
        items = self._pending + items
        cut = len(items)
        if not final:
            # Orphan parts are grouped with their neighbours: hold a trailing run back.
            while cut > 0 and isinstance(items[cut - 1], PART_TYPES):
                cut -= 1
        self._blocks.extend(finish(items[:cut]))
        self._pending = items[cut:]
        conv = self._converter
        blocks = tuple(self._blocks)
        if final:
            self.done = True
            footnotes = conv.footnotes(self._env)
            if footnotes is not None:
                blocks = (*blocks, footnotes)
        self._document = Document(
            blocks, tuple(conv.headings), tuple(conv.links), conv.front_matter
        )

    def _finish_whole(self) -> None:
        self._document = parse(self.markdown)
        self._blocks, self._pending, self._block = list(self._document.blocks), [], None
        self.done = True
