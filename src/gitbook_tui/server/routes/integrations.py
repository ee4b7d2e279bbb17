"""Routes for integrations: publish, installations, events, space/site items, dev mode, render.

Storage: kind ``integration`` (id = name, scope ''), kind ``installation`` (scope = integration
name) and kind ``integration-event`` (scope = integration name). A stored integration is::

    {"name", "organization": owner org id, "version", "runtime", "createdAt", "updatedAt",
     "publishedBy", "title", "description"?, "summary"?, "visibility", "target", "scopes",
     "categories", "blocks", "contentSources", "configurations", "externalLinks",
     "contentSecurityPolicy"?, "icon": {"digest", "name"}?, "previewImages": [{"digest",
     "name"}], "script": {"digest", "size"}?, "secrets": {...} (never rendered),
     "development": {"tunnelUrl", "all", "enabledAt", "enabledBy"}?}

An installation is ``{id, integration, organization, status, space_selection,
site_selection, configuration, externalIds, createdAt, updatedAt, installedBy}``; an event is
``{id, integration, installationId?, organization?, createdAt, payload, status, trace: [log]}``.

Rules where the contract is silent (kept in one place here):
- Visibility: the list shows ``public`` integrations plus every integration owned by an
  organization the caller is a member of; GET (and everything below it) also admits
  ``unlisted`` ones; others are 404. List order: by name (case-insensitive).
- List filters (openapi names): ``search`` (substring of name or title, case-insensitive),
  ``category``, ``blockDomain`` (host of a block ``urlUnfurl`` pattern equals or ends with
  ``.domain``), ``blocks`` / ``contentSources`` (true: has some; false: has none), ``owner``
  (org id), ``scope``, ``target`` (integrations installable there: same target or ``all``).
- Publish (POST) creates or updates. A new integration needs ``organization`` (id or
  hostname; 404 if not found or not a member; 403 below ``create``) and ``title``. Updating
  needs ``create`` on the owner org (a name owned by another organization is 409); fields
  omitted keep their value, except ``runtime`` (``v1`` or ``v2`` per openapi; omitted = ``v1``).
  Each publish increments ``version``. ``icon``/``previewImages`` (base64, optionally as a
  ``data:`` URL, ≤ 2 MB each) are stored as files served at ``/files/{digest}/{name}``.
  ``contentSecurityPolicy`` given as an object is stored as its header string.
  ``visibility`` defaults to ``private`` and ``target`` to ``all``.
- DELETE needs ``admin`` on the owner org: 205, or 204 when no such integration exists; it
  removes installations and events.
- Installing (POST .../installations) needs ``admin`` on the target organization; a
  ``private`` integration installs only in its owner organization. Optional local extension
  fields: ``configuration``, ``externalIds`` (≤ 5), ``space_selection``/``site_selection``
  (default ``all``). Installing again in the same organization updates that installation
  (200 instead of 201) and its event carries ``previous: {status, configuration}``; a first
  installation's event has ``previous: null``.
- Installations, space and site items: members of the owner organization see all of them;
  other callers see those of organizations they belong to. ``externalId`` matches the
  installation's ``externalIds``; space/site items carry ``configuration: {}`` and
  ``externalIds: []`` of their own. ``extended=true`` renders the Space / Site objects.
- Events and their traces are readable by members of the owner organization only (403).
  Events list newest first. Event types: ``installation_setup`` (installation created or
  updated), ``dev_mode_enabled`` and ``dev_mode_disabled`` (payload ``{eventId, type,
  installationId?, development, previous: {development}}``).
- Dev mode (PUT 204 / DELETE 205) needs ``create`` on the owner organization. While it is on,
  each recorded event is POSTed (its payload, with ``Content-Security-Policy`` when set) to
  ``tunnelUrl`` after the transaction commits; ``all=false`` dispatches only events of the
  owner organization (or of none). The event is ``pending`` until delivered, then ``success``
  or ``failed`` with the reason in its trace; events recorded with dev mode off are
  ``success`` (recorded, not dispatched). The ``development`` settings are shown to members
  of the owner organization in the Integration JSON.
- Render (GET with the LZ-string ``request`` parameter, or POST) forwards
  ``{type: "ui_render", eventId, componentId, props, state, context, action?, auth}`` to the
  tunnel (with the CSP header) and answers its output as is; outside dev mode it is 400, from
  a non-owner organization with ``all=false`` 403. A tunnel failure is 502 (504 on timeout);
  output that is not ``{type: "element", element: {...}}`` or ``{type: "complete"}`` is 502.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal
from urllib.parse import urlparse

from fastapi import APIRouter, Path, Query, Response
from fastapi.responses import JSONResponse
from pydantic import Field, ValidationError, field_validator

from ..context import Ctx, CtxDep
from ..errors import ApiError, bad_request, conflict, forbidden, not_found
from ..fetch import FetchError, post_json
from ..pagination import PagingParams, paginate
from ..permissions import at_least, org_role
from ..resources import org_json, space_json
from ..schemas import Body
from ..storage import Tx

router = APIRouter(tags=["integrations"])

NAME_PATTERN = r"^[a-zA-Z0-9-_.]+$"
NameParam = Annotated[str, Path(pattern=NAME_PATTERN, max_length=100)]

Visibility = Literal["public", "private", "unlisted"]
Target = Literal["all", "site", "space", "organization"]
Category = Literal["analytics", "collaboration", "content", "marketing", "visitor-auth", "other"]
Scope = Literal[
    "space:content:read",
    "space:content:write",
    "space:metadata:read",
    "space:metadata:write",
    "space:git:sync",
    "page:feedback:read",
    "site:metadata:read",
    "site:views:read",
    "site:script:inject",
    "site:script:cookies",
    "site:visitor:auth",
    "site:visitor:claims",
    "site:adaptive:read",
    "site:adaptive:write",
    "conversations:ingest",
    "openapi:read",
    "openapi:write",
]
Selection = Literal["all", "selected"]

MAX_IMAGE_BYTES = 2 * 1024 * 1024
MAX_SCRIPT_CHARS = 10_000_000


# -- request bodies ----------------------------------------------------------------------------
class BlockMarkdown(Body):
    codeblock: str = Field(max_length=100)
    body: str = Field(max_length=100)


class Block(Body):
    id: str = Field(min_length=1, max_length=100)
    title: str = Field(min_length=2, max_length=40)
    description: str | None = Field(None, max_length=150)
    icon: str | None = Field(None, max_length=2048)
    urlUnfurl: list[str] | None = None
    markdown: BlockMarkdown | None = None


class ComponentRef(Body):
    componentId: str = Field(min_length=1, max_length=100)


class ContentSource(Body):
    id: str = Field(min_length=1, max_length=100)
    title: str = Field(min_length=2, max_length=40)
    description: str | None = Field(None, max_length=150)
    icon: str | None = Field(None, max_length=2048)
    configuration: ComponentRef


class ExternalLink(Body):
    url: str = Field(min_length=1, max_length=2048)
    label: str = Field(max_length=100)


class Configurations(Body):
    account: dict[str, Any] | None = None
    space: dict[str, Any] | None = None
    site: dict[str, Any] | None = None


class PublishIntegration(Body):
    runtime: Literal["v1", "v2"] = "v1"
    icon: str | None = None
    title: str | None = Field(None, min_length=2, max_length=30)
    description: str | None = Field(None, max_length=100)
    summary: str | None = Field(None, max_length=2048)
    previewImages: list[str] | None = Field(None, max_length=3)
    visibility: Visibility | None = None
    target: Target | None = None
    scopes: list[Scope] | None = None
    categories: list[Category] | None = None
    blocks: list[Block] | None = Field(None, max_length=100)
    contentSources: list[ContentSource] | None = Field(None, max_length=100)
    externalLinks: list[ExternalLink] | None = Field(None, max_length=5)
    configurations: Configurations | None = None
    script: str | None = Field(None, max_length=MAX_SCRIPT_CHARS)
    organization: str | None = Field(None, min_length=1, max_length=100)
    secrets: dict[str, str] | None = None
    contentSecurityPolicy: str | dict[str, str] | None = None

    @field_validator("secrets")
    @classmethod
    def _secrets(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        if value is not None and len(value) > 20:
            raise ValueError("at most 20 secrets")
        return value

    @field_validator("externalLinks")
    @classmethod
    def _links(cls, value: list[ExternalLink] | None) -> list[ExternalLink] | None:
        for link in value or []:
            if not _is_http_url(link.url):
                raise ValueError(f"'{link.url}' is not an http(s) URL")
        return value


class InstallBody(Body):
    organization: str = Field(min_length=1, max_length=100)
    configuration: dict[str, Any] | None = None
    externalIds: list[Annotated[str, Field(min_length=1, max_length=512)]] | None = Field(
        None, max_length=5
    )
    space_selection: Selection | None = None
    site_selection: Selection | None = None


class DevMode(Body):
    tunnelUrl: str = Field(min_length=1, max_length=256)
    all: bool = False

    @field_validator("tunnelUrl")
    @classmethod
    def _tunnel(cls, value: str) -> str:
        if not _is_http_url(value):
            raise ValueError("must be an http(s) URL")
        return value


class RenderRequest(Body):
    componentId: str = Field(min_length=1, max_length=256)
    props: dict[str, Any]
    state: dict[str, Any] | None = None
    context: dict[str, Any]
    action: dict[str, Any] | None = None


def _is_http_url(value: str) -> bool:
    parsed = urlparse(value)
    return parsed.scheme in ("http", "https") and bool(parsed.netloc) and " " not in value


# -- LZ-string (compressToEncodedURIComponent / decompressFromEncodedURIComponent) -------------
_URI_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$"
_URI_INDEX = {ch: i for i, ch in enumerate(_URI_ALPHABET)}


def _utf16_units(text: str) -> str:
    """The string as JavaScript sees it: one character per UTF-16 code unit."""
    raw = text.encode("utf-16-le", "surrogatepass")
    return "".join(chr(int.from_bytes(raw[i : i + 2], "little")) for i in range(0, len(raw), 2))


def _from_utf16_units(units: str) -> str:
    raw = b"".join(ord(ch).to_bytes(2, "little") for ch in units)
    return raw.decode("utf-16-le", "surrogatepass")


class _BitWriter:
    def __init__(self, bits_per_char: int) -> None:
        self.bits = bits_per_char
        self.out: list[str] = []
        self.val = 0
        self.pos = 0

    def write(self, value: int, count: int) -> None:
        """Write ``count`` bits of ``value``, least significant first."""
        for _ in range(count):
            self.val = (self.val << 1) | (value & 1)
            if self.pos == self.bits - 1:
                self.pos = 0
                self.out.append(_URI_ALPHABET[self.val])
                self.val = 0
            else:
                self.pos += 1
            value >>= 1

    def flush(self) -> str:
        while True:
            self.val <<= 1
            if self.pos == self.bits - 1:
                self.out.append(_URI_ALPHABET[self.val])
                break
            self.pos += 1
        return "".join(self.out)


def lz_compress_to_uri(text: str) -> str:
    """LZ-string ``compressToEncodedURIComponent`` (byte-compatible with the JS library)."""
    data = _utf16_units(text)
    dictionary: dict[str, int] = {}
    to_create: set[str] = set()
    w = ""
    enlarge_in, dict_size, num_bits = 2, 3, 2
    out = _BitWriter(6)

    def emit(word: str) -> None:
        nonlocal enlarge_in, num_bits
        if word in to_create:
            code = ord(word[0])
            if code < 256:
                out.write(0, num_bits)
                out.write(code, 8)
            else:
                out.write(1, num_bits)
                out.write(code, 16)
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in, num_bits = 2**num_bits, num_bits + 1
            to_create.discard(word)
        else:
            out.write(dictionary[word], num_bits)
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in, num_bits = 2**num_bits, num_bits + 1

    for c in data:
        if c not in dictionary:
            dictionary[c] = dict_size
            dict_size += 1
            to_create.add(c)
        wc = w + c
        if wc in dictionary:
            w = wc
        else:
            emit(w)
            dictionary[wc] = dict_size
            dict_size += 1
            w = c
    if w:
        emit(w)
    out.write(2, num_bits)
    return out.flush()


def lz_decompress_from_uri(encoded: str) -> str | None:
    """LZ-string ``decompressFromEncodedURIComponent``; ``None`` when the input is invalid."""
    if encoded == "":
        return None
    encoded = encoded.replace(" ", "+")
    try:
        values = [_URI_INDEX[ch] for ch in encoded]
    except KeyError:
        return None
    length, reset = len(values), 32
    state = {"val": values[0], "pos": reset, "index": 1}

    def read(count: int) -> int:
        bits, power = 0, 1
        for _ in range(count):
            res = state["val"] & state["pos"]
            state["pos"] >>= 1
            if state["pos"] == 0:
                state["pos"] = reset
                idx = state["index"]
                state["val"] = values[idx] if idx < length else 0
                state["index"] = idx + 1
            if res > 0:
                bits |= power
            power <<= 1
        return bits

    dictionary: dict[int, str] = {0: "\x00", 1: "\x01", 2: "\x02"}
    enlarge_in, dict_size, num_bits = 4, 4, 3
    first = read(2)
    if first == 0:
        c = chr(read(8))
    elif first == 1:
        c = chr(read(16))
    else:
        return ""
    dictionary[3] = c
    w = c
    result = [c]
    while True:
        if state["index"] > length:
            return None
        code = read(num_bits)
        if code in (0, 1):
            dictionary[dict_size] = chr(read(8 if code == 0 else 16))
            dict_size += 1
            code = dict_size - 1
            enlarge_in -= 1
        elif code == 2:
            try:
                return _from_utf16_units("".join(result))
            except UnicodeDecodeError:
                return None
        if enlarge_in == 0:
            enlarge_in, num_bits = 2**num_bits, num_bits + 1
        if code in dictionary:
            entry = dictionary[code]
        elif code == dict_size:
            entry = w + w[0]
        else:
            return None
        result.append(entry)
        dictionary[dict_size] = w + entry[0]
        dict_size += 1
        enlarge_in -= 1
        w = entry
        if enlarge_in == 0:
            enlarge_in, num_bits = 2**num_bits, num_bits + 1


# -- loading and rendering ---------------------------------------------------------------------
def _owner_role(tx: Tx, ctx: Ctx, integ: dict[str, Any]) -> str | None:
    return org_role(tx, integ["organization"], ctx.user_id)


def load_integration(tx: Tx, ctx: Ctx, name: str) -> dict[str, Any]:
    """The integration if the caller may see it (public, unlisted or owned by their org)."""
    integ = tx.get("integration", name)
    if integ is None or (
        integ.get("visibility") not in ("public", "unlisted")
        and _owner_role(tx, ctx, integ) is None
    ):
        raise not_found("Integration", name)
    return integ


def _require_owner(tx: Tx, ctx: Ctx, integ: dict[str, Any], needed: str, action: str) -> None:
    role = _owner_role(tx, ctx, integ)
    if not at_least(role, needed):
        raise forbidden(
            f"{action} needs the '{needed}' role on the organization that owns "
            f"integration '{integ['name']}'."
        )


def _file_url(ctx: Ctx, ref: dict[str, Any]) -> str:
    return f"{ctx.origin}/files/{ref['digest']}/{ref['name']}"


def _csp_string(csp: str | dict[str, str] | None) -> str | None:
    if csp is None or isinstance(csp, str):
        return csp
    return "; ".join(f"{key} {value}".strip() for key, value in csp.items())


def integration_json(tx: Tx, ctx: Ctx, integ: dict[str, Any]) -> dict[str, Any]:
    name = integ["name"]
    owner = tx.get("org", integ["organization"]) or {"id": integ["organization"], "title": ""}
    role = _owner_role(tx, ctx, integ)
    public = f"{ctx.origin}/integrations/{name}"
    urls: dict[str, str] = {
        "location": f"{ctx.api}/integrations/{name}",
        "app": f"{ctx.app}/integrations/{name}",
        "assets": f"{public}/assets",
        "publicEndpoint": public,
        "publicContentEndpoint": public,
    }
    if integ.get("icon"):
        urls["icon"] = _file_url(ctx, integ["icon"])
    body: dict[str, Any] = {
        "object": "integration",
        "name": name,
        "version": integ["version"],
        "runtime": integ.get("runtime", "v1"),
        "title": integ.get("title", name),
    }
    for key in ("description", "summary"):
        if integ.get(key) is not None:
            body[key] = integ[key]
    body.update(
        {
            "previewImages": [_file_url(ctx, ref) for ref in integ.get("previewImages", [])],
            "target": integ.get("target", "all"),
            "verified": False,
            "visibility": integ.get("visibility", "private"),
            "scopes": integ.get("scopes", []),
            "categories": integ.get("categories", []),
            "blocks": integ.get("blocks", []),
            "contentSources": integ.get("contentSources", []),
            "configurations": integ.get("configurations", {}),
            "externalLinks": integ.get("externalLinks", []),
            "owner": org_json(tx, ctx, owner),
            "urls": urls,
            "permissions": {"admin": role == "admin", "install": _can_install(tx, ctx, integ)},
        }
    )
    if integ.get("contentSecurityPolicy"):
        body["contentSecurityPolicy"] = integ["contentSecurityPolicy"]
    if role is not None and integ.get("development"):
        dev = integ["development"]
        body["development"] = {
            "tunnelUrl": dev["tunnelUrl"],
            "all": dev.get("all", False),
            "enabledAt": dev.get("enabledAt"),
        }
    body["createdAt"] = integ.get("createdAt")
    body["updatedAt"] = integ.get("updatedAt")
    return body


def _can_install(tx: Tx, ctx: Ctx, integ: dict[str, Any]) -> bool:
    if integ.get("visibility") == "private":
        return _owner_role(tx, ctx, integ) == "admin"
    return any(
        m.get("role") == "admin" and not m.get("disabled")
        for m in tx.list("member")
        if m.get("user") == ctx.user_id
    )


def installation_json(tx: Tx, ctx: Ctx, inst: dict[str, Any]) -> dict[str, Any]:
    name, org_id = inst["integration"], inst["organization"]
    public = f"{ctx.origin}/integrations/{name}/installations/{inst['id']}"
    spaces = len(_org_spaces(tx, org_id)) if inst.get("space_selection") == "all" else 0
    return {
        "id": inst["id"],
        "status": inst["status"],
        "space_selection": inst.get("space_selection", "all"),
        "site_selection": inst.get("site_selection", "all"),
        "spaces": spaces,
        "configuration": inst.get("configuration", {}),
        "createdAt": inst["createdAt"],
        "updatedAt": inst["updatedAt"],
        "urls": {
            "location": f"{ctx.api}/integrations/{name}/installations/{inst['id']}",
            "app": f"{ctx.app}/o/{org_id}/integrations/{name}",
            "publicEndpoint": public,
            "publicContentEndpoint": public,
        },
        "externalIds": inst.get("externalIds", []),
        "target": {"organization": org_id},
    }


def _visible_installations(tx: Tx, ctx: Ctx, integ: dict[str, Any]) -> list[dict[str, Any]]:
    items = tx.list("installation", integ["name"])
    if _owner_role(tx, ctx, integ) is not None:
        return items
    return [i for i in items if org_role(tx, i["organization"], ctx.user_id) is not None]


def _org_spaces(tx: Tx, org_id: str) -> list[dict[str, Any]]:
    rows = tx.conn.execute(
        "SELECT data FROM docs WHERE kind='space' AND json_extract(data, '$.organization')=? "
        "AND json_extract(data, '$.deletedAt') IS NULL ORDER BY pos, seq",
        (org_id,),
    )
    return [json.loads(row[0]) for row in rows]


def _org_sites(tx: Tx, org_id: str) -> list[dict[str, Any]]:
    return [s for s in tx.list("site", org_id) if not s.get("deletedAt")]


def _site_json(tx: Tx, ctx: Ctx, site: dict[str, Any]) -> dict[str, Any]:
    """The sites family's Site renderer; a minimal Site if it cannot render this record."""
    try:
        from .sites import site_json

        return site_json(tx, ctx, site)
    except (ImportError, KeyError, TypeError):  # pragma: no cover - defensive fallback
        pass
    org_id = site.get("organization", "")
    return {
        "object": "site",
        "id": site["id"],
        "title": site.get("title", ""),
        "organization": org_id,
        "urls": {
            "location": f"{ctx.api}/orgs/{org_id}/sites/{site['id']}",
            "app": f"{ctx.app}/o/{org_id}/sites/{site['id']}",
        },
    }


