"""Routes for change request reviews and requested reviewers."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Response
from pydantic import Field

from ..change_requests.schemas import DescriptionDocument, MessageIn
from ..change_requests.views import cr_location, description_document
from ..change_requests.views import ensure_active as _ensure_active
from ..change_requests.views import load_cr as _load
from ..change_requests.views import touch as _touch
from ..content.official_document import to_markdown
from ..core.checks import check_body_length
from ..core.context import Ctx, CtxDep
from ..core.errors import bad_request, forbidden, not_found
from ..core.idempotency import OnceDep
from ..core.pagination import PagingParams, paginate
from ..core.permissions import at_least, member_of, require, space_role
from ..core.resources import user_ref
from ..core.schemas import Body
from ..core.storage import Tx

router = APIRouter(tags=["change-requests"])


class ReviewCreate(Body):
    status: Literal["approved", "changes-requested"]
    comment: MessageIn | None = None


class RequestReviewers(Body):
    users: list[str] = Field(min_length=1, max_length=50)
    subject: str | None = Field(None, max_length=100)
    description: DescriptionDocument | None = None


# -- reviews ----------------------------------------------------------------------------------


def _review_outdated(tx: Tx, cr: dict[str, Any], review: dict[str, Any]) -> bool:
    if review.get("revision") != cr["revision"]:
        return True
    for other in tx.list("review", cr["id"]):
        if other["reviewer"] == review["reviewer"] and other.get("seq", 0) > review.get("seq", 0):
            return True
    request = tx.get("requested-reviewer", f"{cr['id']}:{review['reviewer']}")
    return bool(request and request.get("createdAt", "") > review["createdAt"])


def review_json(
    tx: Tx, ctx: Ctx, space: dict[str, Any], cr: dict[str, Any], review: dict[str, Any]
) -> dict[str, Any]:
    location = f"{cr_location(ctx, cr)}/reviews/{review['id']}"
    body: dict[str, Any] = {
        "object": "change-request-review",
        "id": review["id"],
        "revision": review["revision"],
        "reviewer": user_ref(tx, ctx, review["reviewer"]),
        "status": review["status"],
        "outdated": _review_outdated(tx, cr, review),
        "createdAt": review["createdAt"],
        "updatedAt": review.get("updatedAt", review["createdAt"]),
        "urls": {"location": location},
    }
    if review.get("requestedBy"):
        body["requestedBy"] = user_ref(tx, ctx, review["requestedBy"])
    if review.get("comment") is not None:
        role = space_role(tx, space, ctx.user_id)
        mine = review["reviewer"] == ctx.user_id
        body["comment"] = {
            "object": "comment",
            "id": review["commentId"],
            "postedBy": user_ref(tx, ctx, review["reviewer"]),
            "postedAt": review["createdAt"],
            "reactions": [],
            "replies": 0,
            "repliers": [],
            "body": review["comment"],
            "status": "open",
            "target": {
                "space": space["id"],
                "revision": review["revision"],
                "changeRequest": cr["id"],
                "review": review["id"],
            },
            "urls": {"location": location},
            "permissions": {
                "view": True,
                "edit": mine,
                "reply": at_least(role, "comment"),
                "delete": mine or at_least(role, "admin"),
            },
        }
    return body


@router.get("/spaces/{spaceId}/change-requests/{changeRequestId}/reviews")
def list_reviews(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    paging: PagingParams,
    outdated: bool | None = None,
) -> dict[str, Any]:
    """Reviews of the change request, newest first."""
    with ctx.read() as tx:
        space, _, cr = _load(tx, ctx, spaceId, changeRequestId)
        reviews = list(reversed(tx.list("review", cr["id"])))
        if outdated is not None:
            reviews = [r for r in reviews if _review_outdated(tx, cr, r) == outdated]
        return paginate(reviews, paging, lambda r: review_json(tx, ctx, space, cr, r))


@router.get("/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}")
def get_review(ctx: CtxDep, spaceId: str, changeRequestId: str, reviewId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        space, _, cr = _load(tx, ctx, spaceId, changeRequestId)
        review = tx.get("review", reviewId)
        if review is None or review.get("changeRequest") != cr["id"]:
            raise not_found("Review", reviewId)
        return review_json(tx, ctx, space, cr, review)


@router.post("/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", status_code=201)
def submit_review(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    body: ReviewCreate,
    response: Response,
    once: OnceDep,
) -> dict[str, Any]:
    with ctx.write() as tx:
        if (earlier := once.earlier(tx, body)) is not None:
            response.headers["Location"] = earlier["urls"]["location"]
            return earlier
        space, _, cr = _load(tx, ctx, spaceId, changeRequestId, "review")
        if cr["createdBy"] == ctx.user_id:
            raise forbidden("The author of a change request cannot review it.")
        _ensure_active(cr, "reviewed")
        comment = None
        if body.comment is not None:
            if body.comment.document is not None:
                check_body_length(to_markdown(body.comment.document), "comment.document")
            given = body.comment.model_dump(exclude_none=True)
            comment = given or None
        now = ctx.now()
        request = tx.get("requested-reviewer", f"{cr['id']}:{ctx.user_id}")
        review = {
            "id": ctx.new_id(),
            "changeRequest": cr["id"],
            "space": spaceId,
            "revision": cr["revision"],
            "reviewer": ctx.user_id,
            "requestedBy": request["requestedBy"] if request else None,
            "status": body.status,
            "comment": comment,
            "commentId": ctx.new_id() if comment is not None else None,
            "createdAt": now,
            "updatedAt": now,
            "seq": tx.next_number(f"review:{cr['id']}"),
        }
        tx.put("review", review["id"], review, scope=cr["id"])
        response.headers["Location"] = f"{cr_location(ctx, cr)}/reviews/{review['id']}"
        return once.remember(tx, body, review_json(tx, ctx, space, cr, review))


# -- requested reviewers ------------------------------------------------------------------------


def requested_reviewer_json(tx: Tx, ctx: Ctx, entry: dict[str, Any]) -> dict[str, Any]:
    """A requested user, or a requested team (``team`` entries: the demo seeds them)."""
    if entry.get("team"):
        team = tx.get("team", entry["team"]) or {}
        who: dict[str, Any] = {
            "kind": "team",
            "team": {"object": "team", "id": entry["team"], "title": team.get("title", "")},
        }
    else:
        who = {"kind": "user", "user": user_ref(tx, ctx, entry["user"])}
    return {
        "object": "change-request-requested-reviewer",
        **who,
        "revision": entry["revision"],
        "requestedBy": user_ref(tx, ctx, entry["requestedBy"]),
        "createdAt": entry["createdAt"],
    }


@router.get("/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers")
def list_requested_reviewers(
    ctx: CtxDep, spaceId: str, changeRequestId: str, paging: PagingParams
) -> dict[str, Any]:
    with ctx.read() as tx:
        _, _, cr = _load(tx, ctx, spaceId, changeRequestId)
        entries = tx.list("requested-reviewer", cr["id"])
        return paginate(entries, paging, lambda e: requested_reviewer_json(tx, ctx, e))


@router.post("/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers")
def request_reviewers(
    ctx: CtxDep, spaceId: str, changeRequestId: str, body: RequestReviewers
) -> dict[str, Any]:
    """Ask users to review; a draft change request becomes ``open``."""
    with ctx.write() as tx:
        space, role, cr = _load(tx, ctx, spaceId, changeRequestId)
        if cr["createdBy"] != ctx.user_id:
            require(role, "edit", "Space", spaceId)
        _ensure_active(cr, "sent for review")
        for user_id in dict.fromkeys(body.users):
            if (
                tx.get("user", user_id) is None
                or member_of(tx, space["organization"], user_id) is None
            ):
                raise bad_request(f"users: '{user_id}' is not a member of the organization")
            if not at_least(space_role(tx, space, user_id), "review"):
                raise bad_request(
                    f"users: '{user_id}' cannot review this space (needs at least 'review')"
                )
            if user_id == cr["createdBy"]:
                raise bad_request(
                    f"users: '{user_id}' is the author and cannot review this change request"
                )
        now = ctx.now()
        sent = []
        for user_id in dict.fromkeys(body.users):
            entry = {
                "id": f"{cr['id']}:{user_id}",
                "changeRequest": cr["id"],
                "user": user_id,
                "revision": cr["revision"],
                "requestedBy": ctx.user_id,
                "createdAt": now,
            }
            tx.put("requested-reviewer", entry["id"], entry, scope=cr["id"])
            sent.append(entry)
        if body.subject is not None:
            cr["subject"] = body.subject
        if body.description is not None:
            cr["description"] = description_document(body.description)
        if cr["status"] == "draft":
            cr["status"] = "open"
        _touch(tx, cr, now)
        return {"users": [requested_reviewer_json(tx, ctx, e) for e in sent]}


@router.delete(
    "/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}",
    status_code=205,
)
def remove_requested_reviewer(
    ctx: CtxDep, spaceId: str, changeRequestId: str, userId: str
) -> Response:
    """205 when the request was removed, 204 when there was none (as the openapi says)."""
    with ctx.write() as tx:
        _, role, cr = _load(tx, ctx, spaceId, changeRequestId)
        if ctx.user_id not in (cr["createdBy"], userId):
            require(role, "edit", "Space", spaceId)
        removed = tx.delete("requested-reviewer", f"{cr['id']}:{userId}")
    return Response(status_code=205 if removed else 204)
