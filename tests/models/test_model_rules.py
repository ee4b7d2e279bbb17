"""Rules every model follows: unknown fields kept deep down, open enums, recursion, paged lists."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import pytest
from model_samples_content import (
    CHANGE_REQUEST,
    COMMENT,
    COMMENT_REPLY,
    COMPUTED_PAGE,
    LINK_LIST,
    MERGE_RESULT,
    PAGE,
    REQUESTED_REVIEWER,
    REVIEW,
    REVISION,
    SEMANTIC_CHANGES,
)
from model_samples_sites import (
    EVENT,
    EVENT_DETAIL,
    INSTALLATION,
    INTEGRATION,
    INVITE,
    OPENAPI_SPEC,
    PUBLISHED_SITE,
    SITE,
    SITE_SPACE,
    UI_RENDER,
)
from model_samples_workspace import (
    COLLECTION,
    GUEST_MEMBER,
    MEMBER,
    ORGANIZATION,
    PERMISSION_ENTRY,
    SPACE,
)
from pydantic import BaseModel, ValidationError

import gitbook_tui.models as models
from gitbook_tui.models import (
    ChangeRequest,
    ChangeRequestReview,
    ChangeRequestStatus,
    Collection,
    Comment,
    CommentStatus,
    ContentRefKind,
    CoverSize,
    EditMode,
    EventStatus,
    Installation,
    InstallationStatus,
    Integration,
    IntegrationEvent,
    IntegrationEventDetail,
    IntegrationTarget,
    Invite,
    LinkList,
    LinkStatus,
    LogLevel,
    Member,
    MergeResult,
    MergeResultKind,
    OpenAPISpec,
    Organization,
    OrganizationType,
    Page,
    PageType,
    PermissionEntry,
    ProcessErrorCode,
    ProcessingState,
    PublishedSite,
    RequestedReviewer,
    ReviewerKind,
    ReviewStatus,
    Revision,
    RevisionPage,
    RevisionSemanticChanges,
    RevisionType,
    Role,
    SemanticChangeType,
    Site,
    SiteSection,
    SiteSectionGroup,
    SiteSpace,
    SiteType,
    SiteVisibility,
    Space,
    SpaceVisibility,
    UIButton,
    UIElement,
    UIRenderOutput,
    User,
)

# --- unknown fields, deeper -----------------------------------------------------------------------------


def test_unknown_fields_are_kept_in_nested_objects() -> None:
    data = copy.deepcopy(SPACE)
    data["urls"]["preview2"] = "https://preview.example.com"
    data["permissions"]["installIntegration"] = True
    data["permissions"]["teleport"] = False
    data["gitSync"]["branch"] = "main"
    space = Space.model_validate(data)
    assert space.urls is not None and space.urls.model_extra == {
        "preview2": "https://preview.example.com"
    }
    assert space.permissions is not None and space.permissions.installIntegration is True
    dumped = space.model_dump(mode="json")
    assert dumped["urls"]["preview2"] == "https://preview.example.com"
    assert dumped["permissions"]["teleport"] is False
    assert dumped["gitSync"]["branch"] == "main"


def test_unknown_fields_in_list_items_and_recursive_pages() -> None:
    data = copy.deepcopy(REVISION)
    data["pages"][0]["pages"][0]["pages"][0]["newThing"] = {"x": 1}
    data["files"][0]["checksum"] = "sha256:abc"
    revision = Revision.model_validate(data)
    deepest = revision.pages[0].pages[0].pages[0]
    assert deepest.model_extra == {"newThing": {"x": 1}}
    dumped = revision.model_dump(mode="json")
    assert dumped["pages"][0]["pages"][0]["pages"][0]["newThing"] == {"x": 1}
    assert dumped["files"][0]["checksum"] == "sha256:abc"


def test_dump_leaves_out_fields_never_given_but_keeps_explicit_null() -> None:
    member = Member.model_validate(GUEST_MEMBER)
    dumped = member.model_dump(mode="json")
    assert dumped["role"] is None  # explicit null (guest) is kept
    assert "joinedAt" not in dumped  # never given: not invented as null
    assert dumped["object"] == "member"
    built = Space(id="sp_9", title="Built")
    assert built.to_api() == {"object": "space", "id": "sp_9", "title": "Built"}


# --- open enums ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model_cls", "sample", "field", "member"),
    [
        (Member, MEMBER, "role", Role.admin),
        (PermissionEntry, PERMISSION_ENTRY, "permission", Role.edit),
        (Organization, ORGANIZATION, "type", OrganizationType.business),
        (Organization, ORGANIZATION, "defaultRole", Role.read),
        (Space, SPACE, "visibility", SpaceVisibility.in_collection),
        (Space, SPACE, "editMode", EditMode.live),
        (Comment, COMMENT, "status", CommentStatus.resolved),
        (ChangeRequest, CHANGE_REQUEST, "status", ChangeRequestStatus.open),
        (MergeResult, MERGE_RESULT, "result", MergeResultKind.merge),
        (ChangeRequestReview, REVIEW, "status", ReviewStatus.changes_requested),
        (RequestedReviewer, REQUESTED_REVIEWER, "kind", ReviewerKind.user),
        (Revision, REVISION, "type", RevisionType.merge),
        (RevisionPage, PAGE, "type", PageType.document),
        (Site, SITE, "type", SiteType.basic),
        (Site, SITE, "visibility", SiteVisibility.share_link),
        (Integration, INTEGRATION, "target", IntegrationTarget.all),
        (Installation, INSTALLATION, "status", InstallationStatus.active),
        (IntegrationEvent, EVENT, "status", EventStatus.success),
        (OpenAPISpec, OPENAPI_SPEC, "processingState", ProcessingState.pending),
        (OpenAPISpec, OPENAPI_SPEC, "lastProcessErrorCode", ProcessErrorCode.FETCH_TIMEOUT),
        (Invite, INVITE, "role", Role.comment),
    ],
)
def test_open_enum_known_and_unknown_values(
    model_cls: type[BaseModel], sample: dict[str, Any], field: str, member: StrEnum
) -> None:
    known = model_cls.model_validate(sample)
    value = getattr(known, field)
    assert value is member
    assert isinstance(value, type(member))

    odd = model_cls.model_validate({**sample, field: "brand-new-value"})
    odd_value = getattr(odd, field)
    assert odd_value == "brand-new-value"
    assert type(odd_value) is str
    assert odd.model_dump(mode="json")[field] == "brand-new-value"
    assert odd.model_dump_json().count('"brand-new-value"') == 1


def test_open_enum_in_nested_and_list_positions() -> None:
    page = RevisionPage.model_validate(PAGE)
    assert isinstance(page.layout, models.PageLayout)
    assert page.layout.coverSize is CoverSize.hero
    assert page.cover is not None and page.cover.ref is not None
    assert page.cover.ref.kind is ContentRefKind.file

    links = LinkList.model_validate(LINK_LIST)
    assert links.items[0].status is LinkStatus.broken
    assert links.items[1].status is LinkStatus.in_app

    changes = RevisionSemanticChanges.model_validate(SEMANTIC_CHANGES)
    assert [c.type for c in changes.changes[:4]] == [
        SemanticChangeType.page_created,
        SemanticChangeType.page_edited,
        SemanticChangeType.page_moved,
        SemanticChangeType.file_edited,
    ]
    assert changes.changes[4].type == "page_renamed_someday"
    assert changes.changes[4].page is not None and changes.changes[4].page.type == "folder"

    detail = IntegrationEventDetail.model_validate(EVENT_DETAIL)
    assert detail.trace is not None
    assert detail.trace.logs[0].level is LogLevel.debug
    assert detail.trace.logs[1].level == "trace"
    assert detail.event is not None and detail.event.payload is not None
    assert detail.event.payload.previous is not None
    assert detail.event.payload.previous.status is InstallationStatus.pending


def test_nullable_roles_accept_null_and_unknown_values() -> None:
    assert Collection.model_validate(COLLECTION).defaultLevel is None
    assert Space.model_validate(SPACE).defaultLevel == "inherit"
    assert Space.model_validate({**SPACE, "defaultLevel": "review"}).defaultLevel is Role.review
    assert Member.model_validate(GUEST_MEMBER).role is None


def test_open_enum_rejects_non_strings() -> None:
    with pytest.raises(ValidationError) as info:
        Member.model_validate({**MEMBER, "role": 5})
    assert info.value.errors()[0]["type"] == "open_enum"
    with pytest.raises(ValidationError):
        Space.model_validate({**SPACE, "visibility": ["public"]})


def test_coerce_open_enum_directly() -> None:
    assert models.coerce_open_enum(Role, "admin") is Role.admin
    assert models.coerce_open_enum(Role, Role.read) is Role.read
    assert models.coerce_open_enum(Role, "owner") == "owner"


def test_open_enum_accepts_members_when_building_models() -> None:
    cr = ChangeRequest(id="cr_9", status=ChangeRequestStatus.merged)
    assert cr.status is ChangeRequestStatus.merged
    assert cr.to_api()["status"] == "merged"


# --- recursion -------------------------------------------------------------------------------------------


def test_pages_nest_recursively() -> None:
    revision = Revision.model_validate(REVISION)
    intro = revision.pages[0]
    assert intro.title == "Introduction"
    assert [p.id for p in intro.pages] == ["pg_setup", "pg_link"]
    setup = intro.pages[0]
    assert isinstance(setup, RevisionPage)
    assert setup.pages[0].id == "pg_linux"
    assert setup.pages[0].pages == []
    assert [p.id for p in revision.walk_pages()] == [
        "pg_intro",
        "pg_setup",
        "pg_linux",
        "pg_link",
        "pg_api",
    ]
    link = intro.pages[1]
    assert link.type is PageType.link
    assert link.target is not None and link.target.url == "https://acme.example.com"
    assert link.pages == []


def test_page_body_and_metadata() -> None:
    page = RevisionPage.model_validate(PAGE)
    assert page.markdown is not None and page.markdown.startswith("# Introduction")
    assert page.createdAt == datetime(2024, 5, 1, 10, 0, tzinfo=UTC)
    assert page.variables == {"product": "Acme", "version": 2, "beta": True}
    assert page.git is not None and page.git.path == "intro.md"
    computed = RevisionPage.model_validate(COMPUTED_PAGE)
    assert computed.computed is not None
    assert computed.computed.type == "builtin:openapi"
    assert computed.computed.props == {"doc": "models"}


def test_revision_variants_and_merged_from() -> None:
    revision = Revision.model_validate(REVISION)
    assert revision.mergedFrom is not None and revision.mergedFrom.number == 12
    assert revision.files[0].dimensions is not None
    assert revision.files[0].dimensions.width == 1200
    assert revision.git is not None and revision.git.createdByGitBook is True
    edits = Revision.model_validate({"object": "revision", "id": "r", "type": "edits"})
    assert edits.type is RevisionType.edits
    assert edits.pages == [] and edits.files == [] and edits.parents == []


def test_site_structure_items_are_told_apart_by_object() -> None:
    data = copy.deepcopy(PUBLISHED_SITE)
    data["structure"]["structure"].append(
        {
            "object": "site-section-group",
            "id": "grp_1",
            "title": "Products",
            "children": [{"object": "site-section", "id": "sec_2", "title": "API"}],
        }
    )
    published = PublishedSite.model_validate(data)
    assert published.structure is not None
    first, group = published.structure.structure
    assert isinstance(first, SiteSection)
    assert isinstance(first.siteSpaces[0], SiteSpace)
    assert isinstance(first.siteSpaces[0].space, Space)
    assert isinstance(group, SiteSectionGroup)
    assert isinstance(group.children[0], SiteSection)

    spaces_only = PublishedSite.model_validate(
        {
            "object": "published-content-site",
            "structure": {"type": "siteSpaces", "structure": [SITE_SPACE]},
        }
    )
    assert spaces_only.structure is not None
    assert isinstance(spaces_only.structure.structure[0], SiteSpace)

    assert published.customizations is not None
    assert published.customizations.site is not None
    assert published.customizations.site.styling is not None
    assert published.customizations.site.styling["theme"] == "clean"
    assert "ss_1" in published.customizations.siteSpaces


def test_ui_render_tree() -> None:
    output = UIRenderOutput.model_validate(UI_RENDER)
    assert output.element is not None
    button, text = output.element.children
    assert isinstance(button, UIButton)
    assert button.label == "Refresh" and button.confirm is not None
    assert button.confirm.style == "danger"
    assert isinstance(text, UIElement) and not isinstance(text, UIButton)
    assert isinstance(text.children[0], UIButton)
    assert output.element.controls[0] == models.UIControl.model_validate(
        UI_RENDER["element"]["controls"][0]
    )


# --- paged lists ---------------------------------------------------------------------------------------


def test_page_parses_next_cursor() -> None:
    page = Page[Space].model_validate({"items": [SPACE], "count": 25, "next": {"page": "cursor-2"}})
    assert isinstance(page.items[0], Space)
    assert page.count == 25
    assert page.next is not None and page.next.page == "cursor-2"
    assert page.next_page == "cursor-2"


def test_page_without_next_is_the_last_page() -> None:
    page = Page[Comment].model_validate({"items": [COMMENT, COMMENT_REPLY | {"object": "comment"}]})
    assert page.next is None and page.next_page is None
    assert page.count is None
    assert len(page.items) == 2
    assert Page[User].model_validate({}).items == []


def test_page_items_are_validated() -> None:
    with pytest.raises(ValidationError):
        Page[Space].model_validate({"items": [{"object": "space"}]})  # no id, no title


def test_link_list_stats() -> None:
    links = LinkList.model_validate(LINK_LIST)
    assert links.next_page == "links-2"
    assert links.stats is not None and links.stats.broken is not None
    assert links.stats.total == 40
    assert links.stats.broken.changeRequest == 1
    location = links.items[0].locationReferences[0]
    assert location.versionContext is not None and location.versionContext.revision == "rev_2"
