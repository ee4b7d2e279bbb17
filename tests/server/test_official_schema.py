"""Every operation, called with real ids on the demo workspace, answers what the official
GitBook OpenAPI description (``tests/fixtures/gitbook-openapi.json``) says it answers.

One walk calls each operation the official description and this server share (on the seeded
demo, plus throwaway resources for the writes) and validates every 2xx body against the
official response schema (JSON Schema 2020-12, ``$ref``s resolved, formats checked). Run with
``-s`` to see the per-operation table. ``ALLOWED`` lists the operations that are known not to
validate, each with the reason (docs/schema-conformance.md explains them in full).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from gitbook_tui.lzstring import compress_to_encoded_uri_component
from gitbook_tui.server.bootstrap import add_member, create_org, create_user
from gitbook_tui.server.core.context import issue_token
from gitbook_tui.server.demo.seed import demo_token
from support.asgi_client import asgi_client
from support.local_http import local_http, walk_pages
from support.official_schema import official_operation, operation_for, response_problems
from support.worlds import Template, demo_app

# the demo workspace seeded and walked whole: out of the inner loop
pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parent.parent / "fixtures"

# Operations that do not validate against the official schema, and why (keep it short and
# explained: docs/schema-conformance.md has the details).
_LIST_FORM = (
    "the official schema cannot be satisfied: a page without its content (a page tree entry) "
    "fails RevisionPageDocument, whose Document one-of needs `markdown`, `document` or no "
    "member at all"
)
_CHILDREN = (
    "the official schema cannot be satisfied for a page with child pages: its `pages` are "
    "page tree entries, which fail RevisionPageDocument (see above); pages without children "
    "validate"
)
ALLOWED: dict[str, str] = {
    "GET /spaces/{spaceId}/content": _LIST_FORM,
    "GET /spaces/{spaceId}/content/pages": _LIST_FORM,
    "GET /spaces/{spaceId}/revisions/{revisionId}/pages": _LIST_FORM,
    # the rest of a revision validates (tests/server/test_revisions.py, the tree left out)
    "GET /spaces/{spaceId}/revisions/{revisionId}": _LIST_FORM,
    "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content": _LIST_FORM,
    "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/pages": _LIST_FORM,
    "GET /spaces/{spaceId}/content/page/{pageId}": _CHILDREN,
    "GET /spaces/{spaceId}/content/path/{pagePath}": _CHILDREN,
    "GET /spaces/{spaceId}/revisions/{revisionId}/page/{pageId}": _CHILDREN,
    "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}": _CHILDREN,
    "GET /spaces/{spaceId}/change-requests/{changeRequestId}/changes": (
        "the official schema cannot be satisfied: an edited page's `attributes` entry matches "
        "more than one branch of its one-of"
    ),
    "GET /spaces/{spaceId}/revisions/{revisionId}/changes": (
        "the official schema cannot be satisfied: an edited page's `attributes` entry matches "
        "more than one branch of its one-of (the other changes validate)"
    ),
    "GET /orgs/{organizationId}/sites/{siteId}/adaptive-schema": (
        "the seed wins: the schema carries its `$id` (the official one forbids extra members)"
    ),
    "PUT /orgs/{organizationId}/sites/{siteId}/adaptive-schema": (
        "the seed wins: claims are booleans with an `unsigned` object and the `$id`"
    ),
    "GET /orgs/{organizationId}/translations": "the seed wins: TranslationSettings",
    "POST /orgs/{organizationId}/translations": "the seed wins: TranslationSettings",
    "GET /orgs/{organizationId}/translations/{translationId}": "the seed wins: TranslationSettings",
    "PUT /orgs/{organizationId}/translations/{translationId}": "the seed wins: TranslationSettings",
}

# Operations that the walk does not call, and why.
NOT_CALLED: dict[str, str] = {}

MINIMUM_VALID = 130
LEAF, PARENT = "page without children", "page with children"


@dataclass
class Call:
    label: str
    status: int
    problems: list[str]
    seconds: tuple[float, float] = (0.0, 0.0)  # answering, validating


# The table shows the first two failing answers of an operation: only those are explained.
EXPLAINED_PER_OPERATION = 2


@dataclass
class Walk:
    client: httpx.Client
    users: dict[str, httpx.Client] = field(default_factory=dict)
    calls: dict[str, list[Call]] = field(default_factory=dict)
    unmatched: list[str] = field(default_factory=list)

    def call(
        self,
        method: str,
        path: str,
        *,
        user: str | None = None,
        label: str = "",
        expect: int | tuple[int, ...] | None = None,
        **kwargs: Any,
    ) -> Any:
        client = self.users[user] if user else self.client
        started = time.perf_counter()
        response = client.request(method, path, **kwargs)
        answered = time.perf_counter()
        operation = operation_for(method, path)
        if operation is None:  # not in the official description (e.g. space transfer)
            self.unmatched.append(f"{method} {path}")
            return response.json() if response.content else None
        # parsed once, for the validation and the caller (some are large page trees)
        body = (
            response.json()
            if response.content
            and response.headers.get("content-type", "").startswith("application/json")
            else None
        )
        problems: list[str] = []
        if 200 <= response.status_code < 300:
            explained = sum(1 for c in self.calls.get(operation.key, []) if c.problems)
            problems = response_problems(
                operation,
                response.status_code,
                response.headers.get("content-type", ""),
                response.content,
                explain=explained < EXPLAINED_PER_OPERATION,
                instance=body,
            )
        else:
            problems = [f"answered {response.status_code}: {response.text[:300]}"]
        if expect is not None and response.status_code not in (
            expect if isinstance(expect, tuple) else (expect,)
        ):
            problems.append(f"expected {expect}, got {response.status_code}")
        self.calls.setdefault(operation.key, []).append(
            Call(
                label or f"{method} {path}"[:160],
                response.status_code,
                problems,
                (answered - started, time.perf_counter() - answered),
            )
        )
        return body

    def all(self, path: str, **params: Any) -> list[dict[str, Any]]:
        """Every item of a paged list (each page is validated as a call)."""
        items: list[dict[str, Any]] = []
        page = None
        while True:
            query = {**params, **({"page": page} if page else {})}
            body = self.call("GET", path, params=query) or {}
            items += body.get("items", [])
            page = (body.get("next") or {}).get("page")
            if not page:
                return items


# -- a loopback integration tunnel (renders a UI for the render operations) --------------------
class _Tunnel(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        payload = json.loads(self.rfile.read(length) or b"{}")
        if payload.get("type") == "ui_render":
            body = {"type": "element", "element": {"type": "block", "children": []}}
        else:
            body = {}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture(scope="module")
def tunnel() -> Iterator[str]:
    with local_http(_Tunnel) as base:
        yield f"{base}/tunnel"


# -- the walk ----------------------------------------------------------------------------------
def _client(stack: ExitStack, app: Any, token: str) -> httpx.Client:
    # the walk's thousands of requests answered on this thread's own event loop: TestClient's
    # crossings to its loop thread took over half of the walk (see support.asgi_client)
    client = stack.enter_context(asgi_client(app, "http://testserver/v1"))
    client.headers["Authorization"] = f"Bearer {token}"
    return client


def _read_content(w: Walk, base: str, sample: int, label: str, *, tree_too: bool = True) -> None:
    """Revision, pages (markdown and document), files and paths under ``base``."""
    if tree_too:
        w.call("GET", f"{base}/content", label=f"{label} revision")
    tree = w.call("GET", f"{base}/content/pages") if tree_too else None
    if tree is None:  # read the tree without validating it again
        tree = w.client.get(f"{base}/content/pages").json()
    documents = [p for p in walk_pages(tree["pages"]) if p.get("type") == "document"][:sample]
    for page in documents:
        kind = PARENT if page.get("pages") else LEAF
        for fmt in ("markdown", "document"):
            w.call(
                "GET",
                f"{base}/content/page/{page['id']}",
                params={"format": fmt},
                label=f"{label} {kind} {page.get('path')} ({fmt})",
            )
    for page in documents[:3]:
        kind = PARENT if page.get("pages") else LEAF
        if page.get("path"):
            for fmt in ("markdown", "document"):
                w.call(
                    "GET",
                    f"{base}/content/path/{quote(page['path'], safe='')}",
                    params={"format": fmt},
                    label=f"{label} {kind} at {page['path']} ({fmt})",
                )
    files = w.all(f"{base}/content/files")
    for item in files[:3]:
        w.call("GET", f"{base}/content/files/{item['id']}")


def _walk(app: Any, tunnel: str, stack: ExitStack) -> Walk:
    storage = app.state.server.storage
    clock = app.state.server.clock
    maya = _client(stack, app, demo_token("maya"))
    w = Walk(maya)
    for key in ("sofia", "lee", "aiko"):
        w.users[key] = _client(stack, app, demo_token(key))

    # -- who and where ---------------------------------------------------------------------
    me = w.call("GET", "/user")
    orgs = w.all("/orgs")
    org = orgs[0]["id"]
    org_body = w.call("GET", f"/orgs/{org}")
    for domain in org_body.get("emailDomains", [])[:1]:
        w.call("GET", f"/email-domains/{domain}/orgs")
    members = w.all(f"/orgs/{org}/members")
    users = {m["user"]["email"].split("@")[0]: m["user"]["id"] for m in members}
    w.call("GET", f"/orgs/{org}/search", params={"query": "install"})
    w.all(f"/orgs/{org}/change-requests", status=["open", "draft"])
    w.call("GET", f"/orgs/{org}/members", params={"limit": 2.5}, label="a numeric limit")
    w.call("PATCH", f"/orgs/{org}", json={"title": org_body["title"]})

    # a second organization for transfers, and a user outside the organization for invites
    with storage.transaction() as tx:
        other = create_org(tx, storage, clock, "Walk Other Org", hostname="walk-other")
        add_member(tx, clock, other["id"], me["id"], "admin")
        outsider = create_user(tx, storage, clock, "Olga Outsider", "olga@outside.test")
        issue_token(tx, outsider["id"], "tok-outsider")
    w.users["outsider"] = _client(stack, app, "tok-outsider")

    # -- collections and spaces --------------------------------------------------------------
    collections = w.all(f"/orgs/{org}/collections")
    for coll in collections:
        w.call("GET", f"/collections/{coll['id']}")
        w.all(f"/collections/{coll['id']}/spaces")
        w.all(f"/collections/{coll['id']}/permissions/users")
        w.all(f"/collections/{coll['id']}/permissions/aggregate")
    spaces = w.all(f"/orgs/{org}/spaces")
    for coll in collections:
        spaces += [s for s in w.all(f"/collections/{coll['id']}/spaces") if s not in spaces]
    by_title = {s["title"]: s for s in spaces}

    # -- reading every space ----------------------------------------------------------------
    crs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for space in spaces:
        sid = space["id"]
        w.call("GET", f"/spaces/{sid}")
        w.all(f"/spaces/{sid}/permissions/users")
        w.all(f"/spaces/{sid}/permissions/aggregate")
        w.call("GET", f"/spaces/{sid}/search", params={"query": "the"})
        big = space["title"].startswith(("Config reference", "Support knowledge base"))
        _read_content(w, f"/spaces/{sid}", 2 if big else 25, space["title"], tree_too=not big)
        revision = space["revision"]
        reusable = w.client.get(f"/spaces/{sid}/content").json().get("reusableContents", [])
        for item in reusable[:2]:
            w.call("GET", f"/spaces/{sid}/content/reusable-contents/{item['id']}")
            w.call(
                "GET",
                f"/spaces/{sid}/revisions/{revision}/reusable-contents/{item['id']}/document",
            )
        tree = (
            w.client.get(f"/spaces/{sid}/revisions/{revision}/pages").json()
            if big
            else w.call("GET", f"/spaces/{sid}/revisions/{revision}/pages")
        )
        for page in list(walk_pages(tree["pages"]))[:2]:
            for fmt in ("markdown", "document"):
                w.call(
                    "GET",
                    f"/spaces/{sid}/revisions/{revision}/page/{page['id']}",
                    params={"format": fmt},
                )
        w.call("GET", f"/spaces/{sid}/revisions/{revision}")
        w.call("GET", f"/spaces/{sid}/revisions/{revision}/changes", params={"limit": 1000})
        if space["title"] == "Tidewater User Guide":  # its history, every step's changes
            parents = w.client.get(f"/spaces/{sid}/revisions/{revision}").json()["parents"]
            while parents:
                step = f"/spaces/{sid}/revisions/{parents[0]}"
                w.call("GET", f"{step}/changes", params={"limit": 1000}, label="history")
                parents = w.client.get(step).json()["parents"]
        for status in ("draft", "open", "archived", "merged"):
            crs += [(space, cr) for cr in w.all(f"/spaces/{sid}/change-requests", status=status)]
        for thread in w.all(f"/spaces/{sid}/comments"):
            w.call("GET", f"/spaces/{sid}/comments/{thread['id']}")
            w.call("GET", f"/spaces/{sid}/comments/{thread['id']}", params={"format": "document"})
            for reply in w.all(f"/spaces/{sid}/comments/{thread['id']}/replies"):
                w.call("GET", f"/spaces/{sid}/comments/{thread['id']}/replies/{reply['id']}")
        w.all(f"/spaces/{sid}/comments", format="document")
        w.all(f"/spaces/{sid}/commenters")

    for space, cr in crs:
        base = f"/spaces/{space['id']}/change-requests/{cr['id']}"
        w.call("GET", base)
        w.call("GET", f"{base}/changes")
        w.all(f"{base}/reviews")
        w.all(f"{base}/requested-reviewers")
        w.all(f"{base}/commenters")
        big = space["title"].startswith(("Config reference", "Support knowledge base"))
        _read_content(w, base, 4, f"{space['title']} CR {cr['number']}", tree_too=not big)
        for thread in w.all(f"{base}/comments"):
            w.call("GET", f"{base}/comments/{thread['id']}")
            for reply in w.all(f"{base}/comments/{thread['id']}/replies"):
                w.call("GET", f"{base}/comments/{thread['id']}/replies/{reply['id']}")
    if crs:
        space, cr = crs[0]
        w.call("GET", f"/spaces/{space['id']}/change-requests/{cr['id']}/pdf")

    # -- writing: collections -----------------------------------------------------------------
    top = w.call("POST", f"/orgs/{org}/collections", json={"title": "Walk"})
    w.call("POST", f"/orgs/{org}/collections", label="no body: every field is optional")
    inner = w.call("POST", f"/orgs/{org}/collections", json={"title": "Walk inner"})
    w.call("PATCH", f"/collections/{top['id']}", json={"description": "Walked"})
    w.call("POST", f"/collections/{inner['id']}/move", json={"parent": top["id"]})
    w.call(
        "POST",
        f"/collections/{top['id']}/permissions",
        json={"role": "read", "users": [users["aiko"]]},
    )
    w.call(
        "PATCH",
        f"/collections/{top['id']}/permissions/users/{users['aiko']}",
        json={"role": "comment"},
    )
    w.call("DELETE", f"/collections/{top['id']}/permissions/users/{users['aiko']}")
    moved = w.call("POST", f"/orgs/{org}/collections", json={"title": "Walk transfer"})
    w.call("POST", f"/collections/{moved['id']}/transfer", json={"organization": other["id"]})

    # -- writing: spaces ------------------------------------------------------------------------
    space = w.call("POST", f"/orgs/{org}/spaces", json={"title": "Walk space"})
    sid = space["id"]
    w.call("PATCH", f"/spaces/{sid}", json={"title": "Walk space 2"})
    w.call("POST", f"/spaces/{sid}/move", json={"parent": top["id"]})
    w.call("POST", f"/spaces/{sid}/permissions", json={"role": "read", "users": [users["aiko"]]})
    w.call("PATCH", f"/spaces/{sid}/permissions/users/{users['aiko']}", json={"role": "comment"})
    w.call("PATCH", f"/spaces/{sid}/permissions/users/{users['aiko']}", json={}, label="no role")
    w.call("PATCH", f"/spaces/{sid}", json={"mergeRules": {"type": "rules", "rules": []}})
    w.call("DELETE", f"/spaces/{sid}/permissions/users/{users['aiko']}")
    copy = w.call("POST", f"/spaces/{sid}/duplicate")
    w.call("POST", f"/spaces/{copy['id']}/transfer", json={"organization": other["id"]})
    w.call("DELETE", f"/spaces/{sid}")
    w.call("POST", f"/spaces/{sid}/restore")

    # -- writing: change requests, reviews, comments ------------------------------------------
    guide = by_title["Tidewater User Guide"]
    gid = guide["id"]
    home = (w.call("GET", f"/spaces/{gid}/content/pages") or {"pages": [{}]})["pages"][0]
    cr = w.call("POST", f"/spaces/{gid}/change-requests", json={"subject": "Walk edits"})
    base = f"/spaces/{gid}/change-requests/{cr['id']}"
    w.call(
        "POST",
        f"{base}/content",
        json={
            "changes": [
                {
                    "operation": "insert_page",
                    "title": "Walked page",
                    "document": {"markdown": "# Walked\n\nA page the walk wrote.\n"},
                },
                {
                    "operation": "update_page",
                    "page": home["id"],
                    "document": {"markdown": "# Home\n\nEdited by the walk.\n"},
                },
            ]
        },
    )
    w.call("PATCH", base, json={"subject": "Walk edits (renamed)"})
    w.call("PATCH", base, json={"description": {"markdown": "Why: **the walk**."}})
    w.call("GET", f"{base}/changes")
    w.call("POST", f"{base}/requested-reviewers", json={"users": [users["sofia"]]})
    w.call("DELETE", f"{base}/requested-reviewers/{users['sofia']}")
    w.call("POST", f"{base}/reviews", json={"status": "approved"}, user="sofia")
    w.call("GET", f"{base}/pdf")
    for prefix in (f"/spaces/{gid}", base):
        target = {"page": home["id"]}
        thread = w.call(
            "POST", f"{prefix}/comments", json={"body": {"markdown": "Walk comment"}, **target}
        )
        w.call(
            "POST",
            f"{prefix}/comments",
            params={"format": "document"},
            json={"body": {"markdown": "Walk comment, read back as a document"}},
        )
        as_document = w.call(
            "GET", f"{prefix}/comments/{thread['id']}", params={"format": "document"}
        )
        w.call("POST", f"{prefix}/comments", json={"body": as_document["body"]}, label="doc body")
        w.call("POST", f"{prefix}/comments", json={"body": {}}, label="the empty body")
        tid = thread["id"]
        w.call("PUT", f"{prefix}/comments/{tid}", json={"body": {"markdown": "Walk comment!"}})
        w.call("PUT", f"{prefix}/comments/{tid}", json={"addedReactions": ["👍"]}, user="sofia")
        reply = w.call(
            "POST", f"{prefix}/comments/{tid}/replies", json={"body": {"markdown": "Re"}}
        )
        w.call(
            "PUT",
            f"{prefix}/comments/{tid}/replies/{reply['id']}",
            json={"body": {"markdown": "Re!"}},
        )
        w.call("GET", f"{prefix}/comments/{tid}/replies/{reply['id']}")
        w.all(f"{prefix}/comments/{tid}/replies")
        w.call("DELETE", f"{prefix}/comments/{tid}/replies/{reply['id']}")
        w.call("DELETE", f"{prefix}/comments/{tid}")
    w.call("POST", f"{base}/update")
    w.call("POST", f"{base}/merge")
    # the merged change request and the merge revision
    w.call("GET", base)
    merged_space = w.call("GET", f"/spaces/{gid}")
    w.call("GET", f"/spaces/{gid}/revisions/{merged_space['revision']}/pages")
    w.call("GET", f"/spaces/{gid}/content")

    # -- writing: sites -------------------------------------------------------------------------
    sites = w.all(f"/orgs/{org}/sites")
    for site in sites:
        sbase = f"/orgs/{org}/sites/{site['id']}"
        w.call("GET", sbase)
        w.call("GET", f"{sbase}/adaptive-schema")
        w.call("GET", f"{sbase}/adaptive-schema/template-conditions")
        if site["published"]:  # an unpublished site has no published content (404)
            w.call("GET", f"{sbase}/published")
        w.all(f"{sbase}/sections")
        w.all(f"{sbase}/section-groups")
        w.call("GET", f"{sbase}/structure")
        w.all(f"{sbase}/site-spaces")
        for redirect in w.all(f"{sbase}/redirects")[:1]:
            w.call("GET", f"{sbase}/redirect", params={"source": redirect["source"]})
    site = w.call("POST", f"/orgs/{org}/sites", json={"title": "Walk site"})
    w.call("POST", f"/orgs/{org}/sites", label="no body: every field is optional")
    sbase = f"/orgs/{org}/sites/{site['id']}"
    w.call("PATCH", sbase, json={"title": "Walk site 2"})
    w.call(
        "PUT",
        f"{sbase}/adaptive-schema",
        json={
            "jsonSchema": {
                "type": "object",
                "properties": {
                    "isBeta": {"type": "boolean"},
                    "unsigned": {"type": "object", "properties": {}, "additionalProperties": False},
                },
                "additionalProperties": False,
            }
        },
    )
    api_space = by_title["HTTP API Reference"]["id"]
    sections = [
        w.call("POST", f"{sbase}/sections", json={"spaceId": s})
        for s in (by_title["SDK Guides"]["id"], api_space)
    ]
    w.call("PATCH", f"{sbase}/sections/{sections[1]['id']}", json={"title": "API"})
    before = {"type": "site-section", "siteSection": sections[0]["id"]}
    w.call(
        "POST", f"{sbase}/sections/{sections[1]['id']}/move", json={"position": {"before": before}}
    )
    w.call("POST", f"{sbase}/sections/{sections[1]['id']}/move", label="move to the end, no body")
    group = w.call(
        "POST",
        f"{sbase}/section-groups",
        json={"title": "Walk group", "sections": [sections[0]["id"]]},
    )
    inner = w.call(
        "POST", f"{sbase}/section-groups", json={"title": "Inner", "parent": group["id"]}
    )
    gbase = f"{sbase}/section-groups/{group['id']}"
    w.call(
        "PATCH", f"{sbase}/sections/{sections[1]['id']}", json={"siteSectionGroupId": inner["id"]}
    )
    w.all(f"{sbase}/section-groups")
    w.call("GET", f"{sbase}/structure", label="with nested groups")
    w.call("PATCH", gbase, json={"title": "Walk group 2", "draft": True})
    w.call("PATCH", gbase, json={"icon": "box"}, headers={"Prefer": "return=minimal"})
    w.call("POST", f"{gbase}/move", label="to the end, no body")
    w.call(
        "POST",
        f"{sbase}/section-groups/{inner['id']}/move",
        json={"position": {"before": {"type": "site-section", "id": sections[0]["id"]}}},
    )
    w.call("DELETE", f"{sbase}/section-groups/{inner['id']}")
    extra = w.call(
        "POST",
        f"{sbase}/site-spaces",
        json={"spaceId": by_title["tide CLI Reference"]["id"], "sectionId": sections[1]["id"]},
    )
    w.call("PATCH", f"{sbase}/site-spaces/{extra['id']}", json={"path": "cli"})
    w.call("POST", f"{sbase}/site-spaces/{extra['id']}/move", json={}, label="to the end")
    redirect = w.call(
        "POST",
        f"{sbase}/redirects",
        json={
            "source": "/walk",
            "destination": {"kind": "site-section", "siteSectionId": sections[0]["id"]},
        },
    )
    w.call("PATCH", f"{sbase}/redirects/{redirect['id']}", json={"permanent": True})
    w.call("GET", f"{sbase}/redirect", params={"source": "/walk"})
    w.call("POST", f"{sbase}/publish")
    w.call("GET", f"{sbase}/published")
    w.call("POST", f"{sbase}/unpublish")
    w.call("DELETE", f"{sbase}/redirects/{redirect['id']}")
    w.call("DELETE", f"{sbase}/site-spaces/{extra['id']}")
    w.call("DELETE", f"{sbase}/sections/{sections[1]['id']}")
    w.call("DELETE", gbase)
    w.call("DELETE", sbase)

    # -- integrations -----------------------------------------------------------------------------
    integrations = w.all("/integrations")
    for integ in integrations:
        name = integ["name"]
        w.call("GET", f"/integrations/{name}")
        w.all(f"/integrations/{name}/installations")
        for event in w.all(f"/integrations/{name}/events")[:4]:
            w.call("GET", f"/integrations/{name}/events/{event['id']}")
        w.all(f"/integrations/{name}/spaces")
        w.all(f"/integrations/{name}/sites")
    name = "walk-integration"
    w.call(
        "POST",
        f"/integrations/{name}",
        json={
            "title": "Walk integration",
            "description": "Published by the walk.",
            "scopes": ["space:content:read"],
            "target": "all",
            "visibility": "private",
            "organization": org,
        },
    )
    w.call("POST", f"/integrations/{name}/installations", json={"organization": org})
    w.call(
        "POST", f"/integrations/{name}/installations", json={"organization": org}, label="reinstall"
    )
    for event in w.all(f"/integrations/{name}/events"):
        w.call("GET", f"/integrations/{name}/events/{event['id']}")
    w.call("PUT", f"/integrations/{name}/dev", json={"tunnelUrl": tunnel})
    render = {"componentId": "main", "props": {}, "context": {"type": "document"}}
    w.call("POST", f"/integrations/{name}/render", json=render)
    w.call(
        "GET",
        f"/integrations/{name}/render",
        params={"request": compress_to_encoded_uri_component(json.dumps(render))},
    )
    w.call("DELETE", f"/integrations/{name}/dev")
    w.call("DELETE", f"/integrations/{name}")

    # -- OpenAPI specifications ---------------------------------------------------------------------
    for spec in w.all(f"/orgs/{org}/openapi"):
        obase = f"/orgs/{org}/openapi/{spec['slug']}"
        w.call("GET", obase)
        versions = w.all(f"{obase}/versions")
        w.call("GET", f"{obase}/versions/latest")
        w.call("GET", f"{obase}/versions/latest/content")
        for version in versions[:2]:
            w.call("GET", f"{obase}/versions/{version['id']}")
            w.call("GET", f"{obase}/versions/{version['id']}/content")
    text = json.dumps({"openapi": "3.1.0", "info": {"title": "Walk", "version": "1"}, "paths": {}})
    w.call("POST", f"/orgs/{org}/openapi", json={"slug": "walk-spec", "source": {"text": text}})
    w.call(
        "PUT",
        f"/orgs/{org}/openapi/walk-spec",
        json={"source": {"text": text.replace('"1"', '"2"')}},
    )
    w.call("DELETE", f"/orgs/{org}/openapi/walk-spec")

    # -- organization administration -----------------------------------------------------------------
    w.call(
        "POST", f"/orgs/{org}/invites", json={"emails": ["new.person@example.com"], "role": "read"}
    )
    for invite in w.all(f"/orgs/{org}/link-invites"):
        w.call("GET", f"/orgs/{org}/link-invites/{invite['id']}")
    link = w.call("POST", f"/orgs/{org}/link-invites", json={"role": "read"})
    to_space = w.call(
        "POST", f"/orgs/{org}/link-invites", json={"level": "comment", "space": guide["id"]}
    )
    w.call("PATCH", f"/orgs/{org}/link-invites/{to_space['id']}", json={"level": "review"})
    w.call("GET", f"/orgs/{org}/link-invites/{to_space['id']}")
    w.call("PATCH", f"/orgs/{org}/link-invites/{link['id']}", json={"role": "comment"})
    w.call("POST", f"/orgs/{org}/invites/{link['id']}", user="outsider")
    w.call("DELETE", f"/orgs/{org}/link-invites/{link['id']}")
    for team in w.all(f"/orgs/{org}/teams"):
        w.call("GET", f"/orgs/{org}/teams/{team['id']}")
    team = w.call(
        "PUT", f"/orgs/{org}/teams", json={"title": "Walkers", "members": [users["aiko"]]}
    )
    w.call("PATCH", f"/orgs/{org}/teams/{team['id']}", json={"title": "Walkers 2"})
    w.call("DELETE", f"/orgs/{org}/teams/{team['id']}")
    for settings in w.all(f"/orgs/{org}/translations"):
        w.call("GET", f"/orgs/{org}/translations/{settings['id']}")
    made = w.call("POST", f"/orgs/{org}/translations", json={"title": "Walk translations"})
    w.call(
        "PUT",
        f"/orgs/{org}/translations/{made['id']}",
        json={"title": "Walk translations", "languages": ["fr"]},
    )
    w.call("DELETE", f"/orgs/{org}/translations/{made['id']}")

    _walk_admin(w, org, members, guide["id"], top["id"], outsider["id"])

    # -- deletions last -------------------------------------------------------------------------------
    w.call("DELETE", f"/collections/{top['id']}")
    return w


def _walk_admin(
    w: Walk, org: str, members: list[dict[str, Any]], space: str, collection: str, leaver: str
) -> None:
    """The Admin view's operations: a member, their spaces and role, a team's members and
    grants on a space and a collection, installations and their spaces, a member removed."""
    member = members[-1]
    uid = member["user"]["id"]
    w.call("GET", f"/orgs/{org}/members/{uid}")
    w.all(f"/orgs/{org}/members/{uid}/spaces")
    w.call("PATCH", f"/orgs/{org}/members/{uid}", json={"role": member.get("role")})
    team = w.call("PUT", f"/orgs/{org}/teams", json={"title": "Admin walkers", "members": [uid]})
    w.all(f"/orgs/{org}/teams/{team['id']}/members")
    w.call("PUT", f"/orgs/{org}/teams/{team['id']}/members", json={"add": [uid], "remove": []})
    for base in (f"/spaces/{space}", f"/collections/{collection}"):
        w.call("POST", f"{base}/permissions", json={"role": "read", "teams": [team["id"]]})
        w.all(f"{base}/permissions/teams")
        w.call("PATCH", f"{base}/permissions/teams/{team['id']}", json={"role": "comment"})
        w.call("DELETE", f"{base}/permissions/teams/{team['id']}")
    w.call("DELETE", f"/orgs/{org}/teams/{team['id']}")
    installations = w.all(f"/orgs/{org}/installations")
    for pair in installations[:1]:
        name, installation = pair["integration"]["name"], pair["installation"]["id"]
        base = f"/integrations/{name}/installations/{installation}"
        w.all(f"{base}/spaces")
        w.call("POST", f"{base}/spaces", json={"space": space})
        w.call("DELETE", f"{base}/spaces/{space}")
        sites = w.all(f"{base}/sites")
        if sites:
            site = sites[0]["site"]
            w.call("DELETE", f"{base}/sites/{site}")
            w.call("POST", f"{base}/sites", json={"siteId": site})
        w.call("DELETE", base)
    w.call("DELETE", f"/orgs/{org}/members/{leaver}")


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory, tunnel: str, demo_template: Template) -> Walk:
    host = tunnel.split("/")[2]  # the loopback tunnel is the one host the server may call
    path = tmp_path_factory.mktemp("official") / "demo.sqlite"
    app = demo_app(demo_template, path, allow_fetch_hosts=[host])
    with ExitStack() as stack:
        return _walk(app, tunnel, stack)


def _shared_operations() -> list[str]:
    ops = []
    for name in ("seed-operations.txt", "extension-operations.txt"):
        for line in (FIXTURES / name).read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                method, path = line.split()[:2]
                operation = official_operation(method, path)
                if operation is not None:
                    ops.append(operation.key)
    return ops


SHARED = _shared_operations()


def _table(walk: Walk) -> tuple[list[str], list[str]]:
    valid, invalid = [], []
    lines = []
    for key in SHARED:
        calls = walk.calls.get(key, [])
        bad = [c for c in calls if c.problems]
        ok = bool(calls) and not bad
        (valid if ok else invalid).append(key)
        mark = "ok  " if ok else ("none" if not calls else "FAIL")
        lines.append(f"{mark} {len(calls):4d} {key}")
        for c in bad[:2]:
            lines.append(f"           {c.label}")
            lines += [f"             {p}" for p in c.problems[:3]]
    print("\n".join(lines))
    print(f"\n{len(valid)}/{len(SHARED)} official operations validate")
    return valid, invalid


def test_the_walk_calls_every_shared_operation(walk: Walk) -> None:
    assert len(SHARED) == 181
    # the only call outside the official description: space transfer (a seed operation)
    assert [u for u in walk.unmatched if not re.fullmatch(r"POST /spaces/[^/]+/transfer", u)] == []
    missing = [k for k in SHARED if k not in walk.calls and k not in NOT_CALLED]
    assert missing == []


def test_responses_validate_against_the_official_schema(walk: Walk) -> None:
    valid, invalid = _table(walk)
    assert len(valid) >= MINIMUM_VALID
    unexplained = [k for k in invalid if k not in ALLOWED and k not in NOT_CALLED]
    assert unexplained == []


def test_pages_without_children_validate_in_both_formats(walk: Walk) -> None:
    """The page operations are allowed to fail only for pages with children: every page
    without children validates, its JSON document included."""
    leaves = [
        (key, call) for key, calls in walk.calls.items() for call in calls if LEAF in call.label
    ]
    assert len(leaves) > 100
    assert [(k, c.label, c.problems[:1]) for k, c in leaves if c.problems] == []


def test_the_allow_list_is_not_stale(walk: Walk) -> None:
    valid, _ = _table(walk)
    assert [k for k in ALLOWED if k in valid] == []
