"""The demo guide's past: an early version of its pages and the steps that grew them into today's.

Pure text work, no storage. Each page file of the guide is cut into parts at blank lines;
some prose paragraphs are missing from the early version, some lack their last sentence,
some carry a typo. Each such difference is one :class:`Step`; applying every step of a
page gives back its file exactly, so the history seeded from the plan ends on the content
the demo has always had (the early version is what the first import brings).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["PageStory", "Step", "plan_stories"]

# Pages left as they are: the first page (the app's first screen, seeded before the
# history) and the block showcases (read as files by tests).
UNTOUCHED = ("README.md", "reference/every-block.md", "reference/gitbook-export-blocks.md")
_PAIRED_TAGS = {"hint", "tabs", "tab", "stepper", "step", "code", "columns", "column",
                "content-ref", "updates", "update", "swagger", "openapi"}  # fmt: skip
_TAG = re.compile(r"{%\s*(end)?([\w-]+)")
_PROSE = re.compile(r"[A-Z][^\n]*[.!?:)]\Z", re.S)


@dataclass(frozen=True)
class Step:
    """One step of a page's part towards its final text: the part ``index`` goes from
    ``earlier[level]`` to the next version (the final part after the last)."""

    page: str
    index: int
    level: int
    summary: str
    """What the step does, as a commit subject would say it."""


@dataclass
class PageStory:
    """A page file's parts, the earlier versions of some parts (oldest first; "" where
    the part did not exist yet) and the steps between them, in order per part."""

    path: str
    title: str
    parts: list[str]
    earlier: dict[int, list[str]] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)

    def text(self, done: dict[int, int]) -> str:
        """The file once ``done[i]`` steps of part ``i`` are made (none where missing)."""
        out = []
        for i, part in enumerate(self.parts):
            versions = self.earlier.get(i)
            level = done.get(i, 0)
            if versions is not None and level < len(versions):
                part = versions[level]
            if part:
                out.append(part)
        return "\n\n".join(out)

    @property
    def final(self) -> dict[int, int]:
        return {i: len(v) for i, v in self.earlier.items()}


def _top_level(parts: list[str]) -> list[bool]:
    """Whether each part stands at the top level (outside fences, block tags, HTML)."""
    fence = depth = html = 0
    result = []
    for part in parts:
        result.append(fence % 2 == 0 and depth == 0 and html == 0)
        fence += part.count("```")
        for end, name in _TAG.findall(part):
            if name in _PAIRED_TAGS:
                depth += -1 if end else 1
        html += part.count("<details") + part.count("<table")
        html -= part.count("</details>") + part.count("</table>")
    return result


def _typos(part: str) -> list[str]:
    """Up to two earlier versions with typos (the latest first: one typo, then two)."""
    out: list[str] = []
    cur = part
    for _ in range(2):
        words = re.findall(r"(?<![`*\w])[a-z]{7,}(?![`*\w])", cur)
        fresh = [w for w in words if w in part.split() or w in re.findall(r"\w+", part)]
        if not fresh:
            break
        word = sorted(fresh, key=len)[-1 - len(out)] if len(fresh) > len(out) else fresh[0]
        spelt = word[:3] + word[4] + word[3] + word[5:]
        if spelt == word or spelt in cur:
            break
        cur = cur.replace(word, spelt, 1)
        out.append(cur)
    return out


def _description(part: str) -> str | None:
    """Front matter whose description is shorter (cut at its last comma or dash)."""
    match = re.search(r"^description: ([^\"'\n][^\n]*)$", part, re.M)
    if match is None:
        return None
    value = match.group(1)
    cut = max(value.rfind(", "), value.rfind(" — "))
    if cut < 20:
        return None
    return part[: match.start(1)] + value[:cut] + "." + part[match.end(1) :]


def _short(part: str) -> str | None:
    """``part`` without its last sentence (None: one sentence, or markup across the cut)."""
    cut = part.rstrip().rfind(". ", 0, len(part.rstrip()) - 2)
    if cut < 40:
        return None
    head = part[: cut + 1]
    if head.count("`") % 2 or head.count("**") % 2 or head.count("[") != head.count("]"):
        return None
    return head


def _title_of(text: str) -> str:
    match = re.search(r"^# (.+)$", text, re.M)
    return match.group(1).strip() if match else "page"


def _items(part: str) -> list[str] | None:
    """A list's one-line items (None: not such a list, or too short to lose items)."""
    lines = part.split("\n")
    if len(lines) < 3 or not all(re.match(r"(\* |- |\d+\. )\S", line) for line in lines):
        return None
    return lines


def _back_steps(title: str, part: str, n: int) -> list[tuple[str, str]]:
    """Earlier versions of a top-level part, each with what the step after it does,
    latest first."""
    words = " ".join(part.split()[:4]).lstrip("*-0123456789. ").rstrip(",.:;")
    back: list[tuple[str, str]] = []
    items = _items(part)
    if items is not None:
        for drop in range(1, min(4, len(items) - 1)):
            back.append(("\n".join(items[:-drop]), f"{title}: add an item to “{words}…”"))
        return back
    if not _PROSE.match(part):
        return back
    cur = part
    for typo in _typos(cur):
        back.append((typo, f"{title}: fix a typo"))
        cur = typo
    for _ in range(2):  # up to two sentences, one step each
        short = _short(cur)
        if short is None:
            break
        back.append((short, f"{title}: one more sentence on “{words}…”"))
        cur = short
    if n % 2 == 0:
        back.append(("", f"{title}: add “{words}…”"))
    return back


def plan_stories(folder: Path, paths: list[str]) -> list[PageStory]:
    """Every page of ``paths`` (files of ``folder``, those of :data:`UNTOUCHED` left out)
    with its steps, in a fixed order (the same in every process)."""
    stories = []
    for rel in paths:
        if rel in UNTOUCHED or not rel.endswith(".md") or rel == "SUMMARY.md":
            continue
        text = (folder / rel).read_text("utf-8")
        parts = text.split("\n\n")
        title = _title_of(text)
        story = PageStory(rel, title, parts)
        top = _top_level(parts)
        described = _description(parts[0]) if parts[0].startswith("---\n") else None
        if described is not None:
            story.earlier[0] = [described]
            story.steps.append(Step(rel, 0, 0, f"{title}: a clearer description"))
        for n, i in enumerate(i for i in range(2, len(parts)) if top[i]):
            back = _back_steps(title, parts[i], n)
            if not back:
                continue
            story.earlier[i] = [version for version, _ in reversed(back)]
            story.steps += [
                Step(rel, i, level, summary) for level, (_, summary) in enumerate(reversed(back))
            ]
        if story.steps:
            stories.append(story)
    return stories
