"""Change requests: list, create, edit content, update from main, merge, reviews, reviewers."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from ..models import (
    ChangeRequest,
    ChangeRequestContentChange,
    ChangeRequestContentUpdate,
    ChangeRequestPdf,
    ChangeRequestReview,
    ChangeRequestStatus,
    Member,
    MergeResult,
    RequestedReviewer,
    RequestedReviewersResult,
    ReviewStatus,
    RevisionSemanticChanges,
)
from .base import ReadMode
from .content import content_root
from .pagination import AsyncPager
from .resource import Resource, body, operation, seg

CR = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"


def _crs(space_id: str) -> str:
    """Every change request of a space: a change request is reachable by id and by number,
    so a change to one drops the cached reads of both forms (and the lists)."""
    return f"/spaces/{seg(space_id, 'space_id')}/change-requests"


def _filters(
    status: object,
    creator: str | None,
    contributor: str | None,
    requested_reviewer: str | None,
    order_by: str | None,
) -> dict[str, object]:
    """The change-request list filters shared by the space and organization listings."""
    return {
        "status": status,
        "creator": creator,
        "contributor": contributor,
        "requestedReviewer": requested_reviewer,
        "orderBy": order_by,
    }


class ChangeRequests(Resource):
    """``change_request`` arguments accept the change request's id or its number."""

    @operation("GET /v1/spaces/{spaceId}/change-requests")
    def list(
        self,
        space_id: str,
        *,
        status: ChangeRequestStatus | str | builtins.list[ChangeRequestStatus | str] | None = None,
        creator: str | None = None,
        contributor: str | None = None,
        requested_reviewer: str | None = None,
        order_by: str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[ChangeRequest]:
        """Change requests, most recently updated first; ``status`` (one or several,
        default ``open``), ``creator`` / ``contributor`` / ``requested_reviewer`` user ids,
        ``order_by`` ``updatedAt`` or ``createdAt``."""
        return AsyncPager(
            self._client,
            _crs(space_id),
            ChangeRequest,
            params=_filters(status, creator, contributor, requested_reviewer, order_by),
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listChangeRequestsForSpace",
        )

    @operation("GET /v1/orgs/{organizationId}/change-requests")
    def list_for_organization(
        self,
        organization_id: str,
        *,
        status: ChangeRequestStatus | str | builtins.list[ChangeRequestStatus | str] | None = None,
        creator: str | None = None,
        contributor: str | None = None,
        requested_reviewer: str | None = None,
        space: str | None = None,
        site: str | None = None,
        topic: str | None = None,
        order_by: str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[ChangeRequest]:
        """Change requests of every space of the organization the caller can read, with
        the same filters as :meth:`list` plus ``space``, ``site`` and ``topic``. Servers
        without this operation answer 404 or 405: fall back to :meth:`list` per space."""
        return AsyncPager(
            self._client,
            f"/orgs/{seg(organization_id, 'organization_id')}/change-requests",
            ChangeRequest,
            params={
                **_filters(status, creator, contributor, requested_reviewer, order_by),
                "space": space,
                "site": site,
                "topic": topic,
            },
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listChangeRequestsForOrganization",
        )

    @operation("POST /v1/spaces/{spaceId}/change-requests")
    async def create(
        self, space_id: str, *, subject: str | None = None, agent_task_id: str | None = None
    ) -> ChangeRequest:
        """A new draft change request starting from the space's current content."""
        result: ChangeRequest = await self._client.send(
            "POST",
            _crs(space_id),
            ChangeRequest,
            body=body(subject=subject, agentTaskId=agent_task_id),
            operation="createChangeRequest",
        )
        return result

    @operation(f"GET {CR}")
    async def get(
        self, space_id: str, change_request: str | int, *, read: ReadMode | None = None
    ) -> ChangeRequest:
        result: ChangeRequest = await self._client.get(
            content_root(space_id, change_request),
            ChangeRequest,
            read=read,
            operation="getChangeRequestById",
        )
        return result

    @operation(f"PATCH {CR}")
    async def update(
        self,
        space_id: str,
        change_request: str | int,
        *,
        subject: str | None = None,
        status: ChangeRequestStatus | str | None = None,
        description: dict[str, Any] | None = None,
    ) -> ChangeRequest:
        """Change the subject, description or status (``draft``, ``open``, ``archived``)."""
        result: ChangeRequest = await self._client.send(
            "PATCH",
            content_root(space_id, change_request),
            ChangeRequest,
            body=body(subject=subject, status=status, description=description),
            invalidates=[_crs(space_id)],
            refreshes=[f"/spaces/{seg(space_id, 'space_id')}"],
            operation="updateChangeRequestById",
        )
        return result

    @operation(f"POST {CR}/merge")
    async def merge(self, space_id: str, change_request: str | int) -> MergeResult:
        """Merge into the main content (:class:`ConflictError` on conflicting edits)."""
        result: MergeResult = await self._client.send(
            "POST",
            f"{content_root(space_id, change_request)}/merge",
            MergeResult,
            invalidates=[f"/spaces/{seg(space_id, 'space_id')}"],
            operation="mergeChangeRequest",
        )
        return result

    @operation(f"POST {CR}/update")
    async def update_from_main(self, space_id: str, change_request: str | int) -> MergeResult:
        """Bring the main content's newer edits in (:class:`ConflictError` on conflicts)."""
        result: MergeResult = await self._client.send(
            "POST",
            f"{content_root(space_id, change_request)}/update",
            MergeResult,
            invalidates=[_crs(space_id)],
            refreshes=[f"/spaces/{seg(space_id, 'space_id')}"],
            operation="updateChangeRequest",
        )
        return result

    @operation(f"GET {CR}/pdf")
    async def pdf(
        self,
        space_id: str,
        change_request: str | int,
        *,
        page: str | None = None,
        only: bool | None = None,
    ) -> ChangeRequestPdf:
        """A temporary (1 hour) URL of a PDF of the content, from ``page`` (``only``: that
        page alone). Always asked of the server: a cached link may have expired."""
        result: ChangeRequestPdf = await self._client.get(
            f"{content_root(space_id, change_request)}/pdf",
            ChangeRequestPdf,
            params={"page": page, "only": only},
            read="network",
            operation="getChangeRequestPDF",
        )
        return result

    @operation(f"GET {CR}/commenters")
    def commenters(
        self,
        space_id: str,
        change_request: str | int,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[Member]:
        """Members who posted in the change request's threads."""
        return AsyncPager(
            self._client,
            f"{content_root(space_id, change_request)}/commenters",
            Member,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listCommentersInChangeRequest",
        )

    @operation(f"GET {CR}/changes")
    async def changes(
        self,
        space_id: str,
        change_request: str | int,
        *,
        limit: int | None = None,
        read: ReadMode | None = None,
    ) -> RevisionSemanticChanges:
        """Pages and files created, edited, moved or deleted (at most ``limit``; ``.more``
        counts the rest)."""
        result: RevisionSemanticChanges = await self._client.get(
            f"{content_root(space_id, change_request)}/changes",
            RevisionSemanticChanges,
            params={"limit": limit},
            read=read,
            operation="getChangeRequestChanges",
        )
        return result

    @operation(f"POST {CR}/content")
    async def edit_content(
        self,
        space_id: str,
        change_request: str | int,
        changes: Sequence[ChangeRequestContentChange | dict[str, Any]],
    ) -> ChangeRequestContentUpdate:
        """Apply page edits as one new revision, e.g.
        ``[ChangeRequestContentChange.insert_markdown("Title", "Body")]``; the answer names
        the pages created or changed."""
        items = [c.to_api() if isinstance(c, ChangeRequestContentChange) else c for c in changes]
        result: ChangeRequestContentUpdate = await self._client.send(
            "POST",
            f"{content_root(space_id, change_request)}/content",
            ChangeRequestContentUpdate,
            body={"changes": items},
            params={"compat": False},
            invalidates=[_crs(space_id)],
            refreshes=[f"/spaces/{seg(space_id, 'space_id')}"],
            operation="updateChangeRequestContent",
        )
        return result

    @operation(f"GET {CR}/reviews")
    def reviews(
        self,
        space_id: str,
        change_request: str | int,
        *,
        outdated: bool | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[ChangeRequestReview]:
        """Reviews, newest first (``outdated``: only reviews of an older revision, or not)."""
        return AsyncPager(
            self._client,
            f"{content_root(space_id, change_request)}/reviews",
            ChangeRequestReview,
            params={"outdated": outdated},
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listChangeRequestReviews",
        )

    @operation(f"POST {CR}/reviews")
    async def submit_review(
        self,
        space_id: str,
        change_request: str | int,
        status: ReviewStatus | str,
        *,
        comment: str | None = None,
    ) -> ChangeRequestReview:
        """Approve (``approved``) or ask for changes (``changes-requested``), with an
        optional markdown ``comment``."""
        result: ChangeRequestReview = await self._client.send(
            "POST",
            f"{content_root(space_id, change_request)}/reviews",
            ChangeRequestReview,
            body=body(status=status, comment=None if comment is None else {"markdown": comment}),
            invalidates=[_crs(space_id)],
            refreshes=[f"/spaces/{seg(space_id, 'space_id')}"],
            operation="submitChangeRequestReview",
        )
        return result

    @operation(f"GET {CR}/requested-reviewers")
    def requested_reviewers(
        self,
        space_id: str,
        change_request: str | int,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        read: ReadMode | None = None,
    ) -> AsyncPager[RequestedReviewer]:
        return AsyncPager(
            self._client,
            f"{content_root(space_id, change_request)}/requested-reviewers",
            RequestedReviewer,
            limit=limit,
            max_items=max_items,
            read=read,
            operation="listRequestedReviewers",
        )

    @operation(f"POST {CR}/requested-reviewers")
    async def request_reviewers(
        self,
        space_id: str,
        change_request: str | int,
        users: builtins.list[str],
        *,
        subject: str | None = None,
        description: dict[str, Any] | None = None,
    ) -> RequestedReviewersResult:
        """Ask ``users`` (user ids) to review; a draft change request becomes ``open``."""
        result: RequestedReviewersResult = await self._client.send(
            "POST",
            f"{content_root(space_id, change_request)}/requested-reviewers",
            RequestedReviewersResult,
            body=body(users=users, subject=subject, description=description),
            invalidates=[_crs(space_id)],
            refreshes=[f"/spaces/{seg(space_id, 'space_id')}"],
            operation="requestReviewers",
        )
        return result

    @operation(f"DELETE {CR}/requested-reviewers/{{userId}}")
    async def remove_requested_reviewer(
        self, space_id: str, change_request: str | int, user_id: str
    ) -> None:
        await self._client.send(
            "DELETE",
            f"{content_root(space_id, change_request)}/requested-reviewers/{seg(user_id, 'user_id')}",
            invalidates=[_crs(space_id)],
            refreshes=[f"/spaces/{seg(space_id, 'space_id')}"],
            operation="removeRequestedReviewer",
        )