def event_json(event: dict[str, Any]) -> dict[str, Any]:
    body = {
        "id": event["id"],
        "integrationId": event["integration"],
        "createdAt": event["createdAt"],
        "payload": event["payload"],
        "status": event["status"],
    }
    if event.get("installationId"):
        body["installationId"] = event["installationId"]
    return body


# -- events and their dispatch -----------------------------------------------------------------
@dataclass(frozen=True)
class Dispatch:
    """An event to POST to a dev tunnel once the recording transaction has committed."""

    event_id: str
    url: str
    payload: dict[str, Any]
    csp: str | None


def _log(ctx: Ctx, level: str, message: str) -> dict[str, str]:
    return {"message": message, "timestamp": ctx.now(), "level": level}


def record_event(
    tx: Tx,
    ctx: Ctx,
    integ: dict[str, Any],
    type: str,
    *,
    installation: dict[str, Any] | None = None,
    organization: str | None = None,
    fields: dict[str, Any] | None = None,
) -> Dispatch | None:
    """Store an integration event; return its dispatch when dev mode should forward it."""
    event_id = ctx.new_id()
    payload: dict[str, Any] = {"eventId": event_id, "type": type}
    if installation is not None:
        payload["installationId"] = installation["id"]
        organization = installation["organization"]
    payload.update(fields or {})
    dev: dict[str, Any] | None = integ.get("development")
    forward = dev is not None and bool(
        dev.get("all") or organization is None or organization == integ["organization"]
    )
    logs = [_log(ctx, "info", f"event {type} recorded")]
    if not dev:
        logs.append(_log(ctx, "debug", "development mode is off: the event was not dispatched"))
    elif not forward:
        logs.append(
            _log(ctx, "debug", "development mode forwards only the owner organization's events")
        )
    event = {
        "id": event_id,
        "integration": integ["name"],
        "installationId": payload.get("installationId"),
        "organization": organization,
        "createdAt": ctx.now(),
        "payload": payload,
        "status": "pending" if forward else "success",
        "trace": logs,
    }
    tx.put("integration-event", event_id, event, scope=integ["name"])
    if dev is None or not forward:
        return None
    return Dispatch(event_id, dev["tunnelUrl"], payload, integ.get("contentSecurityPolicy"))


