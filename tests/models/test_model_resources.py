"""Single resources (comments, integrations, reviewers, content changes, refs, errors) and package hygiene."""

from __future__ import annotations

import importlib
from datetime import UTC, datetime

import pytest
from model_samples_content import COMMENT, COMMENT_REPLY, REQUESTED_REVIEWER, REQUESTED_TEAM, REVIEW
from model_samples_sites import ERROR, INTEGRATION, INTEGRATION_SITE_ITEM, INTEGRATION_SPACE_ITEM
from model_samples_workspace import MEMBER, SPACE
from pydantic import BaseModel, ValidationError

import gitbook_tui.models as models
from gitbook_tui.models import (
    ApiModel,
    ChangeRequest,
    ChangeRequestContentChange,
    ChangeRequestReview,
    Collection,
    Comment,
    CommentReply,
    CommentStatus,
    ContentChangeOperation,
    ContentRef,
    ContentRefKind,
    ErrorBody,
    FileReference,
    Integration,
    IntegrationSiteItem,
    IntegrationSpaceItem,
    Member,
    Page,
    RequestedReviewer,
    ReviewerKind,
    Site,
    Space,
    User,
)

# --- individual resources -----------------------------------------------------------------------------


def test_comment_body_forms() -> None:
    comment = Comment.model_validate(COMMENT)
    assert comment.body.markdown == "Should this say **Acme**?"
    assert comment.is_resolved
    assert comment.resolvedBy is not None and comment.resolvedBy.id == "u_bob"
    assert comment.reactions[0].users[0].user is not None
    assert comment.target is not None and comment.target.page is not None
    assert comment.target.page.outdated is False

    reply = CommentReply.model_validate(COMMENT_REPLY)
    assert reply.body.is_empty
    assert reply.body.model_dump(mode="json") == {}

    document = {"object": "document", "data": {}, "nodes": []}
    json_form = Comment.model_validate({**COMMENT, "body": {"document": document}})
    assert json_form.body.document == document and json_form.body.markdown is None

    open_comment = Comment.model_validate({"object": "comment", "id": "c2", "status": "open"})
    assert open_comment.status is CommentStatus.open and not open_comment.is_resolved


def test_required_identity_fields() -> None:
    with pytest.raises(ValidationError):
        Space.model_validate({"object": "space", "title": "No id"})
    with pytest.raises(ValidationError):
        Collection.model_validate({"object": "collection", "id": "c"})  # title required
    with pytest.raises(ValidationError):
        Integration.model_validate({"object": "integration", "title": "No name"})
    # Everything else is optional: minimal objects parse.
    assert Site.model_validate({"id": "s"}).features == []
    assert ChangeRequest.model_validate({"id": "cr"}).status is None
    assert User.model_validate({"id": "u"}).object == "user"


def test_object_field_is_a_plain_string() -> None:
    odd = Space.model_validate({**SPACE, "object": "space-v2"})
    assert odd.object == "space-v2"
    assert Space.model_validate({k: v for k, v in SPACE.items() if k != "object"}).object == "space"


def test_integration_items_hold_an_id_or_the_full_object() -> None:
    by_id = IntegrationSpaceItem.model_validate(INTEGRATION_SPACE_ITEM)
    assert by_id.space == "sp_1"
    detailed = IntegrationSpaceItem.model_validate({**INTEGRATION_SPACE_ITEM, "space": SPACE})
    assert isinstance(detailed.space, Space) and detailed.space.title == "Handbook"
    site_item = IntegrationSiteItem.model_validate(INTEGRATION_SITE_ITEM)
    assert isinstance(site_item.site, Site)


def test_integration_details() -> None:
    integration = Integration.model_validate(INTEGRATION)
    assert integration.owner is not None and integration.owner.title == "Acme"
    assert integration.configurations is not None
    assert integration.configurations.account is not None
    channel = integration.configurations.account.properties["channel"]
    assert channel.enum == ["general", "docs"] and channel.default == "general"
    assert integration.blocks[0].markdown is not None
    assert integration.blocks[0].markdown.codeblock == "slack"
    assert integration.contentSources[0].configuration == {"componentId": "configure"}


def test_requested_reviewers_user_and_team() -> None:
    user_request = RequestedReviewer.model_validate(REQUESTED_REVIEWER)
    assert user_request.user is not None and user_request.user.id == "u_bob"
    team_request = RequestedReviewer.model_validate(REQUESTED_TEAM)
    assert team_request.kind is ReviewerKind.team
    assert team_request.team is not None and team_request.team.id == "team_1"
    review = ChangeRequestReview.model_validate(REVIEW)
    assert review.comment is not None and review.comment.status is CommentStatus.open


