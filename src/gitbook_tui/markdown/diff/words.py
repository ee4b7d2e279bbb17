"""Word-level diff of two texts (rapidfuzz Indel over word/space/punctuation tokens), memoized."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from rapidfuzz.distance import Indel

__all__ = ["WordDiff", "WordSpan", "WordTag", "tokenize", "word_diff"]

_TOKEN_RE = re.compile(r"\w+|\s+|[^\w\s]")


class WordTag(StrEnum):
    EQUAL = "equal"
    DELETE = "delete"
    """Only on the old side: text the new side no longer has."""
    INSERT = "insert"
    """Only on the new side: text the old side did not have."""


@dataclass(frozen=True, slots=True)
class WordSpan:
    """A run of text and whether it is shared by both sides, deleted or inserted."""

    tag: WordTag
    text: str


@dataclass(frozen=True, slots=True)
class WordDiff:
    """The two sides of a changed pair as tagged spans (adjacent spans never share a tag)."""

    old: tuple[WordSpan, ...]
    """Spans of the old text: EQUAL and DELETE; their texts join to the old text."""
    new: tuple[WordSpan, ...]
    """Spans of the new text: EQUAL and INSERT; their texts join to the new text."""
    merged: tuple[WordSpan, ...]
    """One reading for an inline view: equal text once, each deletion before its insertion."""

    @property
    def changed(self) -> bool:
        """Whether the texts differ at all (a pair may differ only in formatting)."""
        return any(span.tag is not WordTag.EQUAL for span in self.merged)


def tokenize(text: str) -> list[str]:
    """Words, runs of whitespace and single punctuation characters; they join back to ``text``."""
    return _TOKEN_RE.findall(text)


def _append(spans: list[WordSpan], tag: WordTag, text: str) -> None:
    if not text:
        return
    if spans and spans[-1].tag is tag:
        spans[-1] = WordSpan(tag, spans[-1].text + text)
    else:
        spans.append(WordSpan(tag, text))


def _segments(old_tokens: list[str], new_tokens: list[str]) -> list[tuple[str, str, str]]:
    """``(equal, deleted, inserted)`` texts, alternating between shared and changed stretches.

    Indel yields separate delete/insert opcodes; each run between two shared stretches
    becomes one changed segment. A shared stretch that is only whitespace between two
    changes is folded into them, so "the quick fox" → "a slow fox" reads as one change
    "the quick" → "a slow", not two changes with a shared space.
    """
    ids: dict[str, int] = {}
    old_ids = [ids.setdefault(token, len(ids)) for token in old_tokens]
    new_ids = [ids.setdefault(token, len(ids)) for token in new_tokens]
    segments: list[tuple[str, str, str]] = []
    for op in Indel.opcodes(old_ids, new_ids):
        i1, i2, j1, j2 = op.src_start, op.src_end, op.dest_start, op.dest_end
        if op.tag == "equal":
            segments.append(("".join(old_tokens[i1:i2]), "", ""))
            continue
        deleted = "".join(old_tokens[i1:i2])
        inserted = "".join(new_tokens[j1:j2])
        if segments and not segments[-1][0]:
            _, before_deleted, before_inserted = segments[-1]
            segments[-1] = ("", before_deleted + deleted, before_inserted + inserted)
        else:
            segments.append(("", deleted, inserted))
    cleaned: list[tuple[str, str, str]] = []
    for index, segment in enumerate(segments):
        equal = segment[0]
        between_changes = (
            equal
            and equal.isspace()
            and 0 < index < len(segments) - 1
            and cleaned
            and not cleaned[-1][0]
            and not segments[index + 1][0]
        )
        if between_changes:
            _, deleted, inserted = cleaned[-1]
            cleaned[-1] = ("", deleted + equal, inserted + equal)
        elif not equal and cleaned and not cleaned[-1][0]:
            _, deleted, inserted = cleaned[-1]
            cleaned[-1] = ("", deleted + segment[1], inserted + segment[2])
        else:
            cleaned.append(segment)
    return cleaned


@lru_cache(maxsize=4096)
def word_diff(old: str, new: str) -> WordDiff:
    """Tag the words of ``old`` and ``new`` as shared, deleted or inserted (memoized)."""
    old_spans: list[WordSpan] = []
    new_spans: list[WordSpan] = []
    merged: list[WordSpan] = []
    for equal, deleted, inserted in _segments(tokenize(old), tokenize(new)):
        if equal:
            _append(old_spans, WordTag.EQUAL, equal)
            _append(new_spans, WordTag.EQUAL, equal)
            _append(merged, WordTag.EQUAL, equal)
            continue
        _append(old_spans, WordTag.DELETE, deleted)
        _append(new_spans, WordTag.INSERT, inserted)
        _append(merged, WordTag.DELETE, deleted)
        _append(merged, WordTag.INSERT, inserted)
    return WordDiff(tuple(old_spans), tuple(new_spans), tuple(merged))
