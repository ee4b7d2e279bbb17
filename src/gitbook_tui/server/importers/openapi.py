"""Processing an OpenAPI source: fetching it, checking it is OpenAPI, storing the outcome.

The URL is fetched with no transaction open (server fetch timeout and size limit). Success
stores a new version and sets ``lastVersion`` (no new version when the text and URL equal
the latest version's); failure keeps the previous versions and sets ``lastProcessErrorCode``
to ``FETCH_TIMEOUT``, ``FETCH_ERROR`` or ``PARSE_ERROR`` with the detail in
``lastProcessedErrors``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..core.context import Ctx
from ..core.fetch import FetchError, fetch_url
from ..core.storage import Tx

_YAML_KEY = re.compile(
    r"^(?:openapi|swagger|\"(?:openapi|swagger)\"|'(?:openapi|swagger)')\s*:\s*\S", re.M
)


@dataclass(frozen=True)
class Outcome:
    """Result of fetching and checking a source: text and format, or an error."""

    url: str | None
    text: str | None = None
    format: str | None = None
    code: str | None = None
    detail: str | None = None
    raw_code: str | None = None


def check_spec(text: str) -> tuple[str | None, str | None]:
    """``(format, None)`` for an acceptable OpenAPI document, else ``(None, reason)``."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        return None, "the document is empty"
    if "\x00" in text:
        return None, "the document is binary, not JSON or YAML text"
    if stripped[0] in "{[":
        try:
            doc = json.loads(stripped)
        except ValueError as exc:
            return None, f"invalid JSON: {exc}"
        if not isinstance(doc, dict) or not ({"openapi", "swagger"} & doc.keys()):
            return None, "not an OpenAPI document: no top-level 'openapi' or 'swagger' field"
        return "json", None
    if _YAML_KEY.search(stripped):
        return "yaml", None
    return None, "not an OpenAPI document: no top-level 'openapi:' or 'swagger:' key"


def process_source(ctx: Ctx, url: str | None, text: str | None) -> Outcome:
    """Fetch (no transaction open) and check a source."""
    if url is not None:
        try:
            fetched = fetch_url(
                url,
                timeout=ctx.state.fetch_timeout,
                max_bytes=ctx.state.fetch_max_bytes,
                policy=ctx.state.fetch_policy,
            )
        except FetchError as exc:
            code = "FETCH_TIMEOUT" if exc.code == "FETCH_TIMEOUT" else "FETCH_ERROR"
            return Outcome(url, code=code, detail=exc.message, raw_code=exc.code)
        text = fetched.text
    assert text is not None
    fmt, reason = check_spec(text)
    if fmt is None:
        return Outcome(url, code="PARSE_ERROR", detail=reason, raw_code="PARSE_ERROR")
    return Outcome(url, text=text, format=fmt)


def apply_outcome(tx: Tx, ctx: Ctx, spec: dict[str, Any], outcome: Outcome) -> None:
    now = ctx.now()
    spec.update({"processingState": "complete", "lastProcessedAt": now, "updatedAt": now})
    if outcome.code is not None:
        spec["lastProcessErrorCode"] = outcome.code
        spec["lastProcessedErrors"] = [{"code": outcome.raw_code, "message": outcome.detail}]
    else:
        assert outcome.text is not None
        digest = tx.put_blob(outcome.text)
        latest = tx.get("openapi-version", spec["lastVersion"]) if spec.get("lastVersion") else None
        if latest is None or latest["digest"] != digest or latest.get("url") != outcome.url:
            version_id = ctx.new_id()
            tx.put(
                "openapi-version",
                version_id,
                {
                    "id": version_id,
                    "spec": spec["id"],
                    "createdAt": now,
                    "createdBy": ctx.user_id,
                    "url": outcome.url,
                    "digest": digest,
                    "format": outcome.format,
                    "size": len(outcome.text.encode("utf-8")),
                },
                scope=spec["id"],
            )
            spec["lastVersion"] = version_id
        spec.pop("lastProcessErrorCode", None)
        spec["lastProcessedErrors"] = []
    tx.put("openapi-spec", spec["id"], spec)
