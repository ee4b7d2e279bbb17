"""Client history operations (a revision, its changes) against the local server."""

from __future__ import annotations

from typing import Any

import pytest

from gitbook_tui.api import AsyncGitBook, NotFoundError
from gitbook_tui.models import (
    Revision,
    RevisionSemanticChanges,
    RevisionType,
    SemanticChangeType,
)
from support.builders import seeded_through_client
from support.worlds import Clients


@pytest.fixture
async def merged(gb: AsyncGitBook, world: Any) -> dict[str, Any]:
    """A space whose main content got two pages through a merged change request."""
    pages = [("Intro", "Welcome."), ("Setup", "Install.")]
    seed = await seeded_through_client(gb, world.org, "Product", "Seed <b>[red]x[/red]</b>", pages)
    space, cr = seed.space, seed.cr
    return {"space": space.id, "initial": space.revision, "cr": cr, "merge": seed.merge.revision}


async def test_a_merge_revision_and_its_changes(connect: Clients, merged: dict[str, Any]) -> None:
    reader = connect("rhea")
    revision = await reader.revisions.get(merged["space"], merged["merge"])
    assert isinstance(revision, Revision)
    assert revision.type == RevisionType.merge
    assert revision.parents[0] == merged["initial"] and len(revision.parents) == 2
    assert revision.mergedFrom is not None and revision.mergedFrom.number == merged["cr"].number
    assert revision.mergedFrom.subject == "Seed <b>[red]x[/red]</b>"
    changes = await reader.revisions.changes(merged["space"], merged["merge"], limit=1)
    assert isinstance(changes, RevisionSemanticChanges)
    assert [c.type for c in changes.changes] == [SemanticChangeType.page_created]
    assert changes.more == 1
    assert changes.mergedFrom is not None and changes.mergedFrom.id == merged["cr"].id


async def test_walking_parents_ends_at_the_first_revision(
    gb: AsyncGitBook, merged: dict[str, Any]
) -> None:
    seen, revision_id = [], merged["merge"]
    while revision_id:
        revision = await gb.revisions.get(merged["space"], revision_id, read="prefer-cache")
        seen.append(revision.type)
        revision_id = revision.parents[0] if revision.parents else ""
    assert seen == [RevisionType.merge, RevisionType.edits]
    first = await gb.revisions.changes(merged["space"], merged["initial"])
    assert first.changes == [] and first.more is None


async def test_unknown_and_unreadable_revisions(connect: Clients, merged: dict[str, Any]) -> None:
    with pytest.raises(NotFoundError):
        await connect("alice").revisions.get(merged["space"], "nope")
    with pytest.raises(NotFoundError):
        await connect("otto").revisions.changes(merged["space"], merged["merge"])
    with pytest.raises(ValueError, match="revision_id"):
        await connect("alice").revisions.get(merged["space"], "a/b")
