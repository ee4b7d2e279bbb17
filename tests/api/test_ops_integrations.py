"""Client integration and OpenAPI operations against the in-process server and a loopback peer."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from gitbook_tui.api import (
    AsyncGitBook,
    BadRequestError,
    NotFoundError,
    PermissionDeniedError,
)
from gitbook_tui.api.lzstring import compress_to_encoded_uri_component
from gitbook_tui.models import (
    Installation,
    Integration,
    IntegrationEvent,
    IntegrationEventDetail,
    IntegrationSiteItem,
    IntegrationSpaceItem,
    OpenAPISpec,
    OpenAPISpecVersion,
    Page,
    Site,
    Space,
    UIRenderOutput,
    VersionContent,
)
from gitbook_tui.server.routes.integrations import lz_decompress_from_uri
from support.local_http import local_http
from support.worlds import Clients

# The operator lets this server's imports read the tests' folders and loopback peers.
pytestmark = pytest.mark.local_fetches


SPEC_V1 = {"openapi": "3.0.3", "info": {"title": "Pets", "version": "1.0"}, "paths": {}}
SPEC_V2 = {"openapi": "3.1.0", "info": {"title": "Pets", "version": "2.0"}, "paths": {}}
UI = {"type": "element", "element": {"type": "block", "children": []}}


# -- a loopback HTTP peer: serves OpenAPI documents and acts as a dev tunnel -----------------
@dataclass
class Peer:
    base: str = ""
    posts: list[dict[str, Any]] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base + path

    def posted(self, kind: str) -> list[dict[str, Any]]:
        return [p for p in self.posts if p["json"].get("type") == kind]


class _Handler(BaseHTTPRequestHandler):
    peer: Peer

    def log_message(self, *args: Any) -> None:
        pass

    def _answer(self, status: int, data: Any) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_GET(self) -> None:
        documents = {"/openapi.json": SPEC_V1, "/openapi-v2.json": SPEC_V2}
        if self.path in documents:
            self._answer(200, documents[self.path])
        else:
            self._answer(404, {"error": "no such document"})

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        payload = json.loads(raw or b"{}")
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.peer.posts.append({"path": self.path, "headers": headers, "json": payload})
        self._answer(200, UI if payload.get("type") == "ui_render" else {})


@pytest.fixture
def peer() -> Iterator[Peer]:
    state = Peer()
    handler = type("Handler", (_Handler,), {"peer": state})
    with local_http(handler) as base:
        state.base = base
        yield state


async def names(pager: Any) -> list[str]:
    return [item.name async for item in pager]


# -- integrations -----------------------------------------------------------------------------
async def publish_widget(gb: AsyncGitBook, org: str) -> Integration:
    return await gb.integrations.publish(
        "acme-widget",
        organization=org,
        title="Acme Widget",
        summary="Shows cards",
        visibility="public",
        target="space",
        scopes=["space:content:read"],
        categories=["content"],
        blocks=[{"id": "card", "title": "Card", "urlUnfurl": ["https://acme.test/cards"]}],
        external_links=[{"url": "http://127.0.0.1/docs", "label": "Docs"}],
        configurations={"space": {"properties": {"color": {"type": "string"}}}},
        secrets={"token": "s3cret"},
        content_security_policy={"script-src": "'self'"},
    )


async def test_publish_list_get_delete(gb: AsyncGitBook, connect: Clients, world: Any) -> None:
    org = world.org
    widget = await publish_widget(gb, org)
    assert isinstance(widget, Integration)
    assert (widget.name, widget.title, widget.version, widget.visibility) == (
        "acme-widget",
        "Acme Widget",
        1,
        "public",
    )
    assert widget.blocks[0].urlUnfurl == ["https://acme.test/cards"]
    assert widget.owner is not None and widget.owner.id == org
    assert widget.contentSecurityPolicy == "script-src 'self'"
    assert "secrets" not in widget.to_api()
    zeta = await gb.integrations.publish(
        "zeta-tool",
        organization=org,
        title="Zeta Tool",
        runtime="v2",
        content_sources=[{"id": "src", "title": "Source", "configuration": {"componentId": "c"}}],
    )
    assert zeta.visibility == "private" and zeta.contentSources[0].id == "src"

    page = await gb.integrations.list(limit=1)
    assert isinstance(page, Page) and [i.name for i in page.items] == ["acme-widget"]
    assert await names(gb.integrations.list()) == ["acme-widget", "zeta-tool"]
    assert await names(gb.integrations.list(search="WIDGET")) == ["acme-widget"]
    assert await names(gb.integrations.list(category="content")) == ["acme-widget"]
    assert await names(gb.integrations.list(block_domain="acme.test")) == ["acme-widget"]
    assert await names(gb.integrations.list(blocks=False)) == ["zeta-tool"]
    assert await names(gb.integrations.list(content_sources=True)) == ["zeta-tool"]
    assert await names(gb.integrations.list(owner=world.other_org)) == []
    assert await names(gb.integrations.list(scope="space:content:read")) == ["acme-widget"]
    assert await names(gb.integrations.list(target="site")) == ["zeta-tool"]
    assert await names(connect("otto").integrations.list()) == ["acme-widget"]  # public only

    again = await gb.integrations.publish("acme-widget", description="Now described")
    assert (again.version, again.description, again.title) == (2, "Now described", "Acme Widget")
    got = await gb.integrations.get("acme-widget")
    assert (got.version, got.description) == (2, "Now described")

    with pytest.raises(NotFoundError):
        await gb.integrations.get("no-such-integration")
    with pytest.raises(NotFoundError):
        await connect("otto").integrations.get("zeta-tool")  # private, not their org
    with pytest.raises(PermissionDeniedError):
        await connect("rhea").integrations.publish("acme-widget", title="Taken over")
    with pytest.raises(PermissionDeniedError):
        await connect("carol").integrations.delete("acme-widget")  # needs admin
    with pytest.raises(BadRequestError) as info:
        await gb.integrations.publish("brand-new", title="No owner")
    assert "organization" in info.value.message

    await gb.integrations.delete("zeta-tool")
    with pytest.raises(NotFoundError):
        await gb.integrations.get("zeta-tool")
    assert await names(gb.integrations.list()) == ["acme-widget"]
    await gb.integrations.delete("zeta-tool")  # already gone: still fine (204)


async def widget_and_targets(
    gb: AsyncGitBook, org: str, make_space: Callable[..., dict], name: str
) -> tuple[dict, Site]:
    """The widget published; a space "<name> guide" and a site "<name> site" to install it on."""
    await publish_widget(gb, org)
    return make_space(f"{name} guide"), await gb.sites.create(org, title=f"{name} site")


async def test_installations_events_spaces_sites(
    gb: AsyncGitBook, connect: Clients, world: Any, make_space: Callable[..., dict]
) -> None:
    org = world.org
    space, site = await widget_and_targets(gb, org, make_space, "Installed")
    assert (await gb.integrations.installations("acme-widget")).items == []

    installed = await gb.integrations.install(
        "acme-widget", org, configuration={"color": "red"}, external_ids=["ext-1"]
    )
    assert isinstance(installed, Installation)
    assert installed.status == "active" and installed.configuration == {"color": "red"}
    assert installed.target is not None and installed.target.organization == org
    listed = [i async for i in gb.integrations.installations("acme-widget")]
    assert [i.id for i in listed] == [installed.id]
    assert (await gb.integrations.installations("acme-widget", external_id="ext-1")).items
    assert (await gb.integrations.installations("acme-widget", external_id="nope")).items == []

    updated = await gb.integrations.install(
        "acme-widget", org, configuration={"color": "blue"}, space_selection="all"
    )
    assert updated.id == installed.id and updated.configuration == {"color": "blue"}
    other = await gb.integrations.install("acme-widget", world.other_org)
    assert other.id != installed.id
    assert len((await gb.integrations.installations("acme-widget")).items) == 2
    otto_sees = [i.id async for i in connect("otto").integrations.installations("acme-widget")]
    assert otto_sees == [other.id]  # only their organization's
    with pytest.raises(PermissionDeniedError):
        await connect("carol").integrations.install("acme-widget", org)

    events = [e async for e in gb.integrations.events("acme-widget")]
    assert all(isinstance(e, IntegrationEvent) for e in events)
    assert [e.installationId for e in events] == [other.id, installed.id, installed.id]
    assert events[1].payload is not None and events[1].payload.type == "installation_setup"
    assert events[1].payload.previous is not None
    assert events[1].payload.previous.configuration == {"color": "red"}
    assert len((await gb.integrations.events("acme-widget", limit=1)).items) == 1
    detail = await gb.integrations.event("acme-widget", events[0].id)
    assert isinstance(detail, IntegrationEventDetail)
    assert detail.event is not None and detail.event.id == events[0].id
    assert detail.trace is not None and detail.trace.logs[0].message
    with pytest.raises(NotFoundError):
        await gb.integrations.event("acme-widget", "no-such-event")
    with pytest.raises(PermissionDeniedError):
        await connect("otto").integrations.events("acme-widget")

    items = [i async for i in gb.integrations.spaces("acme-widget", external_id="ext-1")]
    assert all(isinstance(i, IntegrationSpaceItem) for i in items)
    assert [i.space for i in items] == [space["id"]]
    full_items = [i async for i in gb.integrations.spaces("acme-widget", extended=True)]
    [extended] = [i for i in full_items if isinstance(i.space, Space) and i.space.id == space["id"]]
    assert extended.installation == installed.id
    assert isinstance(extended.space, Space) and extended.space.title == "Installed guide"
    assert (await gb.integrations.spaces("acme-widget", external_id="nope")).items == []

    sites = [i async for i in gb.integrations.sites("acme-widget", external_id="ext-1")]
    assert all(isinstance(i, IntegrationSiteItem) for i in sites)
    assert [i.site for i in sites] == [site.id]
    full = await gb.integrations.sites("acme-widget", external_id="ext-1", extended=True)
    assert isinstance(full.items[0].site, Site) and full.items[0].site.title == "Installed site"


async def test_one_installation_on_chosen_spaces_and_sites(
    gb: AsyncGitBook, connect: Clients, world: Any, make_space: Callable[..., dict]
) -> None:
    org = world.org
    space, site = await widget_and_targets(gb, org, make_space, "Chosen")
    inst = await gb.integrations.install(
        "acme-widget", org, space_selection="selected", site_selection="selected"
    )
    assert (await gb.installations.spaces("acme-widget", inst.id)).items == []
    assert (await gb.installations.sites("acme-widget", inst.id)).items == []

    on_space = await gb.installations.install_on_space("acme-widget", inst.id, space["id"])
    assert isinstance(on_space, IntegrationSpaceItem) and on_space.space == space["id"]
    on_site = await gb.installations.install_on_site("acme-widget", inst.id, site.id)
    assert isinstance(on_site, IntegrationSiteItem) and on_site.site == site.id
    sites = [i async for i in gb.installations.sites("acme-widget", inst.id, extended=True)]
    assert [i.site.title for i in sites if isinstance(i.site, Site)] == ["Chosen site"]
    pairs = [p async for p in gb.installations.in_org(org)]
    assert [(p.integration.name, p.installation.id) for p in pairs] == [("acme-widget", inst.id)]

    with pytest.raises(PermissionDeniedError):
        await connect("carol").installations.uninstall_from_site("acme-widget", inst.id, site.id)
    await gb.installations.uninstall_from_site("acme-widget", inst.id, site.id)
    await gb.installations.uninstall_from_space("acme-widget", inst.id, space["id"])
    assert (await gb.installations.sites("acme-widget", inst.id)).items == []
    assert (await gb.installations.spaces("acme-widget", inst.id)).items == []
    await gb.installations.uninstall("acme-widget", inst.id)
    assert (await gb.integrations.installations("acme-widget")).items == []


async def test_dev_mode_and_render(
    gb: AsyncGitBook, connect: Clients, world: Any, peer: Peer
) -> None:
    org = world.org
    await publish_widget(gb, org)
    await gb.integrations.install("acme-widget", org)
    request = {"componentId": "card", "props": {"n": 1}, "context": {"type": "document"}}
    with pytest.raises(BadRequestError) as info:
        await gb.integrations.render("acme-widget", "card", props={}, context={})
    assert "development mode" in info.value.message

    tunnel = peer.url("/tunnel")
    assert await gb.integrations.enable_dev("acme-widget", tunnel) is None
    dev = (await gb.integrations.get("acme-widget")).model_extra or {}
    assert dev["development"]["tunnelUrl"] == tunnel and dev["development"]["all"] is False
    [enabled] = peer.posted("dev_mode_enabled")
    assert enabled["path"] == "/tunnel"
    latest = (await gb.integrations.events("acme-widget")).items[0]
    assert latest.payload is not None and latest.payload.type == "dev_mode_enabled"
    assert latest.status == "success"  # delivered to the tunnel

    await gb.integrations.install("acme-widget", org, configuration={"x": 1})
    assert peer.posted("installation_setup")[-1]["json"]["installationId"]

    output = await gb.integrations.render(
        "acme-widget", "card", props={"n": 1}, context={"type": "document"}, state={"s": 2}
    )
    assert isinstance(output, UIRenderOutput)
    assert output.type == "element" and output.element is not None
    assert output.element.type == "block" and output.element.children == []
    [render] = peer.posted("ui_render")
    assert render["json"]["componentId"] == "card" and render["json"]["state"] == {"s": 2}
    assert render["headers"]["content-security-policy"] == "script-src 'self'"

    with pytest.raises(PermissionDeniedError):  # owner-only forwarding (all=False)
        await connect("otto").integrations.render("acme-widget", "card", props={}, context={})

    compressed = {**request, "props": {"label": "héllo ✓ 😀"}, "action": {"action": "click"}}
    output = await gb.integrations.render_compressed("acme-widget", compressed)
    assert isinstance(output, UIRenderOutput) and output.type == "element"
    forwarded = peer.posted("ui_render")[-1]["json"]
    assert forwarded["props"] == {"label": "héllo ✓ 😀"}
    assert forwarded["action"] == {"action": "click"}
    await gb.integrations.render_compressed("acme-widget", request)
    assert len(peer.posted("ui_render")) == 3  # never answered from a cache
    with pytest.raises(BadRequestError) as info:
        await gb.integrations.render_compressed("acme-widget", {"props": {}})
    assert "componentId" in info.value.message

    await gb.integrations.enable_dev("acme-widget", tunnel, all_organizations=True)
    got = (await gb.integrations.get("acme-widget")).model_extra or {}
    assert got["development"]["all"] is True
    otto_output = await connect("otto").integrations.render(
        "acme-widget", "card", props={}, context={}
    )
    assert otto_output.type == "element"
    with pytest.raises(PermissionDeniedError):
        await connect("rhea").integrations.enable_dev("acme-widget", tunnel)

    assert await gb.integrations.disable_dev("acme-widget") is None
    assert "development" not in ((await gb.integrations.get("acme-widget")).model_extra or {})
    latest = (await gb.integrations.events("acme-widget")).items[0]
    assert latest.payload is not None and latest.payload.type == "dev_mode_disabled"
    with pytest.raises(BadRequestError):
        await gb.integrations.render_compressed("acme-widget", request)


def test_lz_string_matches_the_javascript_library_and_the_server() -> None:
    # Expected values computed with lz-string 1.5 (compressToEncodedURIComponent).
    known = {
        "Hello, world": "BIUwNmD2A0AEDukBOYAmQ",
        "": "Q",
        "a": "IZA",
        "a" * 20: "IY1-kA",
        "héllo wörld ✓ 😀": "BYS4NmD2AEDuBvAnMATahkcmoXg3AAe0A",
    }
    for text, expected in known.items():
        assert compress_to_encoded_uri_component(text) == expected
    sample = json.dumps({"componentId": "c", "props": {"list": list(range(300))}, "t": "✓" * 50})
    assert lz_decompress_from_uri(compress_to_encoded_uri_component(sample)) == sample


# -- OpenAPI specifications -------------------------------------------------------------------
async def test_openapi_specs(gb: AsyncGitBook, connect: Clients, world: Any, peer: Peer) -> None:
    org = world.org
    spec = await gb.openapi.create(org, "petstore", url=peer.url("/openapi.json"))
    assert isinstance(spec, OpenAPISpec)
    assert (spec.slug, spec.processingState, spec.sourceURL) == (
        "petstore",
        "complete",
        peer.url("/openapi.json"),
    )
    assert spec.lastVersion and spec.lastProcessErrorCode is None
    page = await gb.openapi.list(org)
    assert isinstance(page, Page) and [s.slug for s in page.items] == ["petstore"]
    assert (await gb.openapi.get(org, "petstore")).lastVersion == spec.lastVersion

    [first] = [v async for v in gb.openapi.versions(org, "petstore")]
    assert isinstance(first, OpenAPISpecVersion) and first.id == spec.lastVersion
    assert first.url == peer.url("/openapi.json")
    latest = await gb.openapi.latest_version(org, "petstore")
    assert latest.id == first.id
    content = await gb.openapi.latest_content(org, "petstore")
    assert isinstance(content, VersionContent)
    assert json.loads(content.filesystem["openapi.json"]["text"]) == SPEC_V1

    updated = await gb.openapi.update(org, "petstore", url=peer.url("/openapi-v2.json"))
    assert updated.lastVersion and updated.lastVersion != first.id
    assert [v.id async for v in gb.openapi.versions(org, "petstore")] == [
        updated.lastVersion,
        first.id,
    ]
    assert len((await gb.openapi.versions(org, "petstore", limit=1)).items) == 1
    assert (await gb.openapi.latest_version(org, "petstore")).id == updated.lastVersion
    latest_text = (await gb.openapi.latest_content(org, "petstore")).filesystem["openapi.json"]
    assert json.loads(latest_text["text"]) == SPEC_V2
    old = await gb.openapi.version(org, "petstore", first.id)
    assert isinstance(old, OpenAPISpecVersion) and old.id == first.id
    old_content = await gb.openapi.version_content(org, "petstore", first.id)
    assert json.loads(old_content.filesystem["openapi.json"]["text"]) == SPEC_V1

    yaml_text = "openapi: 3.0.0\ninfo:\n  title: Inline\n  version: '1'\npaths: {}\n"
    inline = await gb.openapi.update(org, "inline", text=yaml_text)  # PUT creates a new slug
    assert inline.slug == "inline" and inline.sourceURL is None
    assert (await gb.openapi.latest_content(org, "inline")).filesystem["openapi.yaml"][
        "text"
    ] == yaml_text
    broken = await gb.openapi.update(org, "petstore", url=peer.url("/missing.json"))
    assert broken.lastProcessErrorCode == "FETCH_ERROR"
    assert broken.lastVersion == updated.lastVersion  # earlier versions kept
    junk = await gb.openapi.create(org, "junk", text="just words")
    assert junk.lastProcessErrorCode == "PARSE_ERROR" and junk.lastVersion is None
    assert [s.slug async for s in gb.openapi.list(org)] == ["petstore", "inline", "junk"]

    with pytest.raises(ValueError, match="exactly one"):
        await gb.openapi.create(org, "both", url=peer.url("/openapi.json"), text="x")
    with pytest.raises(NotFoundError):
        await gb.openapi.latest_version(org, "junk")
    with pytest.raises(NotFoundError):
        await gb.openapi.version(org, "petstore", "no-such-version")
    with pytest.raises(PermissionDeniedError):
        await connect("rhea").openapi.create(org, "mine", text=yaml_text)
    assert (await connect("rhea").openapi.get(org, "petstore")).slug == "petstore"
    with pytest.raises(NotFoundError):
        await connect("otto").openapi.get(org, "petstore")
    with pytest.raises(BadRequestError) as info:
        await gb.openapi.create(org, "Bad Slug", text=yaml_text)
    assert "slug" in info.value.message

    await gb.openapi.delete(org, "junk")
    with pytest.raises(NotFoundError):
        await gb.openapi.get(org, "junk")
    assert [s.slug async for s in gb.openapi.list(org)] == ["petstore", "inline"]