def test_change_request_content_change_helpers() -> None:
    update = ChangeRequestContentChange.update_markdown("pg_intro", "# Hi\n")
    assert update.to_api() == {
        "operation": "update_page",
        "page": "pg_intro",
        "document": {"markdown": "# Hi\n"},
    }
    insert = ChangeRequestContentChange.insert_markdown("New", "Body", into="pg_intro", at=0)
    assert insert.to_api() == {
        "operation": "insert_page",
        "title": "New",
        "document": {"markdown": "Body"},
        "into": "pg_intro",
        "at": 0,
    }
    assert ChangeRequestContentChange.insert_markdown("Top", "x").to_api() == {
        "operation": "insert_page",
        "title": "Top",
        "document": {"markdown": "x"},
    }
    assert ChangeRequestContentChange.delete("pg_old").to_api() == {
        "operation": "delete_page",
        "page": "pg_old",
    }
    move_to_root = ChangeRequestContentChange(operation="update_page", page="pg_x", into=None)
    assert move_to_root.to_api() == {"operation": "update_page", "page": "pg_x", "into": None}
    parsed = ChangeRequestContentChange.model_validate(
        {
            "operation": "insert_files",
            "files": [{"ref": "a.png", "name": "a.png", "url": "https://example.com/a.png"}],
        }
    )
    assert parsed.operation is ContentChangeOperation.insert_files
    assert parsed.files is not None and parsed.files[0].name == "a.png"
    future = ChangeRequestContentChange.model_validate({"operation": "rename_space"})
    assert future.operation == "rename_space"


def test_content_refs() -> None:
    ref = FileReference(file="file_1")
    assert ref.to_api() == {"kind": "file", "file": "file_1"}
    openapi_ref = ContentRef.model_validate({"kind": "openapi", "spec": "petstore"})
    assert openapi_ref.kind is ContentRefKind.openapi and openapi_ref.spec == "petstore"
    other = ContentRef.model_validate({"kind": "hologram", "hologram": "h1"})
    assert other.kind == "hologram" and other.model_extra == {"hologram": "h1"}


def test_error_body() -> None:
    error = ErrorBody.model_validate(ERROR)
    assert error.error.code == 404 and error.error.message == "Space not found"
    assert ErrorBody.of(400, "Bad input").to_api() == {
        "error": {"code": 400, "message": "Bad input"}
    }
    with pytest.raises(ValidationError):
        ErrorBody.model_validate({"message": "no error key"})


def test_datetimes_are_parsed() -> None:
    space = Space.model_validate(SPACE)
    assert space.createdAt == datetime(2024, 5, 1, 10, 0, tzinfo=UTC)
    assert not space.is_deleted
    deleted = Space.model_validate({**SPACE, "deletedAt": "2024-06-01T00:00:00.000Z"})
    assert deleted.is_deleted
    member = Member.model_validate(MEMBER)
    assert member.lastSeenAt == datetime(2024, 5, 2, 11, 30, tzinfo=UTC)


# --- package hygiene ------------------------------------------------------------------------------------

MODULES = [
    "common",
    "users",
    "organizations",
    "collections",
    "spaces",
    "revisions",
    "links",
    "search",
    "semantic_changes",
    "content_edits",
    "comments",
    "change_requests",
    "sites",
    "integrations",
    "openapi_specs",
    "org_admin",
    "errors",
]


@pytest.mark.parametrize("name", MODULES)
def test_module_docstring_and_reexports(name: str) -> None:
    module = importlib.import_module(f"gitbook_tui.models.{name}")
    assert module.__doc__ and "\n" not in module.__doc__.strip()
    for public in module.__all__:
        assert getattr(models, public) is getattr(module, public), public
        assert public in models.__all__


@pytest.mark.slow
def test_every_model_builds_a_json_schema() -> None:
    count = 0
    for name in models.__all__:
        obj = getattr(models, name)
        if isinstance(obj, type) and issubclass(obj, BaseModel) and obj is not Page:
            obj.model_json_schema(mode="validation")
            obj.model_json_schema(mode="serialization")
            count += 1
    assert count > 100
    schema = Page[Space].model_json_schema()
    assert "items" in schema["properties"] and "next" in schema["properties"]


def test_all_models_share_the_base() -> None:
    for name in models.__all__:
        obj = getattr(models, name)
        if isinstance(obj, type) and issubclass(obj, BaseModel):
            assert issubclass(obj, ApiModel), name
            assert obj.model_config.get("extra") == "allow", name
