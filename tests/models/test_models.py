"""Tests of the API models: parsing samples of every resource, extras, open enums, recursion."""

from __future__ import annotations

import copy
import importlib
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, get_args

import pytest
from pydantic import BaseModel, ValidationError

import gitbook_tui.models as models
from gitbook_tui.models import (
    ApiModel,
    Backlink,
    ChangeRequest,
    ChangeRequestContentChange,
    ChangeRequestContentUpdate,
    ChangeRequestPdf,
    ChangeRequestReview,
    ChangeRequestStatus,
    Collection,
    Comment,
    CommentReply,
    CommentStatus,
    ContentChangeOperation,
    ContentRef,
    ContentRefKind,
    CoverSize,
    EditMode,
    EmailDomainOrganizations,
    ErrorBody,
    EventStatus,
    File,
    FileReference,
    ImportResult,
    Installation,
    InstallationStatus,
    Integration,
    IntegrationEvent,
    IntegrationEventDetail,
    IntegrationSiteItem,
    IntegrationSpaceItem,
    IntegrationTarget,
    Invite,
    InviteResult,
    LinkList,
    LinkStatus,
    LogLevel,
    Member,
    MergeResult,
    MergeResultKind,
    OpenAPISpec,
    OpenAPISpecVersion,
    Organization,
    OrganizationType,
    OrgSearchItem,
    Page,
    PageType,
    PermissionEntry,
    ProcessErrorCode,
    ProcessingState,
    PublishedSite,
    RequestedReviewer,
    RequestedReviewersResult,
    ReviewerKind,
    ReviewStatus,
    Revision,
    RevisionPage,
    RevisionPages,
    RevisionSemanticChanges,
    RevisionType,
    Role,
    SemanticChangeType,
    Site,
    SiteAdaptiveSchema,
    SiteRedirect,
    SiteRedirectLookup,
    SiteSection,
    SiteSectionGroup,
    SiteSpace,
    SiteType,
    SiteVisibility,
    Space,
    SpaceSearchItem,
    SpaceVisibility,
    Team,
    TemplateCondition,
    TranslationSettings,
    UIButton,
    UIElement,
    UIRenderOutput,
    User,
    VersionContent,
)

# --- samples (written from the workspace specification and the public GitBook OpenAPI) ---------------

TS = "2024-05-01T10:00:00Z"
TS2 = "2024-05-02T11:30:00Z"

USER: dict[str, Any] = {
    "object": "user",
    "id": "u_alice",
    "displayName": "Alice Doe",
    "email": "alice@example.com",
    "photoURL": "https://example.com/alice.png",
    "urls": {"location": "https://api.example.com/v1/users/u_alice"},
}
USER_BOB: dict[str, Any] = {
    "object": "user",
    "id": "u_bob",
    "displayName": "Bob",
    "urls": {"location": "https://api.example.com/v1/users/u_bob"},
}

MEMBER: dict[str, Any] = {
    "object": "member",
    "id": "u_alice",
    "role": "admin",
    "user": USER,
    "disabled": False,
    "joinedAt": TS,
    "lastSeenAt": TS2,
    "sso": False,
    "spaces": 4,
    "teams": 1,
}

GUEST_MEMBER: dict[str, Any] = {"object": "member", "id": "u_bob", "role": None, "user": USER_BOB}

PERMISSION_ENTRY: dict[str, Any] = {"permission": "edit", "user": USER_BOB}

