"""The demo guide's history: months of merged change requests, direct edits, a Git Sync commit,
a draft page come and gone and a rollback, from its first import to today's text.

The first import (phase 1) brings the early version of :mod:`.history_plan`; this writes the
steps from it to the final text as revisions straight into storage (the demo's seeding must
stay fast: ~190 revisions through the API would take seconds), each as the server writes
it: immutable, parented on the space's previous revision (a merge also on its change
request's), the change request records merged. Ids come from a generator of their own, so
the rest of the demo keeps the ids it always had.
"""

from __future__ import annotations

import hashlib
import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from ..content.page_text import apply_front_matter, page_text
from ..content.space_revision import set_space_revision
from ..content.store import create_revision, get_revision, store_markdown
from ..core.clock import iso
from ..core.storage import Tx
from ..importers.sources import FolderSource
from .history_plan import PageStory, Step, plan_stories
from .seed_base import DEMO_DIR, SeederBase

__all__ = ["EarlyGuide", "guide_stories", "seed_guide_history"]

GUIDE = "guide"
FIRST_DAY, LAST_DAY = 177.0, 47.0
"""The history runs between these days ago (the guide's other activity starts at 45)."""
_AUTHORS = ("lee", "ravi", "devon", "tomasz", "jonas", "maya", "lee", "ravi")
_MERGERS = ("maya", "jonas", "maya", "lee")
_EDITORS = ("maya", "jonas", "ravi", "devon")


def guide_stories() -> list[PageStory]:
    folder = DEMO_DIR / "spaces" / "user-guide"
    paths = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.md"))
    return plan_stories(folder, paths)


class EarlyGuide(FolderSource):
    """The guide's folder as it was first imported (the early version of every page)."""

    def __init__(self) -> None:
        super().__init__(DEMO_DIR / "spaces" / "user-guide")
        self._early = {story.path: story.text({}).encode("utf-8") for story in guide_stories()}

    def read(self, rel: str) -> bytes | None:
        early = self._early.get(rel)
        return early if early is not None else super().read(rel)


