"""Every model has a sample that parses and dumps back to the same JSON, unknown fields kept."""

from __future__ import annotations

import copy
from typing import Any, get_args

import pytest
from model_samples_content import (
    BACKLINK,
    CHANGE_REQUEST,
    COMMENT,
    COMMENT_REPLY,
    COMPUTED_PAGE,
    CONTENT_UPDATE,
    FILE,
    IMPORT_RESULT,
    LINK_LIST,
    MERGE_RESULT,
    ORG_SEARCH_ITEM,
    PAGE,
    REQUESTED_REVIEWER,
    REQUESTED_TEAM,
    REVIEW,
    REVISION,
    SEMANTIC_CHANGES,
    SPACE_SEARCH_ITEM,
    TEAM,
)
from model_samples_sites import (
    ADAPTIVE_SCHEMA,
    ERROR,
    EVENT,
    EVENT_DETAIL,
    INSTALLATION,
    INTEGRATION,
    INTEGRATION_SITE_ITEM,
    INTEGRATION_SPACE_ITEM,
    INVITE,
    INVITE_RESULT,
    OPENAPI_SPEC,
    OPENAPI_VERSION,
    PUBLISHED_SITE,
    SITE,
    SITE_REDIRECT,
    SITE_SECTION,
    SITE_SPACE,
    TEMPLATE_CONDITIONS,
    TRANSLATION_SETTINGS,
    UI_RENDER,
    VERSION_CONTENT,
)
from model_samples_workspace import (
    COLLECTION,
    GUEST_MEMBER,
    MEMBER,
    ORGANIZATION,
    PERMISSION_ENTRY,
    SPACE,
    USER,
)
from pydantic import BaseModel

import gitbook_tui.models as models
from gitbook_tui.models import (
    ApiModel,
    Backlink,
    ChangeRequest,
    ChangeRequestContentChange,
    ChangeRequestContentUpdate,
    ChangeRequestPdf,
    ChangeRequestReview,
    Collection,
    Comment,
    CommentReply,
    EmailDomainOrganizations,
    ErrorBody,
    File,
    FileReference,
    ImportResult,
    Installation,
    Integration,
    IntegrationEvent,
    IntegrationEventDetail,
    IntegrationSiteItem,
    IntegrationSpaceItem,
    Invite,
    InviteResult,
    LinkList,
    Member,
    MemberSpace,
    MergeResult,
    OpenAPISpec,
    OpenAPISpecVersion,
    Organization,
    OrgInstallation,
    OrgSearchItem,
    Page,
    PermissionEntry,
    PublishCheckout,
    PublishedSite,
    RequestedReviewer,
    RequestedReviewersResult,
    Revision,
    RevisionPage,
    RevisionPages,
    RevisionSemanticChanges,
    Site,
    SiteAdaptiveSchema,
    SiteRedirect,
    SiteRedirectLookup,
    SiteSection,
    SiteSpace,
    Space,
    SpaceSearchItem,
    Team,
    TeamGrant,
    TeamMember,
    TemplateCondition,
    TranslationSettings,
    UIRenderOutput,
    User,
    VersionContent,
)

