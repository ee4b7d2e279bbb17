"""Samples of sites, integrations, OpenAPI specs, invites, settings and errors."""

from __future__ import annotations

from typing import Any

from model_samples_workspace import ORGANIZATION, SPACE, TS, TS2

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