def _csp_headers(csp: str | None) -> dict[str, str]:
    return {"Content-Security-Policy": csp} if csp else {}


def deliver(ctx: Ctx, dispatches: list[Dispatch | None]) -> None:
    """POST each pending event to its tunnel (no DB lock held), then record the outcome."""
    for dispatch in dispatches:
        if dispatch is None:
            continue
        try:
            response = post_json(
                dispatch.url,
                dispatch.payload,
                timeout=ctx.state.fetch_timeout,
                headers=_csp_headers(dispatch.csp),
            )
        except FetchError as exc:
            status, log = "failed", _log(ctx, "error", f"delivery failed: {exc.message}")
        else:
            if response.status_code < 400:
                status = "success"
                log = _log(
                    ctx, "info", f"dispatched to {dispatch.url}: HTTP {response.status_code}"
                )
            else:
                status = "failed"
                log = _log(
                    ctx,
                    "error",
                    f"delivery failed: {dispatch.url} answered HTTP {response.status_code}",
                )
        with ctx.write() as tx:
            event = tx.get("integration-event", dispatch.event_id)
            if event is None:  # deleted with its integration meanwhile
                continue
            event["status"] = status
            event["trace"] = [*event.get("trace", []), log]
            tx.put("integration-event", event["id"], event)


