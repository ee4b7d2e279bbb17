"""Forwarding UI renders of an integration to its development tunnel.

Render (GET with the LZ-string ``request`` parameter, or POST) forwards ``{type: "ui_render",
eventId, componentId, props, state, context, action?, auth}`` to the tunnel (with the CSP
header) and answers its output as is; outside dev mode it is 400, from a non-owner
organization with ``all=false`` 403. A tunnel failure is 502 (504 on timeout); output that is
not ``{type: "element", element: {...}}`` or ``{type: "complete"}`` is 502; an element
output without ``state``/``props`` gets the request's.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse
from pydantic import ValidationError

from ...lzstring import decompress_from_encoded_uri_component
from ..core.context import Ctx
from ..core.errors import ApiError, bad_request, forbidden
from ..core.fetch import FetchError, post_json
from .events import csp_headers
from .schemas import RenderRequest
from .views import load_integration, owner_role


def _valid_output(output: Any) -> bool:
    if not isinstance(output, dict):
        return False
    if output.get("type") == "complete":
        return True
    return output.get("type") == "element" and isinstance(output.get("element"), dict)


def render(ctx: Ctx, name: str, request: RenderRequest) -> JSONResponse:
    """Forward a UI render to the development tunnel and answer its output as is."""
    with ctx.read() as tx:
        integ = load_integration(tx, ctx, name)
        dev = integ.get("development")
        from_owner = owner_role(tx, ctx, integ) is not None
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
            tunnel,
            payload,
            timeout=ctx.state.fetch_timeout,
            headers=csp_headers(csp),
            policy=ctx.state.fetch_policy,
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
    if output.get("type") == "element":
        # An element output always carries the state and props it was rendered with (the
        # official ContentKitRenderOutputElement); a runtime that leaves them out means the
        # ones of the request.
        output.setdefault("state", payload["state"])
        output.setdefault("props", request.props)
    return JSONResponse(output, headers={"Cache-Control": "no-store"})


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()))
        msg = "is required" if err.get("type") == "missing" else err.get("msg", "is invalid")
        parts.append(f"request.{loc}: {msg}" if loc else f"request: {msg}")
    return "; ".join(parts)


def parse_compressed_request(request: str) -> RenderRequest:
    """The render request of the GET form: LZ-string compressed JSON (400 naming the problem)."""
    text = decompress_from_encoded_uri_component(request)
    if not text:
        raise bad_request("request: not an LZ-string compressed (encoded URI component) value")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise bad_request("request: the decompressed value is not JSON") from exc
    try:
        return RenderRequest.model_validate(data)
    except ValidationError as exc:
        raise bad_request(_validation_message(exc)) from exc
