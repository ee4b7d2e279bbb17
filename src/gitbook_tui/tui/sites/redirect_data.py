"""Redirect data: a site's redirects written through the client (new, edited, live/draft,
deleted, imported), the server's lookup of a path, and the import and export files read
and written on disk (no Textual here)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ...api import AsyncGitBook
from ...api.errors import NotFoundError
from .redirect_files import PlannedChange, export_csv, export_yaml
from .redirect_rules import Destination, RedirectEntry, SiteMap

__all__ = [
    "ImportOutcome",
    "delete_redirect",
    "export_name_problem",
    "import_name_problem",
    "lookup_target",
    "read_import_file",
    "save_redirect",
    "send_import",
    "set_draft",
    "write_export",
]


async def lookup_target(client: AsyncGitBook, org_id: str, site_id: str, path: str) -> str | None:
    """Where the server sends a visitor of ``path`` (``None``: no redirect applies)."""
    try:
        found = await client.sites.lookup_redirect(org_id, site_id, path)
    except NotFoundError:
        return None
    return found.target or None


async def save_redirect(
    client: AsyncGitBook,
    org_id: str,
    site_id: str,
    entry: RedirectEntry | None,
    source: str,
    destination: Destination,
    *,
    permanent: bool,
    draft: bool,
    wildcard: bool,
) -> str:
    """Create a redirect (``entry`` ``None``) or change ``entry`` (its source only when it
    changed); the id of the redirect saved."""
    if entry is None:
        made = await client.sites.create_redirect(
            org_id,
            site_id,
            source,
            destination.to_api(),
            permanent=permanent,
            draft=draft,
            capture_wildcard=wildcard,
        )
        return made.id
    await client.sites.update_redirect(
        org_id,
        site_id,
        entry.id,
        source=source if source != entry.source else None,
        destination=destination.to_api(),
        permanent=permanent,
        draft=draft,
        capture_wildcard=wildcard,
    )
    return entry.id


async def set_draft(
    client: AsyncGitBook, org_id: str, site_id: str, redirect_id: str, draft: bool
) -> None:
    """Make a redirect a draft (not live) or put it live."""
    await client.sites.update_redirect(org_id, site_id, redirect_id, draft=draft)


async def delete_redirect(
    client: AsyncGitBook, org_id: str, site_id: str, redirect_id: str
) -> None:
    await client.sites.delete_redirect(org_id, site_id, redirect_id)


@dataclass
class ImportOutcome:
    """What an import sent: the actions done (``create``/``change``) and the refusals."""

    done: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    @property
    def created(self) -> int:
        return self.done.count("create")

    @property
    def changed(self) -> int:
        return self.done.count("change")


async def send_import(
    client: AsyncGitBook, org_id: str, site_id: str, plan: Sequence[PlannedChange]
) -> ImportOutcome:
    """Send the creations and changes of ``plan`` in file order; a refused one is noted
    (line and source) and the rest still sent."""
    sites = client.sites
    outcome = ImportOutcome()
    for change in plan:
        if change.action not in ("create", "change") or change.destination is None:
            continue
        try:
            if change.existing is None:
                await sites.create_redirect(
                    org_id,
                    site_id,
                    change.row.source,
                    change.destination.to_api(),
                    permanent=bool(change.row.permanent),
                    draft=change.row.draft,
                    capture_wildcard=change.row.wildcard,
                )
            else:
                await sites.update_redirect(
                    org_id,
                    site_id,
                    change.existing.id,
                    destination=change.destination.to_api(),
                    permanent=change.row.permanent,
                    draft=change.row.draft,
                    capture_wildcard=change.row.wildcard,
                )
            outcome.done.append(change.action)
        except Exception as error:
            outcome.refused.append(f"line {change.row.line} {change.row.source}: {error}")
    return outcome


# -- files ----------------------------------------------------------------------------------------
def _path(name: str) -> Path:
    return Path(name.strip()).expanduser()


def import_name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as the file to import (``None``: a file is there)."""
    if not name.strip():
        return "A CSV (source,destination[,permanent]) or YAML file."
    return None if _path(name).is_file() else f"No file {name.strip()}."


async def read_import_file(name: str) -> tuple[str, str]:
    """The file's name and text (``OSError``/``UnicodeDecodeError`` when unreadable)."""
    path = _path(name)
    text = await asyncio.to_thread(path.read_text, encoding="utf-8")
    return path.name, text


def export_name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a new export file (``None``: it may be written)."""
    name = name.strip()
    if not name.lower().endswith((".csv", ".yaml", ".yml")):
        return "Name a .csv or .yaml file."
    if _path(name).exists():
        return f"{name} exists: choose a new name (nothing is overwritten)."
    return None


async def write_export(name: str, redirects: Sequence[RedirectEntry], site_map: SiteMap) -> Path:
    """Write the redirects to a new file, YAML or CSV by its suffix; the path written
    (``FileExistsError``, an ``OSError``, rather than overwrite a file)."""
    path = _path(name)
    make = export_yaml if path.suffix.lower() in (".yaml", ".yml") else export_csv
    text = make(list(redirects), site_map)
    await asyncio.to_thread(_write_new, path, text)
    return path


def _write_new(path: Path, text: str) -> None:
    with path.open("x", encoding="utf-8") as handle:
        handle.write(text)
