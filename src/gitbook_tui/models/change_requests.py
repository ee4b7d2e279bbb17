"""Change requests, merge/update results, reviews and requested reviewers."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field

from .comments import Comment
from .common import ApiModel, Open, Urls
from .lenient import Count, Timestamp
from .org_admin import Team
from .users import User

__all__ = [
    "ChangeRequest",
    "ChangeRequestPdf",
    "ChangeRequestReview",
    "ChangeRequestStatus",
    "MergeResult",
    "MergeResultKind",
    "RequestedReviewer",
    "RequestedReviewersResult",
    "ReviewStatus",
    "ReviewerKind",
]


class ChangeRequestStatus(StrEnum):
    """Status of a change request."""

    draft = "draft"
    open = "open"
    archived = "archived"
    merged = "merged"


class ReviewStatus(StrEnum):
    """Decision of a change request review."""

    changes_requested = "changes-requested"
    approved = "approved"


class MergeResultKind(StrEnum):
    """Result of merging or updating a change request."""

    merge = "merge"
    update = "update"
    conflicts = "conflicts"


class ReviewerKind(StrEnum):
    """Who was asked to review: a user or a team."""

    user = "user"
    team = "team"


class ChangeRequest(ApiModel):
    """A change request: proposed edits to a space, reviewed then merged."""

    object: str = "change-request"
    id: str
    number: Count | None = None
    status: Open[ChangeRequestStatus] | None = None
    subject: str | None = None
    description: dict[str, Any] | None = None
    createdBy: User | None = None
    createdAt: Timestamp | None = None
    updatedAt: Timestamp | None = None
    mergedBy: User | None = None
    mergedAt: Timestamp | None = None
    space: str | None = None
    revision: str | None = None
    revisionInitial: str | None = None
    revisionMergedAncestor: str | None = None
    revisionMerged: str | None = None
    comments: Count | None = None
    outdated: bool | None = None
    urls: Urls | None = None


class MergeResult(ApiModel):
    """Answer of ``.../merge`` and ``.../update``: ``{revision, result}``."""

    revision: str | None = None
    result: Open[MergeResultKind] | None = None


class ChangeRequestPdf(ApiModel):
    """Answer of ``.../pdf``: where to download the generated PDF."""

    url: str | None = None


class ChangeRequestReview(ApiModel):
    """A review (approve / request changes) of a change request."""

    object: str = "change-request-review"
    id: str
    revision: str | None = None
    reviewer: User | None = None
    requestedBy: User | None = None
    status: Open[ReviewStatus] | None = None
    outdated: bool | None = None
    comment: Comment | None = None
    createdAt: Timestamp | None = None
    updatedAt: Timestamp | None = None
    urls: Urls | None = None


class RequestedReviewer(ApiModel):
    """A user (or team) asked to review a change request."""

    object: str = "change-request-requested-reviewer"
    kind: Open[ReviewerKind] | None = None
    user: User | None = None
    team: Team | None = None
    revision: str | None = None
    requestedBy: User | None = None
    createdAt: Timestamp | None = None


class RequestedReviewersResult(ApiModel):
    """Answer of ``POST .../requested-reviewers``: the requests that were sent."""

    users: list[RequestedReviewer] = Field(default_factory=list)
