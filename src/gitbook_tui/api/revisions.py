"""A space's history: one revision (parents, type, merged change request, Git commit) and the
semantic changes it made against its first parent."""

from __future__ import annotations

from ..models import Revision, RevisionSemanticChanges
from .base import ReadMode
from .resource import Resource, operation
from .space_paths import revision_path

__all__ = ["Revisions"]

REVISION = "/v1/spaces/{spaceId}/revisions/{revisionId}"


class Revisions(Resource):
    """Revisions never change: a read with ``read="prefer-cache"`` never needs the network
    twice for one."""

    @operation(f"GET {REVISION}")
    async def get(
        self,
        space_id: str,
        revision_id: str,
        *,
        metadata: bool | None = None,
        read: ReadMode | None = None,
    ) -> Revision:
        """The revision: ``parents`` (a merge: the main line's first, then the change
        request's), ``type``, ``createdAt``, ``mergedFrom`` (a merge), ``git`` (a Git Sync
        commit) and its page tree."""
        return await self._read(
            revision_path(space_id, revision_id),
            Revision,
            "getRevisionById",
            params={"metadata": metadata},
            read=read,
        )

    @operation(f"GET {REVISION}/changes")
    async def changes(
        self,
        space_id: str,
        revision_id: str,
        *,
        limit: int | None = None,
        read: ReadMode | None = None,
    ) -> RevisionSemanticChanges:
        """What the revision changed against its first parent: pages created, edited,
        moved or deleted, files, reusable contents (at most ``limit``, the server's default
        10; ``.more`` counts the rest); ``.mergedFrom`` for a merge."""
        return await self._read(
            f"{revision_path(space_id, revision_id)}/changes",
            RevisionSemanticChanges,
            "getRevisionSemanticChanges",
            params={"limit": limit},
            read=read,
        )