ORGANIZATION: dict[str, Any] = {
    "object": "organization",
    "id": "org_1",
    "title": "Acme",
    "createdAt": TS,
    "emailDomains": ["example.com"],
    "hostname": "acme",
    "type": "business",
    "useCase": "productDocs",
    "defaultRole": "read",
    "defaultContent": {"type": "site", "site": "site_1"},
    "sso": False,
    "ai": True,
    "inviteLinks": True,
    "plan": "pro_2024",
    "billing": {
        "interval": "yearly",
        "endDate": TS2,
        "hasPaymentFailed": False,
        "isScheduledToCancel": False,
    },
    "urls": {
        "location": "https://api.example.com/v1/orgs/org_1",
        "app": "https://app.example.com/o/org_1",
        "logo": "https://example.com/logo.png",
    },
    "trial": {"status": "ended", "endDate": TS2, "decision": "downgrade"},
    "customHostname": "docs.acme.dev",
    "blocked": {"reason": "abuse"},
    "internal_billingMigration": {"deadline": TS2, "discountPercent": 12.5, "discountEndDate": TS2},
    "permissions": {
        "view": True,
        "admin": True,
        "ownTeam": False,
        "createContent": True,
        "createOpenAPISpec": True,
        "ingestConversations": False,
        "viewBilling": True,
        "listMembers": True,
        "listTeams": True,
        "listIntegrations": True,
    },
}

COLLECTION: dict[str, Any] = {
    "object": "collection",
    "id": "col_1",
    "title": "Guides",
    "description": "All our guides",
    "organization": "org_1",
    "parent": "col_0",
    "defaultLevel": None,
    "urls": {
        "location": "https://api.example.com/v1/collections/col_1",
        "app": "https://app.example.com/o/org_1/c/col_1",
    },
    "permissions": {"view": True, "admin": True, "viewInviteLinks": False, "create": True},
}

SPACE: dict[str, Any] = {
    "object": "space",
    "id": "sp_1",
    "title": "Handbook",
    "emoji": "1f4d6",
    "visibility": "in-collection",
    "createdAt": TS,
    "updatedAt": TS2,
    "editMode": "live",
    "urls": {
        "location": "https://api.example.com/v1/spaces/sp_1",
        "app": "https://app.example.com/s/sp_1",
        "published": "https://acme.example.com/handbook",
        "public": "https://acme.example.com/handbook",
        "icon": "https://example.com/icon.png",
    },
    "organization": "org_1",
    "parent": "col_1",
    "gitSync": {
        "repoName": "acme/handbook",
        "installationProvider": "github",
        "integration": "github",
        "url": "https://github.com/acme/handbook",
        "updatedAt": TS2,
    },
    "visitorAuth": {"backend": "custom"},
    "revision": "rev_2",
    "defaultLevel": "inherit",
    "comments": 3,
    "changeRequests": 5,
    "changeRequestsOpen": 2,
    "changeRequestsDraft": 1,
    "permissions": {
        "view": True,
        "access": True,
        "admin": False,
        "viewInviteLinks": False,
        "edit": True,
        "triggerGitSync": False,
        "comment": True,
        "merge": False,
        "review": True,
    },
}

PAGE: dict[str, Any] = {
    "id": "pg_intro",
    "title": "Introduction",
    "emoji": "1f44b",
    "createdAt": TS,
    "updatedAt": TS2,
    "kind": "sheet",
    "type": "document",
    "markdown": "# Introduction\n\nWelcome to the handbook.\n",
    "urls": {"app": "https://app.example.com/s/sp_1/intro"},
    "slug": "intro",
    "path": "intro",
    "description": "Start here",
    "documentId": "doc_1",
    "git": {"oid": "abc123", "path": "intro.md"},
    "layout": {
        "cover": True,
        "coverSize": "hero",
        "title": True,
        "description": True,
        "tableOfContents": True,
        "outline": True,
        "pagination": True,
    },
    "cover": {"ref": {"kind": "file", "file": "file_cover"}, "refDark": None, "yPos": 0},
    "variables": {"product": "Acme", "version": 2, "beta": True},
    "hidden": False,
    "noIndex": False,
    "noRobotsIndex": False,
    "pages": [
        {
            "id": "pg_setup",
            "title": "Setup",
            "type": "document",
            "slug": "setup",
            "path": "intro/setup",
            "pages": [
                {
                    "id": "pg_linux",
                    "title": "Linux",
                    "type": "document",
                    "slug": "linux",
                    "path": "intro/setup/linux",
                    "pages": [],
                }
            ],
        },
        {
            "id": "pg_link",
            "title": "Website",
            "type": "link",
            "target": {"kind": "url", "url": "https://acme.example.com"},
            "href": "https://acme.example.com",
        },
    ],
}

