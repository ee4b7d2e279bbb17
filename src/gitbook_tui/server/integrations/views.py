"""Integrations: loading under their visibility rules, and JSON views of them and their parts.

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

Rules where the contract is silent:
- Visibility: the list shows ``public`` integrations plus every integration owned by an
  organization the caller is a member of; GET (and everything below it) also admits
  ``unlisted`` ones; others are 404.
- List filters (openapi names): ``search`` (substring of name or title, case-insensitive),
  ``category``, ``blockDomain`` (host of a block ``urlUnfurl`` pattern equals or ends with
  ``.domain``), ``blocks`` / ``contentSources`` (true: has some; false: has none), ``owner``
  (org id), ``scope``, ``target`` (integrations installable there: same target or ``all``).
- Installations, space and site items: members of the owner organization see all of them;
  other callers see those of organizations they belong to. ``externalId`` matches the
  installation's ``externalIds``; space/site items carry ``configuration: {}`` and
  ``externalIds: []`` of their own.
- Events and their traces are readable by members of the owner organization only (403).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from ..core.checks import require_org_role
from ..core.context import Ctx
from ..core.errors import forbidden, not_found
from ..core.file_links import download_url
from ..core.permissions import org_role
from ..core.resources import org_json, space_json
from ..core.storage import Tx
from ..sites.views import site_json


# -- loading and access ------------------------------------------------------------------------
def owner_role(tx: Tx, ctx: Ctx, integ: dict[str, Any]) -> str | None:
    """The caller's role in the organization that owns the integration."""
    return org_role(tx, integ["organization"], ctx.user_id)


def load_integration(tx: Tx, ctx: Ctx, name: str) -> dict[str, Any]:
    """The integration if the caller may see it (public, unlisted or owned by their org)."""
    integ = tx.get("integration", name)
    if integ is None or (
        integ.get("visibility") not in ("public", "unlisted") and owner_role(tx, ctx, integ) is None
    ):
        raise not_found("Integration", name)
    return integ


def require_owner(tx: Tx, ctx: Ctx, integ: dict[str, Any], needed: str, action: str) -> None:
    require_org_role(
        tx,
        ctx,
        integ["organization"],
        needed,
        f"{action} needs the '{needed}' role on the organization that owns "
        f"integration '{integ['name']}'.",
    )


def load_for_events(tx: Tx, ctx: Ctx, name: str) -> dict[str, Any]:
    """The integration, if the caller may read its events (members of the owner org)."""
    integ = load_integration(tx, ctx, name)
    if owner_role(tx, ctx, integ) is None:
        raise forbidden(
            "Integration events are readable by members of the organization that owns "
            f"integration '{name}' only."
        )
    return integ


def memberships(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    """The caller's active memberships, in every organization."""
    return [m for m in tx.list("member") if m.get("user") == user_id and not m.get("disabled")]


def installation_in(tx: Tx, name: str, org_id: str) -> dict[str, Any] | None:
    """The installation of integration ``name`` in organization ``org_id``, if any."""
    return next((i for i in tx.list("installation", name) if i["organization"] == org_id), None)


def visible_installations(tx: Tx, ctx: Ctx, integ: dict[str, Any]) -> list[dict[str, Any]]:
    items = tx.list("installation", integ["name"])
    if owner_role(tx, ctx, integ) is not None:
        return items
    return [i for i in items if org_role(tx, i["organization"], ctx.user_id) is not None]


def _domain_matches(block: dict[str, Any], domain: str) -> bool:
    domain = domain.lower()
    for pattern in block.get("urlUnfurl") or []:
        host = urlparse(pattern if "://" in pattern else f"https://{pattern}").hostname or ""
        host = host.lower().lstrip("*.")
        if host == domain or host.endswith(f".{domain}"):
            return True
    return False


@dataclass(frozen=True)
class IntegrationFilters:
    """The list's query filters (openapi names); unset ones match everything."""

    search: str | None = None
    category: str | None = None
    blockDomain: str | None = None
    blocks: bool | None = None
    contentSources: bool | None = None
    owner: str | None = None
    scope: str | None = None
    target: str | None = None

    def matches(self, integ: dict[str, Any]) -> bool:
        if self.search:
            needle = self.search.lower()
            if (
                needle not in integ["name"].lower()
                and needle not in str(integ.get("title", "")).lower()
            ):
                return False
        if self.category and self.category not in integ.get("categories", []):
            return False
        if self.scope and self.scope not in integ.get("scopes", []):
            return False
        if self.owner and integ["organization"] != self.owner:
            return False
        if self.target and integ.get("target", "all") not in (self.target, "all"):
            return False
        if self.blocks is not None and bool(integ.get("blocks")) != self.blocks:
            return False
        if (
            self.contentSources is not None
            and bool(integ.get("contentSources")) != self.contentSources
        ):
            return False
        domain = self.blockDomain
        return not domain or any(_domain_matches(b, domain) for b in integ.get("blocks", []))


# -- JSON views --------------------------------------------------------------------------------
def _file_url(ctx: Ctx, ref: dict[str, Any]) -> str:
    return download_url(ctx, ref["digest"], ref["name"])


def integration_json(tx: Tx, ctx: Ctx, integ: dict[str, Any]) -> dict[str, Any]:
    name = integ["name"]
    owner = tx.get("org", integ["organization"]) or {"id": integ["organization"], "title": ""}
    role = owner_role(tx, ctx, integ)
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
        return owner_role(tx, ctx, integ) == "admin"
    return any(m.get("role") == "admin" for m in memberships(tx, ctx.user_id))


def _installation_path(inst: dict[str, Any]) -> str:
    """Path of an installation under the API and under the public origin."""
    return f"integrations/{inst['integration']}/installations/{inst['id']}"


def installation_json(tx: Tx, ctx: Ctx, inst: dict[str, Any]) -> dict[str, Any]:
    name, org_id = inst["integration"], inst["organization"]
    path = _installation_path(inst)
    public = f"{ctx.origin}/{path}"
    spaces = len(installed_spaces(tx, inst))
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
            "location": f"{ctx.api}/{path}",
            "app": f"{ctx.app}/o/{org_id}/integrations/{name}",
            "publicEndpoint": public,
            "publicContentEndpoint": public,
        },
        "externalIds": inst.get("externalIds", []),
        "target": {"organization": org_id},
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


