"""Redirects in files, without widgets: CSV/YAML parsing, the import dry run, export.

CSV columns are ``source,destination[,permanent,draft,wildcard,kind,ref]`` (a header row is
optional); YAML is a list of mappings with those keys (or ``{redirects: [...]}``), read with
``yaml.safe_load``. A destination is an http(s) URL or a path of the site. ``kind`` (the
API's destination kind) and ``ref`` (the ids it names: a section, a site space, or
``siteSpace/page``) make an export exact: a section and its default space share a path, and
a deleted page has none. A hand-written file may leave them out.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

import yaml

from .redirect_rules import (
    URL_RE,
    Destination,
    RedirectEntry,
    SiteMap,
    source_error,
    url_error,
)

__all__ = [
    "ImportRow",
    "PlannedChange",
    "export_csv",
    "export_yaml",
    "parse_import",
    "plan_import",
]

COLUMNS = ("source", "destination", "permanent", "draft", "wildcard", "kind", "ref")
KINDS = ("site-section", "site-space", "site-page", "external")
_TRUE = {"true", "yes", "1", "permanent", "301", "308", "y"}
_FALSE = {"false", "no", "0", "temporary", "302", "307", "n", ""}


@dataclass(frozen=True)
class ImportRow:
    line: int
    source: str
    target: str
    permanent: bool | None = None
    error: str | None = None
    draft: bool | None = None
    wildcard: bool | None = None
    kind: str | None = None
    ref: str | None = None


def _flag(name: str, value: object) -> tuple[bool | None, str | None]:
    if value is None or isinstance(value, bool):
        return value, None
    text = str(value).strip().lower()
    if text in _TRUE:
        return True, None
    if text in _FALSE:
        return (None if text == "" else False), None
    return None, f"{name}: {value!r} is not true/false"


def _text(value: object) -> str:
    return "" if value is None else str(value).strip()


def _row(line: int, cells: dict[str, object]) -> ImportRow:
    flags: dict[str, bool | None] = {}
    problem = None
    for name in ("permanent", "draft", "wildcard"):
        flags[name], trouble = _flag(name, cells.get(name))
        problem = problem or trouble
    src, dst = _text(cells.get("source")), _text(cells.get("destination"))
    kind, ref = _text(cells.get("kind")) or None, _text(cells.get("ref")) or None
    if kind is not None and kind not in KINDS:
        problem = problem or f"kind: {kind!r} is not one of {', '.join(KINDS)}"
    if not src or not (dst or (kind and ref)):
        problem = problem or "needs a source and a destination"
    return ImportRow(
        line,
        src,
        dst,
        flags["permanent"],
        problem,
        draft=flags["draft"],
        wildcard=flags["wildcard"],
        kind=kind,
        ref=ref,
    )


def parse_import(text: str, name: str = "redirects.csv") -> list[ImportRow]:
    """Rows of a CSV (``source,destination[,permanent,draft,wildcard,kind,ref]``, header
    optional) or YAML file (a list of mappings or ``{redirects: [...]}``), by extension."""
    if name.lower().endswith((".yaml", ".yml")):
        return _parse_yaml(text)
    rows: list[ImportRow] = []
    reader = csv.reader(io.StringIO(text))
    columns: Sequence[str] = COLUMNS
    for index, record in enumerate(reader, start=1):
        cells = [c.strip() for c in record]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if index == 1 and cells[0].lower() == "source":
            named = [c.lower() for c in cells]
            if set(named) <= set(COLUMNS):
                columns = named
            continue
        if len(cells) > len(columns):
            more = f"more than {len(columns)} columns"
            rows.append(ImportRow(index, cells[0], cells[1], None, more))
            continue
        rows.append(_row(index, dict(zip(columns, cells, strict=False))))
    return rows


def _parse_yaml(text: str) -> list[ImportRow]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        return [ImportRow(0, "", "", None, f"not valid YAML{where}")]
    if isinstance(data, dict):
        data = data.get("redirects")
    if not isinstance(data, list):
        return [ImportRow(0, "", "", None, "expected a list of {source, destination}")]
    rows: list[ImportRow] = []
    for index, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            rows.append(ImportRow(index, "", "", None, "not a {source, destination} mapping"))
            continue
        rows.append(_row(index, item))
    return rows


def _by_ref(kind: str | None, ref: str | None) -> Destination | None:
    """The destination the ``kind`` and ``ref`` columns name (its ids, live or not)."""
    if not kind or not ref:
        return None
    if kind == "site-section":
        return Destination(kind, site_section=ref)
    if kind == "site-space":
        return Destination(kind, site_space=ref)
    if kind == "site-page" and "/" in ref:
        space, page = ref.split("/", 1)
        return Destination(kind, site_space=space, page=page)
    return None


def _ref_of(dest: Destination) -> str:
    if dest.kind == "site-section":
        return dest.site_section or ""
    if dest.kind == "site-space":
        return dest.site_space or ""
    if dest.kind == "site-page":
        return f"{dest.site_space or ''}/{dest.page or ''}"
    return ""


def resolve(row: ImportRow, site: SiteMap) -> Destination | None:
    """Where ``row`` leads: the destination its path or URL names, of its ``kind`` when given
    (the ids of ``ref`` win when they lead to the same place, or when no path is given)."""
    target = row.target
    if row.kind == "external":
        return Destination("external", url=target) if URL_RE.match(target) else None
    named = _by_ref(row.kind, row.ref)
    if not target:
        return named
    found = site.destinations_at(target)
    if named is not None and site.url_of(named) in {site.url_of(d) for d in found}:
        return named
    of_kind = [d for d in found if d.kind == row.kind]
    if of_kind or found:
        return (of_kind or found)[0]
    if URL_RE.match(target):  # a URL of this site where no page is: e.g. another redirect
        return Destination("external", url=target)
    return None


@dataclass(frozen=True)
class PlannedChange:
    """What importing one row would do: ``create``, ``change``, ``same`` or ``refuse``."""

    action: str
    row: ImportRow
    reason: str = ""
    destination: Destination | None = None
    existing: RedirectEntry | None = None


def plan_import(
    rows: Sequence[ImportRow], existing: Sequence[RedirectEntry], site: SiteMap
) -> list[PlannedChange]:
    """The dry run: each row created, changed (same source, other destination, kind or
    flag), unchanged or refused (with the reason), in file order; later duplicates refused.
    A flag left empty keeps the redirect's; a row without ``kind`` that leads to the same
    URL as the redirect leaves its destination as it is."""
    by_source = {r.source.lower(): r for r in existing}
    seen: set[str] = set()
    plan: list[PlannedChange] = []
    for row in rows:
        if row.error:
            plan.append(PlannedChange("refuse", row, row.error))
            continue
        problem = source_error(row.source, ())
        if problem is None and row.source.lower() in seen:
            problem = "appears earlier in the file"
        if problem is not None:
            plan.append(PlannedChange("refuse", row, problem))
            continue
        seen.add(row.source.lower())
        dest = resolve(row, site)
        if dest is None:
            reason = url_error(row.target) if "://" in row.target else f"no page at {row.target}"
            plan.append(PlannedChange("refuse", row, reason or "unknown destination"))
            continue
        if dest.kind == "external" and (problem := url_error(dest.url or "")):
            plan.append(PlannedChange("refuse", row, problem))
            continue
        current = by_source.get(row.source.lower())
        if current is not None and row.kind is None:
            url = site.url_of(dest)
            if url is not None and site.url_of(current.destination) == url:
                dest = current.destination
        if current is not None and _same(row, dest, current):
            plan.append(PlannedChange("same", row, "already so", dest, current))
        elif site.url_of(dest) is None:
            plan.append(PlannedChange("refuse", row, f"{site.label_of(dest)}: nothing there"))
        else:
            action = "create" if current is None else "change"
            plan.append(PlannedChange(action, row, destination=dest, existing=current))
    return plan


def _same(row: ImportRow, dest: Destination, current: RedirectEntry) -> bool:
    def kept(value: bool | None, was: bool) -> bool:
        return was if value is None else value

    return (
        current.destination == dest
        and current.permanent == kept(row.permanent, current.permanent)
        and current.draft == kept(row.draft, current.draft)
        and current.wildcard == kept(row.wildcard, current.wildcard)
    )


def _record(entry: RedirectEntry, site: SiteMap) -> dict[str, object]:
    dest = entry.destination
    target = dest.url or "" if dest.kind == "external" else site.target_text(dest)
    return {
        "source": entry.source,
        "destination": target,
        "permanent": entry.permanent,
        "draft": entry.draft,
        "wildcard": entry.wildcard,
        "kind": dest.kind,
        "ref": _ref_of(dest),
    }


def export_csv(redirects: Sequence[RedirectEntry], site: SiteMap) -> str:
    """Every redirect, exactly: re-importing the file changes nothing."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for entry in sorted(redirects, key=lambda r: r.source.lower()):
        record = _record(entry, site)
        writer.writerow(
            [str(v).lower() if isinstance(v, bool) else v for v in (record[c] for c in COLUMNS)]
        )
    return out.getvalue()


def export_yaml(redirects: Sequence[RedirectEntry], site: SiteMap) -> str:
    """Every redirect, exactly: re-importing the file changes nothing."""
    items = [_record(entry, site) for entry in sorted(redirects, key=lambda r: r.source.lower())]
    return str(yaml.safe_dump({"redirects": items}, sort_keys=False, allow_unicode=True))