COMPUTED_PAGE: dict[str, Any] = {
    "id": "pg_api",
    "title": "API reference",
    "type": "document",
    "computed": {
        "type": "builtin:openapi",
        "dependencies": {"spec": {"ref": {"kind": "openapi", "spec": "petstore"}}},
        "props": {"doc": "models"},
    },
    "computedSeed": "seed-1",
    "pages": [],
}

FILE: dict[str, Any] = {
    "id": "file_cover",
    "name": "cover.png",
    "contentType": "image/png",
    "downloadURL": "https://files.example.com/cover.png",
    "size": 20480,
    "dimensions": {"width": 1200, "height": 630},
    "git": {"oid": "def456", "path": ".gitbook/assets/cover.png"},
}

CHANGE_REQUEST: dict[str, Any] = {
    "object": "change-request",
    "id": "cr_1",
    "number": 12,
    "status": "open",
    "subject": "Fix typos",
    "createdBy": USER,
    "createdAt": TS,
    "updatedAt": TS2,
    "revision": "rev_cr_2",
    "revisionInitial": "rev_1",
    "revisionMergedAncestor": "rev_1",
    "comments": 2,
    "outdated": True,
    "urls": {
        "app": "https://app.example.com/s/sp_1/~/changes/12",
        "location": "https://api.example.com/v1/spaces/sp_1/change-requests/cr_1",
    },
}

REVISION: dict[str, Any] = {
    "object": "revision",
    "id": "rev_2",
    "type": "merge",
    "parents": ["rev_1"],
    "pages": [PAGE, COMPUTED_PAGE],
    "files": [FILE],
    "reusableContents": [
        {
            "id": "rc_1",
            "title": "Warning banner",
            "document": "doc_rc_1",
            "git": {"oid": "aaa", "path": "includes/warning.md"},
        }
    ],
    "variables": {"product": "Acme"},
    "createdAt": TS,
    "git": {
        "oid": "abc123",
        "message": "Update intro",
        "createdByGitBook": True,
        "url": "https://github.com/acme/handbook/commit/abc123",
        "ref": "refs/heads/main",
    },
    "urls": {
        "app": "https://app.example.com/s/sp_1/~/revisions/rev_2",
        "published": "https://acme.example.com/handbook",
    },
    "mergedFrom": CHANGE_REQUEST,
}

LINK_LIST: dict[str, Any] = {
    "items": [
        {
            "status": "broken",
            "relation": "link",
            "targetReference": {"kind": "url", "url": "https://gone.example.com"},
            "locationReferences": [
                {
                    "kind": "page",
                    "organization": "org_1",
                    "space": "sp_1",
                    "versionContext": {"type": "revision", "revision": "rev_2"},
                    "page": "pg_intro",
                }
            ],
        },
        {"status": "in-app", "targetReference": {"kind": "page", "page": "pg_setup"}},
    ],
    "count": 2,
    "next": {"page": "links-2"},
    "stats": {"total": 40, "broken": {"total": 3, "changeRequest": 1}},
}

BACKLINK: dict[str, Any] = {
    "kind": "file",
    "organization": "org_1",
    "space": "sp_1",
    "versionContext": {"type": "revision", "revision": "rev_2"},
    "file": "file_cover",
}

SPACE_SEARCH_ITEM: dict[str, Any] = {
    "id": "pg_setup",
    "title": "Setup",
    "path": "intro/setup",
    "sections": [
        {
            "id": "sec_1",
            "title": "Install",
            "path": "intro/setup#install",
            "body": "Run the installer",
            "urls": {"app": "https://app.example.com/s/sp_1/intro/setup#install"},
        }
    ],
    "urls": {"app": "https://app.example.com/s/sp_1/intro/setup"},
}

ORG_SEARCH_ITEM: dict[str, Any] = {"id": "sp_1", "title": "Handbook", "pages": [SPACE_SEARCH_ITEM]}

IMPORT_RESULT: dict[str, Any] = {"revision": "rev_3", "importedResources": 7, "totalResources": 9}

