"""Request paths of a space, its change requests, revisions and content (main or a change request's)."""

from __future__ import annotations

from .paths import segment

__all__ = ["change_requests_path", "content_root", "revision_path", "space_path"]


def space_path(space_id: str) -> str:
    """``/spaces/{id}``."""
    return f"/spaces/{segment(space_id, 'space_id')}"


def change_requests_path(space_id: str) -> str:
    """``/spaces/{id}/change-requests``: every change request of the space. One is reachable
    by id and by number, so a change to one drops the cached reads below this prefix."""
    return f"{space_path(space_id)}/change-requests"


def content_root(space_id: str, change_request: str | int | None = None) -> str:
    """``/spaces/{id}``, or ``/spaces/{id}/change-requests/{cr}`` for a change request."""
    root = space_path(space_id)
    if change_request is not None:
        root += f"/change-requests/{segment(change_request, 'change_request')}"
    return root


def revision_path(space_id: str, revision_id: str) -> str:
    """``/spaces/{id}/revisions/{revision}``: a past revision of the space."""
    return f"{space_path(space_id)}/revisions/{segment(revision_id, 'revision_id')}"
