"""Samples of content, change requests, comments and reviews (from the specification and OpenAPI)."""

from __future__ import annotations

from typing import Any

from model_samples_workspace import TS, TS2, USER, USER_BOB

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