SEMANTIC_CHANGES: dict[str, Any] = {
    "changes": [
        {
            "type": "page_created",
            "page": {"id": "pg_new", "type": "document", "title": "New", "path": "new"},
        },
        {
            "type": "page_edited",
            "page": {"id": "pg_intro", "type": "document", "title": "Introduction"},
            "attributes": {
                "title": {"before": "Intro", "after": "Introduction"},
                "document": {"before": "doc_0", "after": "doc_1"},
            },
        },
        {
            "type": "page_moved",
            "page": {"id": "pg_linux", "type": "document", "title": "Linux"},
            "parent": {
                "before": {"id": "pg_intro", "type": "document", "title": "Introduction"},
                "after": {"id": "pg_setup", "type": "document", "title": "Setup"},
            },
        },
        {
            "type": "file_edited",
            "file": {
                "id": "file_cover",
                "name": "cover.png",
                "contentType": "image/png",
                "downloadURL": "https://files.example.com/cover.png",
            },
            "attributes": {"name": {"before": "old.png", "after": "cover.png"}},
        },
        {"type": "page_renamed_someday", "page": {"id": "pg_x", "type": "folder", "title": "X"}},
    ],
    "more": 0,
}

COMMENT: dict[str, Any] = {
    "object": "comment",
    "id": "cm_1",
    "postedBy": USER,
    "postedAt": TS,
    "editedAt": TS2,
    "replies": 1,
    "repliers": [{"user": USER_BOB, "count": 1, "updatedAt": TS2}],
    "reactions": [
        {"emoji": "👍", "count": 1, "users": [{"user": USER_BOB, "reactedAt": TS2}]},
    ],
    "body": {"markdown": "Should this say **Acme**?"},
    "target": {
        "node": {"id": "node_1", "preview": "Welcome to the handbook."},
        "page": {
            "id": "pg_intro",
            "title": "Introduction",
            "emoji": "1f44b",
            "createdAt": TS,
            "updatedAt": TS2,
            "path": "intro",
            "outdated": False,
        },
        "space": "sp_1",
        "revision": "rev_2",
    },
    "urls": {"location": "https://api.example.com/v1/spaces/sp_1/comments/cm_1"},
    "permissions": {"view": True, "edit": True, "reply": True, "delete": True},
    "status": "resolved",
    "resolvedAt": TS2,
    "resolvedBy": USER_BOB,
}

COMMENT_REPLY: dict[str, Any] = {
    "object": "comment-reply",
    "id": "cr_reply_1",
    "postedBy": USER_BOB,
    "postedAt": TS2,
    "reactions": [],
    "body": {},
    "urls": {"location": "https://api.example.com/v1/spaces/sp_1/comments/cm_1/replies/r1"},
    "permissions": {"view": True, "edit": False, "reply": True, "delete": False},
}

MERGE_RESULT: dict[str, Any] = {"revision": "rev_3", "result": "merge"}

TEAM: dict[str, Any] = {
    "object": "team",
    "id": "team_1",
    "title": "Writers",
    "members": 4,
    "spaces": 2,
    "createdAt": TS,
    "permissions": {"admin": True, "view": True},
}

REVIEW: dict[str, Any] = {
    "object": "change-request-review",
    "id": "rv_1",
    "revision": "rev_cr_2",
    "reviewer": USER_BOB,
    "requestedBy": USER,
    "status": "changes-requested",
    "outdated": False,
    "comment": {**COMMENT, "status": "open", "resolvedAt": None, "resolvedBy": None},
    "createdAt": TS,
    "updatedAt": TS2,
    "urls": {
        "location": "https://api.example.com/v1/spaces/sp_1/change-requests/cr_1/reviews/rv_1"
    },
}

REQUESTED_REVIEWER: dict[str, Any] = {
    "object": "change-request-requested-reviewer",
    "kind": "user",
    "user": USER_BOB,
    "revision": "rev_cr_2",
    "requestedBy": USER,
    "createdAt": TS,
}

