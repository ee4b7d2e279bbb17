"""Samples of users, members, organizations, collections and spaces (from the specification and OpenAPI)."""

from __future__ import annotations

from typing import Any

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
