"""Redirects in files, without widgets: CSV/YAML parsing, the import dry run, export.

CSV is ``source,destination[,permanent]`` (a header row is optional); YAML is a list of
``{source, destination, permanent}`` (or ``{redirects: [...]}``), read with
``yaml.safe_load``. A destination is an http(s) URL or a path of the site.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

import yaml

from .redirect_rules import Destination, RedirectEntry, SiteMap, source_error, url_error

__all__ = [
    "ImportRow",
    "PlannedChange",
    "export_csv",
    "export_yaml",
    "parse_import",
    "plan_import",
]

_TRUE = {"true", "yes", "1", "permanent", "301", "308", "y"}
_FALSE = {"false", "no", "0", "temporary", "302", "307", "n", ""}


@dataclass(frozen=True)
class ImportRow:
    line: int
    source: str
    target: str
    permanent: bool | None = None
    error: str | None = None


def _flag(value: object) -> tuple[bool | None, str | None]:
    if value is None or isinstance(value, bool):
        return value, None
    text = str(value).strip().lower()
    if text in _TRUE:
        return True, None
    if text in _FALSE:
        return (None if text == "" else False), None
    return None, f"permanent: {value!r} is not true/false"


def _row(line: int, source: object, target: object, permanent: object) -> ImportRow:
    flag, problem = _flag(permanent)
    src = "" if source is None else str(source).strip()
    dst = "" if target is None else str(target).strip()
    if not src or not dst:
        problem = problem or "needs a source and a destination"
    return ImportRow(line, src, dst, flag, problem)


def parse_import(text: str, name: str = "redirects.csv") -> list[ImportRow]:
    """Rows of a CSV (``source,destination[,permanent]``, header optional) or YAML file (a
    list of ``{source, destination, permanent}`` or ``{redirects: [...]}``), by extension."""
    if name.lower().endswith((".yaml", ".yml")):
        return _parse_yaml(text)
    rows: list[ImportRow] = []
    reader = csv.reader(io.StringIO(text))
    for index, record in enumerate(reader, start=1):
        cells = [c.strip() for c in record]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if index == 1 and cells[0].lower() == "source":
            continue
        if len(cells) > 3:
            rows.append(ImportRow(index, cells[0], cells[1], None, "more than 3 columns"))
            continue
        cells += [""] * (3 - len(cells))
        rows.append(_row(index, cells[0], cells[1], cells[2]))
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
        rows.append(_row(index, item.get("source"), item.get("destination"), item.get("permanent")))
    return rows


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
    """The dry run: each row created, changed (same source, other destination or kind),
    unchanged or refused (with the reason), in file order; later duplicates refused."""
    by_source = {r.source.lower(): r for r in existing if not r.draft}
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
        dest = site.destination_at(row.target)
        if dest is None:
            reason = url_error(row.target) if "://" in row.target else f"no page at {row.target}"
            plan.append(PlannedChange("refuse", row, reason or "unknown destination"))
            continue
        if dest.kind == "external" and (problem := url_error(dest.url or "")):
            plan.append(PlannedChange("refuse", row, problem))
            continue
        current = by_source.get(row.source.lower())
        if current is None:
            plan.append(PlannedChange("create", row, destination=dest))
            continue
        permanent = current.permanent if row.permanent is None else row.permanent
        if current.destination == dest and current.permanent == permanent:
            plan.append(PlannedChange("same", row, "already so", dest, current))
        else:
            plan.append(PlannedChange("change", row, destination=dest, existing=current))
    return plan


def export_csv(redirects: Sequence[RedirectEntry], site: SiteMap) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["source", "destination", "permanent"])
    for entry in sorted(redirects, key=lambda r: r.source.lower()):
        target = site.target_text(entry.destination)
        writer.writerow([entry.source, target, "true" if entry.permanent else "false"])
    return out.getvalue()


def export_yaml(redirects: Sequence[RedirectEntry], site: SiteMap) -> str:
    items = [
        {
            "source": entry.source,
            "destination": site.target_text(entry.destination),
            "permanent": entry.permanent,
        }
        for entry in sorted(redirects, key=lambda r: r.source.lower())
    ]
    return str(yaml.safe_dump({"redirects": items}, sort_keys=False, allow_unicode=True))