REQUESTED_TEAM: dict[str, Any] = {
    "object": "change-request-requested-reviewer",
    "kind": "team",
    "team": {"object": "team", "id": "team_1"},
    "revision": "rev_cr_2",
    "requestedBy": USER,
    "createdAt": TS,
}

SITE: dict[str, Any] = {
    "object": "site",
    "id": "site_1",
    "type": "basic",
    "title": "Acme Docs",
    "icon": {"icon": {"light": "https://example.com/l.png", "dark": "https://example.com/d.png"}},
    "hostname": "docs.acme.example.com",
    "basename": "docs",
    "proxy": {"origin": "acme.example.com/docs", "target": "https://acme.gitbook.io"},
    "visibility": "share-link",
    "published": True,
    "siteSpaces": 2,
    "createdAt": TS,
    "adaptiveContent": {"enabled": False},
    "ads": {"status": "pending", "submittable": True},
    "agentsContext": "included",
    "features": [
        {
            "id": "sites-redirects",
            "plan": "premium",
            "frozen": False,
            "customizations": ["header-logo"],
        }
    ],
    "urls": {
        "location": "https://api.example.com/v1/orgs/org_1/sites/site_1",
        "app": "https://app.example.com/o/org_1/sites/site_1",
        "published": "https://docs.acme.example.com",
    },
}

SITE_SPACE: dict[str, Any] = {
    "object": "site-space",
    "id": "ss_1",
    "path": "handbook",
    "section": "sec_1",
    "space": SPACE,
    "title": "Handbook",
    "default": True,
    "condition": "visitor.claims.unsigned.beta",
    "hasAdvancedCustomizationFeature": False,
    "urls": {"published": "https://docs.acme.example.com/handbook"},
}

SITE_SECTION: dict[str, Any] = {
    "object": "site-section",
    "id": "sec_1",
    "title": "Guides",
    "description": "How-to guides",
    "default": True,
    "path": "guides",
    "condition": None,
    "sectionGroup": "grp_1",
    "siteSpaces": [SITE_SPACE],
    "urls": {"published": "https://docs.acme.example.com/guides"},
    "icon": "book",
}

SITE_REDIRECT: dict[str, Any] = {
    "object": "site-redirect",
    "id": "redir_1",
    "source": "/old/path",
    "destination": {"kind": "site-section", "siteSectionId": "sec_1"},
}

ADAPTIVE_SCHEMA: dict[str, Any] = {
    "object": "site-adaptive-schema",
    "jsonSchema": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://example.com/claims.json",
        "type": "object",
        "properties": {
            "unsigned": {
                "type": "object",
                "properties": {"beta": {"type": "boolean"}},
                "additionalProperties": False,
            },
            "isAdmin": {"type": "boolean"},
        },
        "additionalProperties": False,
    },
    "updatedAt": TS,
}

TEMPLATE_CONDITIONS: dict[str, Any] = {
    "items": [{"description": "Beta users", "condition": "visitor.claims.unsigned.beta"}]
}

CUSTOMIZATION: dict[str, Any] = {
    "title": "Acme Docs",
    "styling": {
        "theme": "clean",
        "primaryColor": {"light": "#346DDB", "dark": "#346DDB"},
        "tint": {"color": {"light": "#ffffff", "dark": "#000000"}},
        "corners": "rounded",
        "font": "Inter",
        "sidebar": {"background": "default", "list": "default"},
    },
    "internationalization": {"locale": "en"},
    "favicon": {
        "icon": {"light": "https://example.com/f.png", "dark": "https://example.com/f.png"}
    },
    "header": {
        "logo": {"light": "https://example.com/l.png", "dark": "https://example.com/d.png"},
        "links": [{"title": "Home", "to": {"kind": "url", "url": "https://acme.example.com"}}],
    },
    "footer": {"groups": [{"title": "More", "links": []}], "copyright": "Acme"},
    "announcement": {"enabled": False, "message": "", "style": "info"},
    "themes": {"default": "light", "toggeable": True},
    "pdf": {"enabled": True},
    "feedback": {"enabled": False},
    "aiSearch": {"enabled": True},
    "advancedCustomization": {"enabled": False},
    "pagination": {"enabled": True},
    "trademark": {"enabled": True},
    "ai": {"pageLinkSummaries": {"enabled": False}},
    "git": {"showEditLink": False},
    "privacyPolicy": {"url": "https://acme.example.com/privacy"},
    "socialPreview": {"url": "https://acme.example.com/preview.png"},
    "insights": {"trackingCookie": True},
}

