"""Publishing an integration: creating or updating its record, with its images and policy.

Publish (POST) creates or updates. A new integration needs ``organization`` (id or hostname;
404 if not found or not a member; 403 below ``create``) and ``title``. Updating needs
``create`` on the owner org (a name owned by another organization is 409); fields omitted
keep their value, except ``runtime`` (``v1`` or ``v2`` per openapi; omitted = ``v1``). Each
publish increments ``version``. ``icon``/``previewImages`` (base64, optionally as a ``data:``
URL, ≤ 2 MB each) are stored as files served at ``/files/{digest}/{name}``.
``contentSecurityPolicy`` given as an object is stored as its header string. ``visibility``
defaults to ``private`` and ``target`` to ``all``.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from ..core.checks import require_org_role
from ..core.context import Ctx
from ..core.errors import bad_request, conflict, not_found
from ..core.permissions import org_role
from ..core.storage import Tx
from .schemas import MAX_IMAGE_BYTES, PublishIntegration
from .views import owner_role, require_owner

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


def _csp_string(csp: str | dict[str, str] | None) -> str | None:
    """The header form of a ``contentSecurityPolicy`` given as a string or an object."""
    if csp is None or isinstance(csp, str):
        return csp
    return "; ".join(f"{key} {value}".strip() for key, value in csp.items())


def publish(tx: Tx, ctx: Ctx, name: str, body: PublishIntegration) -> dict[str, Any]:
    """Create or update integration ``name`` from a publish body; return the stored record."""
    integ = tx.get("integration", name)
    now = ctx.now()
    if integ is None:
        if body.organization is None:
            raise bad_request("organization: is required to publish a new integration")
        if body.title is None:
            raise bad_request("title: is required to publish a new integration")
        org = _resolve_org(tx, ctx, body.organization)
        require_org_role(
            tx,
            ctx,
            org["id"],
            "create",
            "Publishing an integration needs the 'create' role on the organization.",
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
        if owner_role(tx, ctx, integ) is None:
            raise conflict(
                f"The integration name '{name}' is already taken by another organization."
            )
        require_owner(tx, ctx, integ, "create", "Publishing")
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
    return integ