# Every model with a sample of it: each must parse and dump back to the same JSON.
CASES: list[tuple[type[BaseModel], dict[str, Any]]] = [
    (User, USER),
    (Member, MEMBER),
    (Member, GUEST_MEMBER),
    (PermissionEntry, PERMISSION_ENTRY),
    (Organization, ORGANIZATION),
    (EmailDomainOrganizations, {"organizations": [ORGANIZATION]}),
    (OrgSearchItem, ORG_SEARCH_ITEM),
    (Collection, COLLECTION),
    (Space, SPACE),
    (Revision, REVISION),
    (RevisionPage, PAGE),
    (RevisionPage, COMPUTED_PAGE),
    (RevisionPages, {"pages": [PAGE]}),
    (File, FILE),
    (LinkList, LINK_LIST),
    (Backlink, BACKLINK),
    (SpaceSearchItem, SPACE_SEARCH_ITEM),
    (ImportResult, IMPORT_RESULT),
    (RevisionSemanticChanges, SEMANTIC_CHANGES),
    (Comment, COMMENT),
    (CommentReply, COMMENT_REPLY),
    (ChangeRequest, CHANGE_REQUEST),
    (MergeResult, MERGE_RESULT),
    (ChangeRequestPdf, {"url": "https://files.example.com/cr.pdf"}),
    (ChangeRequestReview, REVIEW),
    (RequestedReviewer, REQUESTED_REVIEWER),
    (RequestedReviewer, REQUESTED_TEAM),
    (RequestedReviewersResult, {"users": [REQUESTED_REVIEWER]}),
    (ChangeRequestContentUpdate, CONTENT_UPDATE),
    (Site, SITE),
    (SiteSection, SITE_SECTION),
    (SiteSpace, SITE_SPACE),
    (SiteRedirect, SITE_REDIRECT),
    (SiteRedirectLookup, {"redirect": SITE_REDIRECT, "target": "/guides"}),
    (SiteAdaptiveSchema, ADAPTIVE_SCHEMA),
    (Page[TemplateCondition], TEMPLATE_CONDITIONS),
    (PublishedSite, PUBLISHED_SITE),
    (PublishCheckout, {"type": "checkout", "sessionId": "cs_test_a1"}),
    (Integration, INTEGRATION),
    (Installation, INSTALLATION),
    (IntegrationSpaceItem, INTEGRATION_SPACE_ITEM),
    (IntegrationSiteItem, INTEGRATION_SITE_ITEM),
    (IntegrationEvent, EVENT),
    (IntegrationEventDetail, EVENT_DETAIL),
    (UIRenderOutput, UI_RENDER),
    (OpenAPISpec, OPENAPI_SPEC),
    (OpenAPISpecVersion, OPENAPI_VERSION),
    (VersionContent, VERSION_CONTENT),
    (Team, TEAM),
    (TeamMember, {"organization": MEMBER, "team": {"role": "member"}}),
    (TeamGrant, {"permission": "edit", "team": TEAM}),
    (MemberSpace, {"permission": "comment", "space": SPACE}),
    (OrgInstallation, {"integration": INTEGRATION, "installation": INSTALLATION}),
    (Invite, INVITE),
    (InviteResult, INVITE_RESULT),
    (TranslationSettings, TRANSLATION_SETTINGS),
    (ErrorBody, ERROR),
]


def _case_id(case: tuple[type[BaseModel], dict[str, Any]]) -> str:
    return case[0].__name__


# --- every sample parses and round-trips --------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_sample_round_trips(case: tuple[type[BaseModel], dict[str, Any]]) -> None:
    model_cls, sample = case
    parsed = model_cls.model_validate(copy.deepcopy(sample))
    assert parsed.model_dump(mode="json", exclude_unset=True) == sample
    # Parsing the dump again gives an equal model.
    assert model_cls.model_validate(parsed.model_dump(mode="json")) == parsed


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_unknown_fields_are_kept_top_level(case: tuple[type[BaseModel], dict[str, Any]]) -> None:
    model_cls, sample = case
    data = {**copy.deepcopy(sample), "futureField": {"nested": [1, 2]}, "futureFlag": None}
    parsed = model_cls.model_validate(data)
    assert parsed.model_extra is not None
    assert parsed.model_extra["futureField"] == {"nested": [1, 2]}
    dumped = parsed.model_dump(mode="json")
    assert dumped["futureField"] == {"nested": [1, 2]}
    assert "futureFlag" in dumped and dumped["futureFlag"] is None
    assert parsed.model_dump_json().count("futureField") == 1


def _models_in(annotation: Any, found: set[type[BaseModel]]) -> None:
    """Collect the model classes mentioned anywhere in a field annotation."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation in found:
            return
        found.add(annotation)
        annotation.model_rebuild()  # (models build when first used: their fields resolved)
        for field in annotation.model_fields.values():
            _models_in(field.annotation, found)
        return
    for arg in get_args(annotation):
        _models_in(arg, found)


def test_every_exported_model_is_exercised_by_a_sample() -> None:
    reachable: set[type[BaseModel]] = set()
    for model_cls, _ in CASES:
        _models_in(model_cls, reachable)
    # Request bodies and helpers, tested on their own below.
    standalone = {ApiModel, Page, ChangeRequestContentChange, models.InsertFile, FileReference}
    exported = {
        getattr(models, name)
        for name in models.__all__
        if isinstance(getattr(models, name), type) and issubclass(getattr(models, name), BaseModel)
    }
    missing = {cls.__name__ for cls in exported - standalone if cls not in reachable}
    assert not missing, f"no sample reaches {sorted(missing)}"