PUBLISHED_SITE: dict[str, Any] = {
    "object": "published-content-site",
    "site": SITE,
    "structure": {"type": "sections", "structure": [SITE_SECTION]},
    "customizations": {"site": CUSTOMIZATION, "siteSpaces": {"ss_1": CUSTOMIZATION}},
    "scripts": [
        {
            "script": "https://example.com/s.js",
            "contentSecurityPolicy": "default-src",
            "cookies": False,
        }
    ],
}

INTEGRATION: dict[str, Any] = {
    "object": "integration",
    "name": "slack",
    "version": 3,
    "title": "Slack",
    "description": "Notifications in Slack",
    "summary": "# Slack\n\nLong description.",
    "previewImages": ["https://example.com/p1.png"],
    "target": "all",
    "verified": True,
    "visibility": "public",
    "scopes": ["space:views:read", "space:content:read"],
    "categories": ["collaboration"],
    "blocks": [
        {
            "id": "message",
            "title": "Slack message",
            "description": "Embed a message",
            "icon": "slack",
            "urlUnfurl": ["https://slack.com/archives"],
            "markdown": {"codeblock": "slack", "body": "channel: general"},
        }
    ],
    "contentSources": [
        {
            "id": "threads",
            "title": "Threads",
            "description": "Import threads",
            "icon": "slack",
            "configuration": {"componentId": "configure"},
        }
    ],
    "configurations": {
        "account": {
            "properties": {
                "channel": {
                    "title": "Channel",
                    "description": "Where to post",
                    "type": "string",
                    "default": "general",
                    "completion_url": "/channels",
                    "enum": ["general", "docs"],
                }
            },
            "required": ["channel"],
        }
    },
    "externalLinks": [{"url": "https://slack.com", "label": "Website"}],
    "owner": ORGANIZATION,
    "urls": {
        "location": "https://api.example.com/v1/integrations/slack",
        "icon": "https://example.com/slack.png",
        "app": "https://app.example.com/integrations/slack",
        "assets": "https://assets.example.com/slack",
        "publicEndpoint": "https://integrations.example.com/v1/integrations/slack",
    },
    "permissions": {"admin": False, "install": True},
    "contentSecurityPolicy": "script-src 'self'",
}

INSTALLATION: dict[str, Any] = {
    "id": "inst_1",
    "status": "active",
    "space_selection": "all",
    "site_selection": "selected",
    "spaces": 3,
    "configuration": {"channel": "docs", "notify": True},
    "createdAt": TS,
    "updatedAt": TS2,
    "urls": {
        "location": "https://api.example.com/v1/integrations/slack/installations/inst_1",
        "app": "https://app.example.com/integrations/slack/installations/inst_1",
        "publicEndpoint": "https://integrations.example.com/installations/inst_1",
    },
    "externalIds": ["T0123"],
    "target": {"organization": "org_1"},
}

INTEGRATION_SPACE_ITEM: dict[str, Any] = {
    "integration": "slack",
    "installation": "inst_1",
    "status": "active",
    "configuration": {},
    "externalIds": [],
    "urls": {
        "location": "https://api.example.com/v1/integrations/slack/spaces/sp_1",
        "publicEndpoint": "https://integrations.example.com/spaces/sp_1",
    },
    "space": "sp_1",
}

INTEGRATION_SITE_ITEM: dict[str, Any] = {
    "integration": "slack",
    "installation": "inst_1",
    "status": "paused",
    "configuration": {"a": 1},
    "externalIds": ["x"],
    "urls": {"location": "https://api.example.com/v1/integrations/slack/sites/site_1"},
    "site": SITE,
}