def _oid(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\x00" % len(data) + data, usedforsecurity=False).hexdigest()


def _replace(
    nodes: list[dict[str, Any]], page_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
) -> list[dict[str, Any]] | None:
    """``nodes`` with the page ``page_id`` replaced by ``change(copy)``, only the nodes on
    its path copied (None: not there)."""
    for i, node in enumerate(nodes):
        if node["id"] == page_id:
            return [*nodes[:i], change(dict(node)), *nodes[i + 1 :]]
        children = _replace(node.get("pages") or [], page_id, change)
        if children is not None:
            return [*nodes[:i], {**node, "pages": children}, *nodes[i + 1 :]]
    return None


@dataclass
class _Writer:
    """Writes the guide's revisions one after the other, keeping the main line's head."""

    tx: Tx
    seeder: SeederBase
    space: dict[str, Any]
    head: dict[str, Any]
    ids: random.Random
    done: dict[str, dict[int, int]] = field(default_factory=dict)

    def new_id(self) -> str:
        return "".join(self.ids.choice(string.ascii_letters + string.digits) for _ in range(20))

    def user(self, key: str) -> str:
        return self.seeder.users[key]

    def with_steps(self, pages: list[dict[str, Any]], steps: list[Step], when: str,
                   stories: dict[str, PageStory]) -> list[dict[str, Any]]:  # fmt: skip
        """``pages`` with ``steps`` made on their pages' documents (and descriptions)."""
        for step in steps:
            done = self.done.setdefault(step.page, {})
            done[step.index] = step.level + 1
            data = stories[step.page].text(done).encode("utf-8")
            read = page_text(data.decode("utf-8"))
            digest = store_markdown(self.tx, read.body)

            meta, oid = read.meta, _oid(data)

            def change(
                node: dict[str, Any], digest: str = digest, meta: Any = meta, oid: str = oid
            ) -> dict[str, Any]:
                apply_front_matter(node, meta)
                node.update(document=digest, updatedAt=when)
                node["git"] = {**(node.get("git") or {}), "oid": oid}
                return node

            page_id = self.seeder.page_id(GUIDE, step.page)
            pages = _replace(pages, page_id, change) or pages
        return pages

    def write(self, pages: list[dict[str, Any]], kind: str, when: str, by: str | None,
              *, parents: list[str] | None = None, cr: str | None = None,
              git: dict[str, Any] | None = None, main: bool = True) -> dict[str, Any]:  # fmt: skip
        revision = create_revision(
            self.tx,
            revision_id=self.new_id(),
            space_id=self.space["id"],
            parents=parents if parents is not None else [self.head["id"]],
            pages=pages,
            files=list(self.head["files"]),
            type=kind,
            created_at=when,
            created_by=by,
            change_request=cr,
            variables=dict(self.head.get("variables") or {}),
            reusable_contents=list(self.head.get("reusableContents") or []),
            git=git,
        )
        if main:
            self.head = revision
        return revision

    def merge(self, pages: list[dict[str, Any]], subject: str, author: str, merger: str,
              opened: str, when: str) -> None:  # fmt: skip
        """A change request by ``author`` (opened at ``opened``) merged by ``merger``."""
        cr_id, base = self.new_id(), self.head
        ours = self.write(pages, "edits", opened, self.user(author), cr=cr_id, main=False)
        merged = self.write(pages, "merge", when, self.user(merger), cr=cr_id,
                            parents=[base["id"], ours["id"]])  # fmt: skip
        record = {
            "id": cr_id,
            "number": self.tx.next_number(f"cr:{self.space['id']}"),
            "space": self.space["id"],
            "status": "merged",
            "subject": subject,
            "description": None,
            "createdBy": self.user(author),
            "createdAt": opened,
            "updatedAt": when,
            "revision": ours["id"],
            "revisionInitial": base["id"],
            "revisionMergedAncestor": base["id"],
            "revisionMerged": merged["id"],
            "mergedAt": when,
            "mergedBy": self.user(merger),
            "contributors": [self.user(author)],
            "agentTaskId": None,
        }
        self.tx.put("change-request", cr_id, record, scope=self.space["id"])


def _ordered(stories: list[PageStory], rng: random.Random) -> list[Step]:
    """Every step in a shuffled order in which each part's steps still come in turn."""
    steps = [step for story in stories for step in story.steps]
    keys = [rng.random() for _ in steps]
    by_part: dict[tuple[str, int], list[int]] = {}
    for n, step in enumerate(steps):
        by_part.setdefault((step.page, step.index), []).append(n)
    for members in by_part.values():
        for n, key in zip(members, sorted(keys[n] for n in members), strict=True):
            keys[n] = key
    return [step for _, step in sorted(zip(keys, steps, strict=True), key=lambda kv: kv[0])]


def _subject(steps: list[Step]) -> str:
    if len(steps) == 1:
        return steps[0].summary
    titles = list(dict.fromkeys(step.summary.split(": ", 1)[0] for step in steps))
    if all("typo" in step.summary for step in steps):
        return f"{' and '.join(titles[:2])}: fix typos"
    return f"{' and '.join(titles[:2])}: {len(steps)} small improvements"


async def seed_guide_history(seeder: SeederBase) -> None:
    """Write the guide's history (scheduled at :data:`FIRST_DAY`; dates are its own)."""
    stories = guide_stories()
    by_path = {story.path: story for story in stories}
    rng = random.Random(2317)
    steps = _ordered(stories, rng)
    start = seeder.now
    count = len(steps)

    def at(fraction: float) -> str:
        days = FIRST_DAY - (FIRST_DAY - LAST_DAY) * fraction
        return iso(start - timedelta(days=days))

    with seeder.storage.transaction() as tx:
        space = tx.get("space", seeder.spaces[GUIDE])
        assert space is not None
        head = get_revision(tx, space["revision"])
        w = _Writer(tx, seeder, space, head, random.Random(2318))
        events = _events(count, rng)
        gap = 1.0 / (len(events) + 1)
        taken = 0
        before_bad: dict[str, Any] | None = None
        draft_id = w.new_id()
        guides_id = seeder.page_id(GUIDE, "guides/README.md")
        for n, (kind, size) in enumerate(events):
            when, opened = at((n + 1) * gap), at((n + 0.6) * gap)
            batch, taken = steps[taken : taken + size], taken + size
            pages = w.with_steps(list(w.head["pages"]), batch, when, by_path)
            if kind == "merge":
                author, merger = rng.choice(_AUTHORS), rng.choice(_MERGERS)
                w.merge(pages, _subject(batch), author, merger, opened, when)
            elif kind == "edit":
                w.write(pages, "edits", when, w.user(rng.choice(_EDITORS)))
            elif kind == "gitsync":
                oid = hashlib.sha1(f"tidewater-docs-{n}".encode()).hexdigest()
                commit = {
                    "oid": oid,
                    "message": f"docs: sync {len(batch)} fixes from the repository",
                    "createdByGitBook": False,
                    "url": f"https://github.com/lanternfish-labs/tidewater/commit/{oid}",
                    "ref": "refs/heads/main",
                }
                w.write(pages, "import", when, w.user("jonas"), git=commit)
            elif kind == "draft":
                w.merge(_with_draft(w, pages, guides_id, draft_id, when),
                        "Guides: a release checklist (draft)", "lee", "maya", opened, when)  # fmt: skip
            elif kind == "undraft":
                w.write(_without(pages, guides_id, draft_id), "edits", when, w.user("maya"))
            elif kind == "bad":
                before_bad = w.head
                w.write(_truncated(w, pages, seeder.page_id(GUIDE, "concepts/streams.md"), when),
                        "edits", when, w.user("tomasz"))  # fmt: skip
            elif kind == "rollback" and before_bad is not None:
                w.write(list(before_bad["pages"]), "rollback", when, w.user("maya"))
        assert taken == count, "every step of the plan is made"
        set_space_revision(tx, space, w.head["id"], w.head["createdAt"])


def _events(steps: int, rng: random.Random) -> list[tuple[str, int]]:
    """What happens, in order: ``(kind, steps it makes)`` until every step is made."""
    events: list[tuple[str, int]] = []
    left = steps
    while left > 0:
        size = 1 if rng.random() < 0.75 else 2
        kind = "merge" if rng.random() < 0.5 else "edit"
        events.append((kind, min(size, left)))
        left -= size
    events.insert(len(events) // 5, ("draft", 0))
    events.insert(len(events) * 2 // 5, ("gitsync", 0))
    events.insert(len(events) * 3 // 5, ("bad", 0))
    events.insert(len(events) * 3 // 5 + 1, ("rollback", 0))
    events.insert(len(events) * 4 // 5, ("undraft", 0))
    # The Git Sync commit brings six steps the edits around it would otherwise make.
    at = next(i for i, (kind, _) in enumerate(events) if kind == "gitsync")
    moved = 0
    for i in range(at + 1, len(events)):
        kind, size = events[i]
        if kind in ("merge", "edit") and moved + size <= 6:
            events[i] = (kind, 0)
            moved += size
    events[at] = ("gitsync", moved)
    return [(kind, size) for kind, size in events if size or kind not in ("merge", "edit")]


def _with_draft(w: _Writer, pages: list[dict[str, Any]], parent: str, page_id: str,
                when: str) -> list[dict[str, Any]]:  # fmt: skip
    markdown = "Before a release:\n\n1. Freeze the docs branch.\n2. Check every link.\n"
    node = {
        "id": page_id,
        "title": "Release checklist (draft)",
        "type": "document",
        "slug": "release-checklist-draft",
        "description": "",
        "hidden": False,
        "createdAt": when,
        "updatedAt": when,
        "document": store_markdown(w.tx, markdown),
        "pages": [],
    }
    return _replace(pages, parent, lambda n: {**n, "pages": [*n.get("pages", []), node]}) or pages


def _without(pages: list[dict[str, Any]], parent: str, page_id: str) -> list[dict[str, Any]]:
    def drop(node: dict[str, Any]) -> dict[str, Any]:
        return {**node, "pages": [p for p in node.get("pages", []) if p["id"] != page_id]}

    return _replace(pages, parent, drop) or pages


def _truncated(w: _Writer, pages: list[dict[str, Any]], page_id: str,
               when: str) -> list[dict[str, Any]]:  # fmt: skip
    """A careless edit: the page's second half gone (the rollback after it restores it)."""

    def cut(node: dict[str, Any]) -> dict[str, Any]:
        text = w.tx.get_text(node["document"]) if node.get("document") else ""
        blocks = text.split("\n\n")
        node.update(document=store_markdown(w.tx, "\n\n".join(blocks[: len(blocks) // 2]) + "\n"))
        node["updatedAt"] = when
        return node

    return _replace(pages, page_id, cut) or pages