# -- space and site items ----------------------------------------------------------------------
def org_spaces(tx: Tx, org_id: str) -> list[dict[str, Any]]:
    rows = tx.conn.execute(
        "SELECT data FROM docs WHERE kind='space' AND json_extract(data, '$.organization')=? "
        "AND json_extract(data, '$.deletedAt') IS NULL ORDER BY pos, seq",
        (org_id,),
    )
    return [json.loads(row[0]) for row in rows]


def installed_spaces(tx: Tx, inst: dict[str, Any]) -> list[dict[str, Any]]:
    """The spaces an installation reaches: every space of its organization (selection
    ``all``), else the spaces it was installed on one by one."""
    spaces = org_spaces(tx, inst["organization"])
    if inst.get("space_selection", "all") == "all":
        return spaces
    chosen = {r["space"] for r in tx.list("installation-space", inst["id"])}
    return [s for s in spaces if s["id"] in chosen]


def org_sites(tx: Tx, org_id: str) -> list[dict[str, Any]]:
    return [s for s in tx.list("site", org_id) if not s.get("deletedAt")]


def installed_sites(tx: Tx, inst: dict[str, Any]) -> list[dict[str, Any]]:
    """The sites an installation reaches, as :func:`installed_spaces` for spaces."""
    sites = org_sites(tx, inst["organization"])
    if inst.get("site_selection", "all") == "all":
        return sites
    chosen = {r["site"] for r in tx.list("installation-site", inst["id"])}
    return [s for s in sites if s["id"] in chosen]


def installed_targets(tx: Tx, inst: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The spaces (``kind`` ``space``) or sites (``site``) an installation reaches."""
    return installed_spaces(tx, inst) if kind == "space" else installed_sites(tx, inst)


def org_targets(tx: Tx, org_id: str, kind: str) -> list[dict[str, Any]]:
    """The spaces or sites of an organization (what an installation may be put on)."""
    return org_spaces(tx, org_id) if kind == "space" else org_sites(tx, org_id)


def _site_json(tx: Tx, ctx: Ctx, site: dict[str, Any]) -> dict[str, Any]:
    """The sites family's Site view; a minimal Site if it cannot render this record."""
    try:
        return site_json(tx, ctx, site)
    except (KeyError, TypeError):  # pragma: no cover - defensive fallback
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


def content_items(
    tx: Tx, ctx: Ctx, name: str, kind: str, external_id: str | None
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(installation, space or site) pairs of the installations the caller sees."""
    integ = load_integration(tx, ctx, name)
    pairs = []
    for inst in visible_installations(tx, ctx, integ):
        if external_id is not None and external_id not in inst.get("externalIds", []):
            continue
        pairs += [(inst, target) for target in installed_targets(tx, inst, kind)]
    return pairs


def content_item_json(
    tx: Tx, ctx: Ctx, pair: tuple[dict[str, Any], dict[str, Any]], kind: str, extended: bool
) -> dict[str, Any]:
    """A space or site item; ``extended`` renders the Space / Site object instead of its id."""
    inst, target = pair
    if extended:
        shown: Any = space_json(tx, ctx, target) if kind == "space" else _site_json(tx, ctx, target)
    else:
        shown = target["id"]
    path = f"{_installation_path(inst)}/{kind}s/{target['id']}"
    public = f"{ctx.origin}/{path}"
    return {
        "integration": inst["integration"],
        "installation": inst["id"],
        "status": inst["status"],
        "configuration": {},
        "externalIds": [],
        "urls": {
            "location": f"{ctx.api}/{path}",
            "publicEndpoint": public,
            "publicContentEndpoint": public,
        },
        kind: shown,
    }
