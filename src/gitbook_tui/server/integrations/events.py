"""Integration events: recording them, and delivering them to a development tunnel.

Event types: ``installation_setup`` (installation created or updated), ``dev_mode_enabled``
and ``dev_mode_disabled`` (payload ``{eventId, type, installationId?, development?, previous?:
{development}}``; absent members are omitted, never null). While development mode is on, each recorded event is POSTed (its payload,
with ``Content-Security-Policy`` when set) to ``tunnelUrl`` after the transaction commits;
``all=false`` dispatches only events of the owner organization (or of none). The event is
``pending`` until delivered, then ``success`` or ``failed`` with the reason in its trace;
events recorded with dev mode off are ``success`` (recorded, not dispatched).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.context import Ctx
from ..core.fetch import FetchError, post_json
from ..core.shapes import omit_none
from ..core.storage import Tx
from .views import installation_in


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
    payload.update(omit_none(fields or {}))
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


def csp_headers(csp: str | None) -> dict[str, str]:
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
                headers=csp_headers(dispatch.csp),
                policy=ctx.state.fetch_policy,
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


def dev_fields(tx: Tx, integ: dict[str, Any], previous: dict[str, Any] | None) -> dict[str, Any]:
    """Payload fields of a ``dev_mode_*`` event: the settings now and before."""
    dev = integ.get("development")
    fields: dict[str, Any] = {}
    if dev:
        fields["development"] = {"tunnelUrl": dev["tunnelUrl"], "all": dev.get("all", False)}
    if previous:
        fields["previous"] = {
            "development": {"tunnelUrl": previous["tunnelUrl"], "all": previous.get("all", False)}
        }
    owner_inst = installation_in(tx, integ["name"], integ["organization"])
    if owner_inst is not None:
        fields["installationId"] = owner_inst["id"]
    return fields