EVENT: dict[str, Any] = {
    "id": "evt_1",
    "integrationId": "slack",
    "installationId": "inst_1",
    "createdAt": TS,
    "payload": {
        "eventId": "evt_1",
        "type": "installation_setup",
        "installationId": "inst_1",
        "status": "active",
        "previous": {"status": "pending", "configuration": {}},
    },
    "status": "success",
}

EVENT_DETAIL: dict[str, Any] = {
    "event": EVENT,
    "trace": {
        "logs": [
            {"message": "started", "timestamp": TS, "level": "debug"},
            {"message": "odd", "timestamp": TS2, "level": "trace"},
        ]
    },
}

UI_RENDER: dict[str, Any] = {
    "type": "element",
    "element": {
        "type": "block",
        "children": [
            {
                "type": "button",
                "style": "primary",
                "onPress": {"action": "refresh"},
                "icon": "retry",
                "trailingIcon": "arrow-right",
                "label": "Refresh",
                "tooltip": "Fetch again",
                "confirm": {
                    "title": "Sure?",
                    "text": "This reloads the data",
                    "confirm": "Yes",
                    "style": "danger",
                },
                "disabled": False,
            },
            {"type": "text", "children": [{"type": "button", "onPress": {"action": "x"}}]},
        ],
        "controls": [
            {"icon": "edit", "label": "Edit", "onPress": {"action": "edit"}},
            {"label": "Delete", "onPress": {"action": "delete"}, "confirm": {"title": "Delete?"}},
        ],
    },
    "state": {"count": 1},
    "props": {"url": "https://example.com"},
}

OPENAPI_SPEC: dict[str, Any] = {
    "object": "openapi-spec",
    "id": "spec_1",
    "createdAt": TS,
    "updatedAt": TS2,
    "slug": "petstore",
    "sourceURL": "https://example.com/petstore.yaml",
    "processingState": "pending",
    "lastVersion": "ver_1",
    "lastProcessedAt": TS2,
    "lastProcessErrorCode": "FETCH_TIMEOUT",
    "permissions": {"view": True, "edit": True},
    "urls": {
        "location": "https://api.example.com/v1/orgs/org_1/openapi/petstore",
        "app": "https://app.example.com/o/org_1/openapi/petstore",
    },
}

OPENAPI_VERSION: dict[str, Any] = {
    "object": "openapi-spec-version",
    "id": "ver_1",
    "createdAt": TS,
    "url": "https://example.com/petstore.yaml",
    "urls": {"location": "https://api.example.com/v1/orgs/org_1/openapi/petstore/versions/ver_1"},
}

VERSION_CONTENT: dict[str, Any] = {
    "filesystem": {"openapi": "3.0.0", "info": {"title": "Petstore"}},
    "url": "https://files.example.com/petstore.json",
}

INVITE: dict[str, Any] = {"object": "invite", "id": "inv_1", "role": "comment", "redundant": False}

INVITE_RESULT: dict[str, Any] = {
    "users": ["u_new"],
    "invited": 1,
    "failedSSOEmails": ["sso@example.com"],
}

TRANSLATION_SETTINGS: dict[str, Any] = {
    "object": "translation-settings",
    "id": "tr_1",
    "title": "French and German",
    "languages": ["fr", "de"],
    "createdAt": TS,
    "updatedAt": TS2,
    "permissions": {"view": True, "edit": False},
    "urls": {"location": "https://api.example.com/v1/orgs/org_1/translations/tr_1"},
}

ERROR: dict[str, Any] = {"error": {"code": 404, "message": "Space not found"}}

CONTENT_UPDATE: dict[str, Any] = {
    "changeRequest": CHANGE_REQUEST,
    "changes": [
        {
            "object": "created_page",
            "ref": "new-page",
            "page": {
                "object": "page",
                "id": "pg_new",
                "urls": {"location": "https://api.example.com/v1/spaces/sp_1/page/pg_new"},
            },
        }
    ],
    "insertedFiles": [FILE],
}

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