# -- publishing helpers ------------------------------------------------------------------------
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png", "png"),
    (b"\xff\xd8\xff", "image/jpeg", "jpg"),
    (b"GIF8", "image/gif", "gif"),
    (b"RIFF", "image/webp", "webp"),
)


def _store_image(tx: Tx, value: str, field: str, stem: str) -> dict[str, str]:
    data = value.split(",", 1)[1] if value.startswith("data:") and "," in value else value
    try:
        raw = base64.b64decode(data.strip(), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise bad_request(f"{field}: not valid base64 content") from exc
    if not raw:
        raise bad_request(f"{field}: is empty")
    if len(raw) > MAX_IMAGE_BYTES:
        raise bad_request(f"{field}: larger than {MAX_IMAGE_BYTES} bytes")
    content_type, ext = "application/octet-stream", "bin"
    for signature, mime, extension in _SIGNATURES:
        if raw.startswith(signature):
            content_type, ext = mime, extension
            break
    else:
        if raw.lstrip()[:5] in (b"<svg ", b"<?xml"):
            content_type, ext = "image/svg+xml", "svg"
    digest = tx.put_blob(raw)
    if tx.get("file-blob", digest) is None:
        tx.put("file-blob", digest, {"contentType": content_type, "size": len(raw)})
    return {"digest": digest, "name": f"{stem}.{ext}"}


def _resolve_org(tx: Tx, ctx: Ctx, ref: str) -> dict[str, Any]:
    org = tx.get("org", ref)
    if org is None:
        org = next((o for o in tx.list("org") if o.get("hostname") == ref), None)
    if org is None or org_role(tx, org["id"], ctx.user_id) is None:
        raise not_found("Organization", ref)
    return org


def _domain_matches(block: dict[str, Any], domain: str) -> bool:
    domain = domain.lower()
    for pattern in block.get("urlUnfurl") or []:
        host = urlparse(pattern if "://" in pattern else f"https://{pattern}").hostname or ""
        host = host.lower().lstrip("*.")
        if host == domain or host.endswith(f".{domain}"):
            return True
    return False


# -- integrations ------------------------------------------------------------------------------
@router.get("/integrations")
def list_integrations(
    ctx: CtxDep,
    paging: PagingParams,
    search: Annotated[str | None, Query(max_length=256)] = None,
    category: Category | None = None,
    blockDomain: Annotated[str | None, Query(pattern=NAME_PATTERN, max_length=100)] = None,
    blocks: bool | None = None,
    contentSources: bool | None = None,
    owner: str | None = None,
    scope: Scope | None = None,
    target: Target | None = None,
) -> dict[str, Any]:
    with ctx.read() as tx:
        member_orgs = {
            m["organization"]
            for m in tx.list("member")
            if m.get("user") == ctx.user_id and not m.get("disabled")
        }
        items = []
        for integ in tx.list("integration"):
            if integ.get("visibility") != "public" and integ["organization"] not in member_orgs:
                continue
            if search:
                needle = search.lower()
                if (
                    needle not in integ["name"].lower()
                    and needle not in str(integ.get("title", "")).lower()
                ):
                    continue
            if category and category not in integ.get("categories", []):
                continue
            if scope and scope not in integ.get("scopes", []):
                continue
            if owner and integ["organization"] != owner:
                continue
            if target and integ.get("target", "all") not in (target, "all"):
                continue
            if blocks is not None and bool(integ.get("blocks")) != blocks:
                continue
            if contentSources is not None and bool(integ.get("contentSources")) != contentSources:
                continue
            if blockDomain and not any(
                _domain_matches(b, blockDomain) for b in integ.get("blocks", [])
            ):
                continue
            items.append(integ)
        items.sort(key=lambda i: (i["name"].lower(), i["name"]))
        return paginate(items, paging, lambda i: integration_json(tx, ctx, i))


@router.get("/integrations/{integrationName}")
def get_integration(ctx: CtxDep, integrationName: NameParam) -> dict[str, Any]:
    with ctx.read() as tx:
        return integration_json(tx, ctx, load_integration(tx, ctx, integrationName))


@router.post("/integrations/{integrationName}")
def publish_integration(
    ctx: CtxDep, integrationName: NameParam, body: PublishIntegration
) -> dict[str, Any]:
    name = integrationName
    with ctx.write() as tx:
        integ = tx.get("integration", name)
        now = ctx.now()
        if integ is None:
            if body.organization is None:
                raise bad_request("organization: is required to publish a new integration")
            if body.title is None:
                raise bad_request("title: is required to publish a new integration")
            org = _resolve_org(tx, ctx, body.organization)
            if not at_least(org_role(tx, org["id"], ctx.user_id), "create"):
                raise forbidden(
                    "Publishing an integration needs the 'create' role on the organization."
                )
            integ = {
                "name": name,
                "organization": org["id"],
                "version": 0,
                "createdAt": now,
                "visibility": "private",
                "target": "all",
                "scopes": [],
                "categories": [],
                "blocks": [],
                "contentSources": [],
                "configurations": {},
                "externalLinks": [],
                "previewImages": [],
            }
        else:
            if _owner_role(tx, ctx, integ) is None:
                raise conflict(
                    f"The integration name '{name}' is already taken by another organization."
                )
            _require_owner(tx, ctx, integ, "create", "Publishing")
            if body.organization is not None:
                org = _resolve_org(tx, ctx, body.organization)
                if org["id"] != integ["organization"]:
                    raise bad_request(
                        f"organization: integration '{name}' is published by organization "
                        f"'{integ['organization']}'"
                    )
        changes = body.model_dump(exclude_unset=True, mode="json")
        for key in (
            "title",
            "description",
            "summary",
            "visibility",
            "target",
            "scopes",
            "categories",
            "blocks",
            "contentSources",
            "externalLinks",
            "configurations",
        ):
            if key in changes:
                integ[key] = changes[key]
        if "contentSecurityPolicy" in changes:
            integ["contentSecurityPolicy"] = _csp_string(body.contentSecurityPolicy)
        if "secrets" in changes:
            integ["secrets"] = changes["secrets"] or {}
        if body.script is not None:
            integ["script"] = {"digest": tx.put_blob(body.script), "size": len(body.script)}
        if body.icon is not None:
            integ["icon"] = _store_image(tx, body.icon, "icon", "icon")
        if body.previewImages is not None:
            integ["previewImages"] = [
                _store_image(tx, image, f"previewImages.{i}", f"preview-{i}")
                for i, image in enumerate(body.previewImages)
            ]
        integ["runtime"] = body.runtime
        integ["version"] = int(integ.get("version", 0)) + 1
        integ["updatedAt"] = now
        integ["publishedBy"] = ctx.user_id
        tx.put("integration", name, integ, scope="")
        return integration_json(tx, ctx, integ)


@router.delete("/integrations/{integrationName}")
def unpublish_integration(ctx: CtxDep, integrationName: NameParam) -> Response:
    with ctx.write() as tx:
        if tx.get("integration", integrationName) is None:
            return Response(status_code=204)
        integ = load_integration(tx, ctx, integrationName)
        _require_owner(tx, ctx, integ, "admin", "Deleting an integration")
        tx.delete_scope("installation", integrationName)
        tx.delete_scope("integration-event", integrationName)
        tx.delete("integration", integrationName)
    return Response(status_code=205)


# -- installations -----------------------------------------------------------------------------
@router.get("/integrations/{integrationName}/installations")
def list_installations(
    ctx: CtxDep,
    integrationName: NameParam,
    paging: PagingParams,
    externalId: Annotated[str | None, Query(max_length=512)] = None,
) -> dict[str, Any]:
    with ctx.read() as tx:
        integ = load_integration(tx, ctx, integrationName)
        items = _visible_installations(tx, ctx, integ)
        if externalId is not None:
            items = [i for i in items if externalId in i.get("externalIds", [])]
        return paginate(items, paging, lambda i: installation_json(tx, ctx, i))


@router.post("/integrations/{integrationName}/installations")
def install_integration(ctx: CtxDep, integrationName: NameParam, body: InstallBody) -> Response:
    with ctx.write() as tx:
        integ = load_integration(tx, ctx, integrationName)
        org = tx.get("org", body.organization)
        role = org_role(tx, body.organization, ctx.user_id) if org else None
        if org is None or role is None:
            raise not_found("Organization", body.organization)
        if role != "admin":
            raise forbidden("Installing an integration needs the 'admin' role on the organization.")
        if integ.get("visibility") == "private" and org["id"] != integ["organization"]:
            raise forbidden(
                f"Integration '{integ['name']}' is private: it can only be installed in the "
                "organization that publishes it."
            )
        now = ctx.now()
        inst = next(
            (i for i in tx.list("installation", integ["name"]) if i["organization"] == org["id"]),
            None,
        )
        created = inst is None
        previous = None
        if inst is None:
            inst = {
                "id": ctx.new_id(),
                "integration": integ["name"],
                "organization": org["id"],
                "space_selection": "all",
                "site_selection": "all",
                "configuration": {},
                "externalIds": [],
                "createdAt": now,
                "installedBy": ctx.user_id,
            }
        else:
            previous = {"status": inst["status"], "configuration": inst.get("configuration", {})}
        for key in ("configuration", "externalIds", "space_selection", "site_selection"):
            value = getattr(body, key)
            if value is not None:
                inst[key] = value
        inst["status"] = "active"
        inst["updatedAt"] = now
        tx.put("installation", inst["id"], inst, scope=integ["name"])
        dispatch = record_event(
            tx,
            ctx,
            integ,
            "installation_setup",
            installation=inst,
            fields={"status": inst["status"], "previous": previous},
        )
        result = installation_json(tx, ctx, inst)
    deliver(ctx, [dispatch])
    return JSONResponse(
        result,
        status_code=201 if created else 200,
        headers={"Location": result["urls"]["location"]},
    )


# -- events ------------------------------------------------------------------------------------
def _load_for_events(tx: Tx, ctx: Ctx, name: str) -> dict[str, Any]:
    integ = load_integration(tx, ctx, name)
    if _owner_role(tx, ctx, integ) is None:
        raise forbidden(
            "Integration events are readable by members of the organization that owns "
            f"integration '{name}' only."
        )
    return integ


@router.get("/integrations/{integrationName}/events")
def list_integration_events(
    ctx: CtxDep, integrationName: NameParam, paging: PagingParams
) -> dict[str, Any]:
    with ctx.read() as tx:
        integ = _load_for_events(tx, ctx, integrationName)
        events = list(reversed(tx.list("integration-event", integ["name"])))
        return paginate(events, paging, event_json)


@router.get("/integrations/{integrationName}/events/{eventId}")
def get_integration_event(ctx: CtxDep, integrationName: NameParam, eventId: str) -> dict[str, Any]:
    with ctx.read() as tx:
        integ = _load_for_events(tx, ctx, integrationName)
        event = tx.get("integration-event", eventId)
        if event is None or event.get("integration") != integ["name"]:
            raise not_found("Integration event", eventId)
        return {"event": event_json(event), "trace": {"logs": event.get("trace", [])}}


# -- space and site items ----------------------------------------------------------------------
def _content_item(
    ctx: Ctx, inst: dict[str, Any], kind: str, target_id: str, target: Any
) -> dict[str, Any]:
    name = inst["integration"]
    location = f"{ctx.api}/integrations/{name}/installations/{inst['id']}/{kind}s/{target_id}"
    public = f"{ctx.origin}/integrations/{name}/installations/{inst['id']}/{kind}s/{target_id}"
    return {
        "integration": name,
        "installation": inst["id"],
        "status": inst["status"],
        "configuration": {},
        "externalIds": [],
        "urls": {
            "location": location,
            "publicEndpoint": public,
            "publicContentEndpoint": public,
        },
        kind: target,
    }


def _content_items(
    tx: Tx, ctx: Ctx, name: str, kind: str, external_id: str | None
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    integ = load_integration(tx, ctx, name)
    pairs = []
    for inst in _visible_installations(tx, ctx, integ):
        if external_id is not None and external_id not in inst.get("externalIds", []):
            continue
        if inst.get(f"{kind}_selection", "all") != "all":
            continue
        loader = _org_spaces if kind == "space" else _org_sites
        pairs += [(inst, target) for target in loader(tx, inst["organization"])]
    return pairs


ExtendedParam = Annotated[
    bool, Query(description="Return the full Space/Site objects instead of ids")
]


@router.get("/integrations/{integrationName}/spaces")
def list_integration_spaces(
    ctx: CtxDep,
    integrationName: NameParam,
    paging: PagingParams,
    externalId: Annotated[str | None, Query(max_length=512)] = None,
    extended: ExtendedParam = False,
) -> dict[str, Any]:
    with ctx.read() as tx:
        pairs = _content_items(tx, ctx, integrationName, "space", externalId)
        return paginate(
            pairs,
            paging,
            lambda p: _content_item(
                ctx,
                p[0],
                "space",
                p[1]["id"],
                space_json(tx, ctx, p[1]) if extended else p[1]["id"],
            ),
        )


@router.get("/integrations/{integrationName}/sites")
def list_integration_sites(
    ctx: CtxDep,
    integrationName: NameParam,
    paging: PagingParams,
    externalId: Annotated[str | None, Query(max_length=512)] = None,
    extended: ExtendedParam = False,
) -> dict[str, Any]:
    with ctx.read() as tx:
        pairs = _content_items(tx, ctx, integrationName, "site", externalId)
        return paginate(
            pairs,
            paging,
            lambda p: _content_item(
                ctx, p[0], "site", p[1]["id"], _site_json(tx, ctx, p[1]) if extended else p[1]["id"]
            ),
        )


# -- development mode --------------------------------------------------------------------------
def _owner_installation(tx: Tx, integ: dict[str, Any]) -> dict[str, Any] | None:
    return next(
        (
            i
            for i in tx.list("installation", integ["name"])
            if i["organization"] == integ["organization"]
        ),
        None,
    )


def _dev_fields(tx: Tx, integ: dict[str, Any], previous: dict[str, Any] | None) -> dict[str, Any]:
    dev = integ.get("development")
    fields: dict[str, Any] = {
        "development": {"tunnelUrl": dev["tunnelUrl"], "all": dev.get("all", False)}
        if dev
        else None,
        "previous": {
            "development": {"tunnelUrl": previous["tunnelUrl"], "all": previous.get("all", False)}
            if previous
            else None
        },
    }
    owner_inst = _owner_installation(tx, integ)
    if owner_inst is not None:
        fields["installationId"] = owner_inst["id"]
    return fields


@router.put("/integrations/{integrationName}/dev")
def set_development_mode(ctx: CtxDep, integrationName: NameParam, body: DevMode) -> Response:
    with ctx.write() as tx:
        integ = load_integration(tx, ctx, integrationName)
        _require_owner(tx, ctx, integ, "create", "Development mode")
        previous = integ.get("development")
        integ["development"] = {
            "tunnelUrl": body.tunnelUrl,
            "all": body.all,
            "enabledAt": ctx.now(),
            "enabledBy": ctx.user_id,
        }
        tx.put("integration", integ["name"], integ)
        dispatch = record_event(
            tx,
            ctx,
            integ,
            "dev_mode_enabled",
            organization=integ["organization"],
            fields=_dev_fields(tx, integ, previous),
        )
    deliver(ctx, [dispatch])
    return Response(status_code=204)


@router.delete("/integrations/{integrationName}/dev")
def disable_development_mode(ctx: CtxDep, integrationName: NameParam) -> Response:
    with ctx.write() as tx:
        integ = load_integration(tx, ctx, integrationName)
        _require_owner(tx, ctx, integ, "create", "Development mode")
        previous = integ.pop("development", None)
        if previous is not None:
            tx.put("integration", integ["name"], integ)
            record_event(
                tx,
                ctx,
                integ,
                "dev_mode_disabled",
                organization=integ["organization"],
                fields=_dev_fields(tx, integ, previous),
            )
    return Response(status_code=205)


# -- render ------------------------------------------------------------------------------------
def _valid_output(output: Any) -> bool:
    if not isinstance(output, dict):
        return False
    if output.get("type") == "complete":
        return True
    return output.get("type") == "element" and isinstance(output.get("element"), dict)


def _render(ctx: Ctx, name: str, request: RenderRequest) -> JSONResponse:
    with ctx.read() as tx:
        integ = load_integration(tx, ctx, name)
        dev = integ.get("development")
        from_owner = _owner_role(tx, ctx, integ) is not None
        csp = integ.get("contentSecurityPolicy")
    if not dev:
        raise bad_request(
            f"Integration '{name}' has no runtime here: enable development mode with "
            f"PUT /v1/integrations/{name}/dev to forward renders to your tunnel."
        )
    if not dev.get("all") and not from_owner:
        raise forbidden(
            f"Development mode of integration '{name}' forwards only requests from its owner "
            "organization (enable it with all=true to forward every organization's requests)."
        )
    payload: dict[str, Any] = {
        "type": "ui_render",
        "eventId": ctx.new_id(),
        "componentId": request.componentId,
        "props": request.props,
        "state": request.state or {},
        "context": request.context,
        "auth": {"userId": ctx.user_id},
    }
    if request.action is not None:
        payload["action"] = request.action
    tunnel = dev["tunnelUrl"]
    try:
        response = post_json(
            tunnel, payload, timeout=ctx.state.fetch_timeout, headers=_csp_headers(csp)
        )
    except FetchError as exc:
        status = 504 if exc.code == "FETCH_TIMEOUT" else 502
        raise ApiError(status, f"The development tunnel did not render: {exc.message}") from exc
    if response.status_code >= 400:
        raise ApiError(502, f"The development tunnel {tunnel} answered HTTP {response.status_code}")
    if len(response.content) > ctx.state.fetch_max_bytes:
        raise ApiError(502, "The development tunnel's UI output is too large")
    try:
        output = response.json()
    except ValueError as exc:
        raise ApiError(502, "The development tunnel's answer is not JSON") from exc
    if not _valid_output(output):
        raise ApiError(
            502,
            "The development tunnel's answer is not UI output: expected a JSON object "
            '{"type": "element", "element": {...}} (or {"type": "complete"})',
        )
    return JSONResponse(output, headers={"Cache-Control": "no-store"})


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()))
        msg = "is required" if err.get("type") == "missing" else err.get("msg", "is invalid")
        parts.append(f"request.{loc}: {msg}" if loc else f"request: {msg}")
    return "; ".join(parts)


@router.get("/integrations/{integrationName}/render")
def render_integration_ui_get(
    ctx: CtxDep,
    integrationName: NameParam,
    request: Annotated[str, Query(min_length=1, max_length=200_000)],
) -> JSONResponse:
    text = lz_decompress_from_uri(request)
    if not text:
        raise bad_request("request: not an LZ-string compressed (encoded URI component) value")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise bad_request("request: the decompressed value is not JSON") from exc
    try:
        parsed = RenderRequest.model_validate(data)
    except ValidationError as exc:
        raise bad_request(_validation_message(exc)) from exc
    return _render(ctx, integrationName, parsed)


@router.post("/integrations/{integrationName}/render")
def render_integration_ui_post(
    ctx: CtxDep, integrationName: NameParam, body: RenderRequest
) -> JSONResponse:
    return _render(ctx, integrationName, body)
