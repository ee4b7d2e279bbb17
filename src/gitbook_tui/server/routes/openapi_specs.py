"""Routes for OpenAPI specifications of an organization and their versions.

Storage: kind ``openapi-spec`` (scope = org id) and kind ``openapi-version`` (scope = spec
id); the fetched text lives in the blob table. A stored spec is::

    {"id", "organization", "slug", "createdAt", "updatedAt", "createdBy", "visibility",
     "sourceURL"? (url sources), "source": {"kind": "url" | "text"},
     "processingState": "progress" | "complete", "lastVersion"?, "lastProcessedAt"?,
     "lastProcessErrorCode"?, "lastProcessedErrors": [{"code", "message"}]}

and a version ``{id, spec, createdAt, createdBy, url (None for text sources), digest,
format: "json" | "yaml", size}``.

Rules where the contract is silent (kept in one place here):
- Reading needs membership of the organization (404 otherwise); creating, updating and
  deleting need the ``create`` role (403 otherwise).
- ``slug`` follows ``^[a-z0-9]+(?:-[a-z0-9]+)*$`` (≤ 100 characters) and is unique per
  organization (409). ``source`` is ``{url}`` (http/https, ≤ 2048 characters) or ``{text}``
  (openapi ``OpenAPISpecSource``), exactly one of them.
- Creating (POST, 201) or updating (PUT: 200, or 201 when the slug did not exist yet)
  processes the source synchronously: the spec is first stored with ``processingState:
  progress`` (reserving the slug), the URL is fetched with no transaction open (server fetch
  timeout and size limit), and the outcome is stored in a second transaction with
  ``processingState: complete`` and ``lastProcessedAt``. Success stores a new version and
  sets ``lastVersion``; when the text and URL equal the latest version's, no new version is
  made. Failure keeps the previous versions and sets ``lastProcessErrorCode`` to one of the
  openapi codes: ``FETCH_TIMEOUT`` (timeout), ``FETCH_ERROR`` (unreachable, HTTP error status,
  too large) or ``PARSE_ERROR`` (neither a JSON object with a top-level ``openapi``/``swagger``
  field, nor YAML with a top-level ``openapi:``/``swagger:`` key), with the detail in
  ``lastProcessedErrors``. The request itself still succeeds.
- A text source larger than the server's fetch size limit is 400.
- Versions list newest first. A version's ``url`` is the fetched URL; for text sources it is
  the version's content URL in this API.
- Version content is ``{filesystem, url, urls: {source, public: null}}`` where
  ``filesystem`` maps one entry file, ``openapi.json`` or ``openapi.yaml``, to
  ``{"text": <raw text>, "format": "json" | "yaml"}``.
- DELETE answers 205, or 204 when the spec does not exist (openapi), and removes versions.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Path, Response
from fastapi.responses import JSONResponse
from pydantic import Field, field_validator, model_validator

from ..core.checks import is_http_url, require_org_role
from ..core.context import Ctx, CtxDep
from ..core.errors import bad_request, conflict, not_found
from ..core.pagination import PagingParams, paginate
from ..core.permissions import at_least, org_role
from ..core.resources import load_org
from ..core.schemas import Body
from ..core.storage import Tx
from ..core.url_guard import require_fetchable
from ..importers.openapi import apply_outcome, process_source

router = APIRouter(tags=["openapi"])

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
MAX_URL = 2048


class Source(Body):
    url: str | None = Field(None, min_length=1, max_length=MAX_URL)
    text: str | None = Field(None, min_length=1)

    @field_validator("url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is not None and not is_http_url(value):
            raise ValueError("must be an http(s) URL")
        return value

    @model_validator(mode="after")
    def _one(self) -> Source:
        if (self.url is None) == (self.text is None):
            raise ValueError("give exactly one of 'url' or 'text'")
        return self


class SpecCreate(Body):
    slug: str = Field(min_length=1, max_length=100, pattern=SLUG_PATTERN)
    source: Source


class SpecUpdate(Body):
    source: Source


# -- rendering ---------------------------------------------------------------------------------
def _spec_base(ctx: Ctx, spec: dict[str, Any]) -> str:
    return f"{ctx.api}/orgs/{spec['organization']}/openapi/{spec['slug']}"


def spec_json(tx: Tx, ctx: Ctx, spec: dict[str, Any]) -> dict[str, Any]:
    role = org_role(tx, spec["organization"], ctx.user_id)
    body: dict[str, Any] = {
        "object": "openapi-spec",
        "id": spec["id"],
        "createdAt": spec["createdAt"],
        "updatedAt": spec["updatedAt"],
        "slug": spec["slug"],
    }
    if spec.get("sourceURL"):
        body["sourceURL"] = spec["sourceURL"]
    body["processingState"] = spec["processingState"]
    body["visibility"] = spec.get("visibility", "private")
    for key in ("lastVersion", "lastProcessedAt", "lastProcessErrorCode"):
        if spec.get(key):
            body[key] = spec[key]
    errors = spec.get("lastProcessedErrors", [])
    body["lastProcessedErrors"] = errors
    body["lastProcessedErrorCount"] = len(errors)
    body["permissions"] = {"view": role is not None, "edit": at_least(role, "create")}
    body["urls"] = {
        "location": _spec_base(ctx, spec),
        "app": f"{ctx.app}/o/{spec['organization']}/openapi/{spec['slug']}",
    }
    return body


def _version_url(ctx: Ctx, spec: dict[str, Any], version: dict[str, Any]) -> str:
    return version.get("url") or f"{_spec_base(ctx, spec)}/versions/{version['id']}/content"


def version_json(ctx: Ctx, spec: dict[str, Any], version: dict[str, Any]) -> dict[str, Any]:
    return {
        "object": "openapi-spec-version",
        "id": version["id"],
        "createdAt": version["createdAt"],
        "url": _version_url(ctx, spec, version),
        "urls": {"location": f"{_spec_base(ctx, spec)}/versions/{version['id']}"},
    }


def content_json(tx: Tx, ctx: Ctx, spec: dict[str, Any], version: dict[str, Any]) -> dict[str, Any]:
    fmt = version.get("format", "yaml")
    url = _version_url(ctx, spec, version)
    return {
        "filesystem": {f"openapi.{fmt}": {"text": tx.get_text(version["digest"]), "format": fmt}},
        "url": url,
        "urls": {"source": url, "public": None},
    }


# -- loaders -----------------------------------------------------------------------------------
def find_spec(tx: Tx, org_id: str, slug: str) -> dict[str, Any] | None:
    return next((s for s in tx.list("openapi-spec", org_id) if s["slug"] == slug), None)


def _load_spec(tx: Tx, ctx: Ctx, org_id: str, slug: str) -> dict[str, Any]:
    load_org(tx, ctx, org_id)
    spec = find_spec(tx, org_id, slug)
    if spec is None:
        raise not_found("OpenAPI specification", slug)
    return spec


def _require_create(tx: Tx, ctx: Ctx, org_id: str) -> None:
    require_org_role(
        tx,
        ctx,
        org_id,
        "create",
        "Managing OpenAPI specifications needs the 'create' role on the organization.",
    )


def _load_version(tx: Tx, spec: dict[str, Any], version_id: str) -> dict[str, Any]:
    if version_id == "latest":
        version_id = spec.get("lastVersion") or ""
    version = tx.get("openapi-version", version_id) if version_id else None
    if version is None or version.get("spec") != spec["id"]:
        raise not_found("OpenAPI specification version", version_id or "latest")
    return version


def _check_text_size(ctx: Ctx, source: Source) -> None:
    if source.text is not None and len(source.text.encode("utf-8")) > ctx.state.fetch_max_bytes:
        raise bad_request(f"source.text: larger than {ctx.state.fetch_max_bytes} bytes")


def _check_source_url(ctx: Ctx, org_id: str, source: Source) -> None:
    """A URL source the server may not fetch is refused before anything is stored (the
    caller's role checked first: the refusal says what a host resolves to)."""
    if source.url is None:
        return
    with ctx.read() as tx:
        load_org(tx, ctx, org_id)
        _require_create(tx, ctx, org_id)
    require_fetchable(source.url, ctx.state.fetch_policy, "source.url")


def _new_spec(ctx: Ctx, org_id: str, slug: str, source: Source) -> dict[str, Any]:
    now = ctx.now()
    spec = {
        "id": ctx.new_id(),
        "organization": org_id,
        "slug": slug,
        "createdAt": now,
        "updatedAt": now,
        "createdBy": ctx.user_id,
        "visibility": "private",
        "processingState": "progress",
        "lastProcessedErrors": [],
    }
    _set_source(spec, source)
    return spec


def _set_source(spec: dict[str, Any], source: Source) -> None:
    if source.url is not None:
        spec["sourceURL"] = source.url
        spec["source"] = {"kind": "url"}
    else:
        spec.pop("sourceURL", None)
        spec["source"] = {"kind": "text"}


def _finish(ctx: Ctx, spec_id: str, source: Source, status: int) -> JSONResponse:
    """Process the source with no transaction open, then store the outcome."""
    outcome = process_source(ctx, source.url, source.text)
    with ctx.write() as tx:
        spec = tx.get("openapi-spec", spec_id)
        if spec is None:
            raise not_found("OpenAPI specification", spec_id)
        apply_outcome(tx, ctx, spec, outcome)
        return JSONResponse(spec_json(tx, ctx, spec), status_code=status)


# -- routes ------------------------------------------------------------------------------------
SlugParam = Annotated[str, Path(max_length=100)]


@router.get("/orgs/{organizationId}/openapi")
def list_openapi_specs(ctx: CtxDep, organizationId: str, paging: PagingParams) -> dict[str, Any]:
    with ctx.read() as tx:
        load_org(tx, ctx, organizationId)
        specs = tx.list("openapi-spec", organizationId)
        return paginate(specs, paging, lambda s: spec_json(tx, ctx, s))


@router.post("/orgs/{organizationId}/openapi")
def create_openapi_spec(ctx: CtxDep, organizationId: str, body: SpecCreate) -> JSONResponse:
    _check_source_url(ctx, organizationId, body.source)
    with ctx.write() as tx:
        load_org(tx, ctx, organizationId)
        _require_create(tx, ctx, organizationId)
        _check_text_size(ctx, body.source)
        if find_spec(tx, organizationId, body.slug) is not None:
            raise conflict(f"An OpenAPI specification with slug '{body.slug}' already exists.")
        spec = _new_spec(ctx, organizationId, body.slug, body.source)
        tx.put("openapi-spec", spec["id"], spec, scope=organizationId)
    return _finish(ctx, spec["id"], body.source, 201)


@router.get("/orgs/{organizationId}/openapi/{specSlug}")
def get_openapi_spec(ctx: CtxDep, organizationId: str, specSlug: SlugParam) -> dict[str, Any]:
    with ctx.read() as tx:
        return spec_json(tx, ctx, _load_spec(tx, ctx, organizationId, specSlug))


@router.put("/orgs/{organizationId}/openapi/{specSlug}")
def put_openapi_spec(
    ctx: CtxDep, organizationId: str, specSlug: SlugParam, body: SpecUpdate
) -> JSONResponse:
    _check_source_url(ctx, organizationId, body.source)
    with ctx.write() as tx:
        load_org(tx, ctx, organizationId)
        _require_create(tx, ctx, organizationId)
        _check_text_size(ctx, body.source)
        spec = find_spec(tx, organizationId, specSlug)
        if spec is None:
            if not re.match(SLUG_PATTERN, specSlug):
                raise bad_request(
                    f"specSlug: '{specSlug}' does not match the slug pattern {SLUG_PATTERN}"
                )
            spec = _new_spec(ctx, organizationId, specSlug, body.source)
            tx.put("openapi-spec", spec["id"], spec, scope=organizationId)
            status = 201
        else:
            _set_source(spec, body.source)
            spec["processingState"] = "progress"
            spec["updatedAt"] = ctx.now()
            tx.put("openapi-spec", spec["id"], spec)
            status = 200
    return _finish(ctx, spec["id"], body.source, status)


@router.delete("/orgs/{organizationId}/openapi/{specSlug}")
def delete_openapi_spec(ctx: CtxDep, organizationId: str, specSlug: SlugParam) -> Response:
    with ctx.write() as tx:
        load_org(tx, ctx, organizationId)
        _require_create(tx, ctx, organizationId)
        spec = find_spec(tx, organizationId, specSlug)
        if spec is None:
            return Response(status_code=204)
        tx.delete_scope("openapi-version", spec["id"])
        tx.delete("openapi-spec", spec["id"])
    return Response(status_code=205)


@router.get("/orgs/{organizationId}/openapi/{specSlug}/versions")
def list_openapi_spec_versions(
    ctx: CtxDep, organizationId: str, specSlug: SlugParam, paging: PagingParams
) -> dict[str, Any]:
    with ctx.read() as tx:
        spec = _load_spec(tx, ctx, organizationId, specSlug)
        versions = list(reversed(tx.list("openapi-version", spec["id"])))
        return paginate(versions, paging, lambda v: version_json(ctx, spec, v))


@router.get("/orgs/{organizationId}/openapi/{specSlug}/versions/latest")
def get_latest_openapi_spec_version(
    ctx: CtxDep, organizationId: str, specSlug: SlugParam
) -> dict[str, Any]:
    with ctx.read() as tx:
        spec = _load_spec(tx, ctx, organizationId, specSlug)
        return version_json(ctx, spec, _load_version(tx, spec, "latest"))


@router.get("/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content")
def get_latest_openapi_spec_version_content(
    ctx: CtxDep, organizationId: str, specSlug: SlugParam
) -> dict[str, Any]:
    with ctx.read() as tx:
        spec = _load_spec(tx, ctx, organizationId, specSlug)
        return content_json(tx, ctx, spec, _load_version(tx, spec, "latest"))


@router.get("/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}")
def get_openapi_spec_version(
    ctx: CtxDep, organizationId: str, specSlug: SlugParam, versionId: str
) -> dict[str, Any]:
    with ctx.read() as tx:
        spec = _load_spec(tx, ctx, organizationId, specSlug)
        return version_json(ctx, spec, _load_version(tx, spec, versionId))


@router.get("/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content")
def get_openapi_spec_version_content(
    ctx: CtxDep, organizationId: str, specSlug: SlugParam, versionId: str
) -> dict[str, Any]:
    with ctx.read() as tx:
        spec = _load_spec(tx, ctx, organizationId, specSlug)
        return content_json(tx, ctx, spec, _load_version(tx, spec, versionId))
