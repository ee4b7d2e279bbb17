"""OpenAPI specs data: an organization's specs with their versions, processing state and last
error; sending a new source (a URL, or a local file's text) and waiting for the outcome
(no Textual here)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ...api import AsyncGitBook
from ...markdown.sanitize import clean_text
from ...models import OpenAPISpec

__all__ = [
    "MAX_SPEC_BYTES",
    "SLUG",
    "SpecRow",
    "load_specs",
    "outcome_text",
    "send_spec",
    "source_problem",
    "spec_row",
]

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
"""The official pattern of a spec's slug."""
MAX_SPEC_BYTES = 10 * 1024 * 1024
"""Larger local files are refused before reading (the server refuses them anyway)."""
_URL = re.compile(r"^https?://[^\s/]+", re.IGNORECASE)


@dataclass(frozen=True)
class SpecRow:
    """A spec as the tab lists it (server text cleaned)."""

    slug: str
    source: str
    state: str
    """``processing``, ``processed`` or ``failed``."""
    error: str
    """The last processing error (code: message), or ``""``."""
    versions: tuple[tuple[str, datetime | None], ...]
    """(id, created) of the processed versions, newest first."""
    processed: datetime | None
    reference: str
    """Where its reference is read: the published one if any, else the spec in the app."""
    published: bool
    can_edit: bool


def _error(spec: OpenAPISpec) -> str:
    if not spec.lastProcessErrorCode and not spec.lastProcessedErrors:
        return ""
    code = clean_text(str(spec.lastProcessErrorCode or "ERROR"))
    messages = [
        clean_text(str(e.get("message") or e.get("code") or "")) for e in spec.lastProcessedErrors
    ]
    detail = "; ".join(m for m in messages if m)
    return f"{code}: {detail}" if detail else code


def spec_row(spec: OpenAPISpec, versions: list[tuple[str, datetime | None]]) -> SpecRow:
    error = _error(spec)
    state = str(spec.processingState or "complete")
    shown = "processing" if state in ("pending", "progress") else "failed" if error else "processed"
    urls = spec.urls
    published = (urls.published or urls.public or "") if urls is not None else ""
    return SpecRow(
        slug=clean_text(spec.slug or spec.id),
        source=clean_text(spec.sourceURL or "(uploaded text)"),
        state=shown,
        error=error,
        versions=tuple(versions),
        processed=spec.lastProcessedAt,
        reference=published or ((urls.app or "") if urls is not None else ""),
        published=bool(published),
        can_edit=bool(spec.permissions and spec.permissions.edit),
    )


async def _versions(
    client: AsyncGitBook, org_id: str, slug: str
) -> list[tuple[str, datetime | None]]:
    found = await client.openapi.versions(org_id, slug, limit=100).to_list()
    return [(v.id, v.createdAt) for v in found]


async def load_specs(client: AsyncGitBook, org_id: str) -> list[SpecRow]:
    """Every spec with its versions, by slug."""
    specs = await client.openapi.list(org_id, limit=1000).to_list()
    versions = await asyncio.gather(*(_versions(client, org_id, s.slug or s.id) for s in specs))
    rows = [spec_row(s, v) for s, v in zip(specs, versions, strict=True)]
    rows.sort(key=lambda r: r.slug)
    return rows


def source_problem(text: str) -> str | None:
    """Why ``text`` is neither an http(s) URL nor a readable local file (``None``: fine)."""
    text = text.strip()
    if not text:
        return "Give the spec's URL (http or https) or the path of a local file"
    if "://" in text:
        return None if _URL.match(text) else "Only http:// and https:// URLs are fetched"
    path = Path(text).expanduser()
    if not path.is_file():
        return f"No such file: {path}"
    if path.stat().st_size > MAX_SPEC_BYTES:
        return f"{path.name} is larger than {MAX_SPEC_BYTES // (1024 * 1024)} MB"
    return None


async def send_spec(
    client: AsyncGitBook,
    org_id: str,
    slug: str,
    source: str,
    progress: Callable[[str], None],
    *,
    poll: float = 1.0,
    patience: float = 60.0,
) -> OpenAPISpec:
    """Send ``source`` (a URL the server fetches, or a local file's text) as the spec
    ``slug`` (created when new), then wait while the server processes it; ``progress``
    hears each step."""
    source = source.strip()
    if "://" in source:
        progress(f"Sending {slug}: the server fetches {source}…")
        spec = await client.openapi.update(org_id, slug, url=source)
    else:
        path = Path(source).expanduser()
        text = await asyncio.to_thread(path.read_text, encoding="utf-8")
        progress(f"Uploading {path.name} ({len(text.encode()) // 1024 + 1} KB) as {slug}…")
        spec = await client.openapi.update(org_id, slug, text=text)
    waited = 0.0
    while str(spec.processingState) in ("pending", "progress") and waited < patience:
        progress(f"The server is processing {slug}…")
        await asyncio.sleep(poll)  # the API has no processing event to wait on
        waited += poll
        spec = await client.openapi.get(org_id, slug)
    return spec


def outcome_text(spec: OpenAPISpec) -> tuple[str, bool]:
    """What processing gave (and whether it failed)."""
    slug = clean_text(spec.slug or spec.id)
    if str(spec.processingState) in ("pending", "progress"):
        return f"{slug} is still processing; R reloads to see the outcome.", False
    error = _error(spec)
    if error:
        return f"{slug} did not process: {error}. The previous version stays the latest.", True
    version = clean_text(spec.lastVersion or "")
    return f"{slug} processed" + (f": new version {version}." if version else "."), False
