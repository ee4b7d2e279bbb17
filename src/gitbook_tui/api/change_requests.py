"""Change requests: list, create, edit content, update from main, merge, reviews, reviewers."""

from __future__ import annotations

import builtins
import logging
from collections.abc import Sequence
from typing import Any, TypeVar

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
from .errors import ResponseValidationError
from .pagination import AsyncPager
from .resource import Resource, body, operation, seg
from .space_paths import change_requests_path, content_root, space_path

CR = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"
log = logging.getLogger("gitbook_tui.api")
T = TypeVar("T")


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

    async def _change(
        self,
        method: str,
        space_id: str,
        change_request: str | int,
        below: str,
        cast_to: type[T] | None,
        operation: str,
        *,
        body: Any = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> T:
        """A change to a change request (at ``below`` under it): drops the cached reads of
        every change request of the space (each is reachable by id and by number) and
        refreshes the space (its change-request counts)."""
        result: T = await self._client.send(
            method,
            f"{content_root(space_id, change_request)}{below}",
            cast_to,
            body=body,
            params=params,
            invalidates=[change_requests_path(space_id)],
            refreshes=[space_path(space_id)],
            operation=operation,
            headers=headers,
        )
        return result

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
        return self._list(
            change_requests_path(space_id),
            ChangeRequest,
            "listChangeRequestsForSpace",
            params=_filters(status, creator, contributor, requested_reviewer, order_by),
            limit=limit,
            max_items=max_items,
            read=read,
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
        return self._list(
            f"/orgs/{seg(organization_id, 'organization_id')}/change-requests",
            ChangeRequest,
            "listChangeRequestsForOrganization",
            params={
                **_filters(status, creator, contributor, requested_reviewer, order_by),
                "space": space,
                "site": site,
                "topic": topic,
            },
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation("POST /v1/spaces/{spaceId}/change-requests")
    async def create(
        self, space_id: str, *, subject: str | None = None, agent_task_id: str | None = None
    ) -> ChangeRequest:
        """A new draft change request starting from the space's current content."""
        result: ChangeRequest = await self._client.send(
            "POST",
            change_requests_path(space_id),
            ChangeRequest,
            body=body(subject=subject, agentTaskId=agent_task_id),
            operation="createChangeRequest",
        )
        return result

    @operation(f"GET {CR}")
    async def get(
        self, space_id: str, change_request: str | int, *, read: ReadMode | None = None
    ) -> ChangeRequest:
        return await self._read(
            content_root(space_id, change_request),
            ChangeRequest,
            "getChangeRequestById",
            read=read,
        )

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
        return await self._change(
            "PATCH",
            space_id,
            change_request,
            "",
            ChangeRequest,
            "updateChangeRequestById",
            body=body(subject=subject, status=status, description=description),
        )

    @operation(f"POST {CR}/merge")
    async def merge(self, space_id: str, change_request: str | int) -> MergeResult:
        """Merge into the main content (:class:`ConflictError` on conflicting edits)."""
        result: MergeResult = await self._client.send(
            "POST",
            f"{content_root(space_id, change_request)}/merge",
            MergeResult,
            invalidates=[space_path(space_id)],
            operation="mergeChangeRequest",
        )
        return result

    @operation(f"POST {CR}/update")
    async def update_from_main(self, space_id: str, change_request: str | int) -> MergeResult:
        """Bring the main content's newer edits in (:class:`ConflictError` on conflicts)."""
        return await self._change(
            "POST", space_id, change_request, "/update", MergeResult, "updateChangeRequest"
        )

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
        return await self._read(
            f"{content_root(space_id, change_request)}/pdf",
            ChangeRequestPdf,
            "getChangeRequestPDF",
            params={"page": page, "only": only},
            read="network",
        )

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
        return self._list(
            f"{content_root(space_id, change_request)}/commenters",
            Member,
            "listCommentersInChangeRequest",
            limit=limit,
            max_items=max_items,
            read=read,
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
        return await self._read(
            f"{content_root(space_id, change_request)}/changes",
            RevisionSemanticChanges,
            "getChangeRequestChanges",
            params={"limit": limit},
            read=read,
        )

    @operation(f"POST {CR}/content")
    async def edit_content(
        self,
        space_id: str,
        change_request: str | int,
        changes: Sequence[ChangeRequestContentChange | dict[str, Any]],
    ) -> ChangeRequestContentUpdate:
        """Apply page edits as one new revision, e.g.
        ``[ChangeRequestContentChange.insert_markdown("Title", "Body")]``; the answer names
        the pages created, changed or deleted.

        Once the server has answered 2xx the batch has landed: an answer this client cannot
        read is logged and given as an update naming no pages, never raised (the caller would
        report a failure, keep the edit and send it again)."""
        items = [c.to_api() if isinstance(c, ChangeRequestContentChange) else c for c in changes]
        try:
            return await self._change(
                "POST",
                space_id,
                change_request,
                "/content",
                ChangeRequestContentUpdate,
                "updateChangeRequestContent",
                body={"changes": items},
                params={"compat": False},
            )
        except ResponseValidationError as unreadable:
            log.warning("the content batch landed; its answer is unreadable: %s", unreadable)
            return ChangeRequestContentUpdate()

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
        return self._list(
            f"{content_root(space_id, change_request)}/reviews",
            ChangeRequestReview,
            "listChangeRequestReviews",
            params={"outdated": outdated},
            limit=limit,
            max_items=max_items,
            read=read,
        )

    @operation(f"POST {CR}/reviews")
    async def submit_review(
        self,
        space_id: str,
        change_request: str | int,
        status: ReviewStatus | str,
        *,
        comment: str | None = None,
        idempotency_key: str | None = None,
    ) -> ChangeRequestReview:
        """Approve (``approved``) or ask for changes (``changes-requested``), with an
        optional markdown ``comment`` (``idempotency_key``: see ``comments.create``)."""
        return await self._change(
            "POST",
            space_id,
            change_request,
            "/reviews",
            ChangeRequestReview,
            "submitChangeRequestReview",
            body=body(status=status, comment=None if comment is None else {"markdown": comment}),
            headers={"Idempotency-Key": idempotency_key} if idempotency_key else None,
        )

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
        return self._list(
            f"{content_root(space_id, change_request)}/requested-reviewers",
            RequestedReviewer,
            "listRequestedReviewers",
            limit=limit,
            max_items=max_items,
            read=read,
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
        return await self._change(
            "POST",
            space_id,
            change_request,
            "/requested-reviewers",
            RequestedReviewersResult,
            "requestReviewers",
            body=body(users=users, subject=subject, description=description),
        )

    @operation(f"DELETE {CR}/requested-reviewers/{{userId}}")
    async def remove_requested_reviewer(
        self, space_id: str, change_request: str | int, user_id: str
    ) -> None:
        await self._change(
            "DELETE",
            space_id,
            change_request,
            f"/requested-reviewers/{seg(user_id, 'user_id')}",
            None,
            "removeRequestedReviewer",
        )
