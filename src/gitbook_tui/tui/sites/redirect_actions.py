"""The redirect pane's pieces without its widget: the form's fields, the path-test report,
one redirect's report and the import's report (what is sent: :mod:`.redirect_data`)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content

from ...api import AsyncGitBook
from ..common.form_screen import FormField, Values
from ..common.text import inert
from .import_screen import summary
from .redirect_data import ImportOutcome, lookup_target
from .redirect_files import PlannedChange
from .redirect_rules import (
    RedirectEntry,
    SiteMap,
    shown_source,
    source_error,
    trace,
    url_error,
)
from .site_data import SiteData

__all__ = ["import_report", "redirect_fields", "redirect_report", "trace_report"]


def redirect_fields(
    site: SiteMap | None,
    redirects: Sequence[RedirectEntry],
    entry: RedirectEntry | None,
    destination: str | None = None,
) -> list[FormField]:
    """The redirect form's fields (``entry``: the redirect edited; ``destination``: a
    suggested destination, e.g. the end of a chain), checked as typed."""
    editing = entry.id if entry else None

    def check_source(values: Values) -> str | None:
        return source_error(values["source"], redirects, editing=editing)

    def check_destination(values: Values) -> str | None:
        text = values["destination"].strip()
        if "://" in text:
            return url_error(text)
        if not text:
            return "Destination is required: a URL, or a path of this site."
        if site is None or site.destination_at(text) is None:
            return f"No page, space or section at {text} on this site."
        return None

    def where(values: Values) -> str:
        text = values["destination"].strip()
        dest = site.destination_at(text) if site and text else None
        return f"→ {site.label_of(dest)}" if site and dest else ""

    target = destination
    if target is None and entry is not None and site is not None:
        target = site.target_text(entry.destination)
    return [
        FormField(
            "source",
            "Source path (case-insensitive, e.g. /old/page)",
            entry.source if entry else "",
            placeholder="/old/page",
            validate=check_source,
            max_length=512,
        ),
        FormField(
            "destination",
            "Destination: a URL, or a path of this site",
            target or "",
            placeholder="/guides/install or https://example.com/page",
            validate=check_destination,
            hint=where,
            max_length=2048,
        ),
        FormField("permanent", "Permanent (301)", entry.permanent if entry else True, "check"),
        FormField("draft", "Draft (not live yet)", entry.draft if entry else False, "check"),
        FormField(
            "wildcard",
            "Also redirect every path under the source (wildcard)",
            entry.wildcard if entry else False,
            "check",
        ),
    ]


async def trace_report(client: AsyncGitBook, org_id: str, data: SiteData, path: str) -> Content:
    """What the server answers for ``path`` and where the redirects lead from there."""
    result = trace(path, data.redirects, data.site_map)
    lines: list[Content] = []
    try:
        found = await lookup_target(client, org_id, data.site.id, path)
    except Exception as error:
        lines.append(inert(f"The server could not be asked: {error}", style="$error"))
        found = None
    if result.page:
        lines.append(inert(f"{path} is a live page ({result.lands}): no redirect applies."))
    elif not result.hops:
        lines.append(inert(f"No redirect applies to {path}: the site answers “not found”."))
    for entry, url in result.hops:
        kind = "permanent 301" if entry.permanent else "temporary 302"
        lines.append(
            Content.assemble(
                inert(entry.source, style="bold"),
                " → ",
                inert(data.site_map.label_of(entry.destination)),
                inert(f"  ({kind}) {url or 'gone'}", style="$text-muted"),
            )
        )
    if result.loop:
        lines.append(Content.styled("The redirects loop: visitors never arrive.", "$error"))
    elif result.hops:
        lines.append(
            Content.assemble("Lands on ", inert(result.lands or "a gone page", style="bold"))
        )
    if found:
        lines.append(inert(f"Server lookup: {path} → {found}", style="$text-muted"))
    return Content("\n").join(lines)


async def redirect_report(
    client: AsyncGitBook, org_id: str, data: SiteData, entry: RedirectEntry
) -> Content:
    """One redirect: its fields, then where its source lands (a draft: that it is not live)."""
    site = data.site_map

    def line(name: str, value: str, note: str = "") -> Content:
        parts = [Content.styled(f"{name:<8}", "dim"), inert(value, style="bold")]
        if note:
            parts.append(inert(f"  {note}", style="dim"))
        return Content.assemble(*parts)

    wildcard = "the path and every path below it (the rest is kept)" if entry.wildcard else ""
    lines = [
        line("source", shown_source(entry), wildcard),
        line("to", site.label_of(entry.destination), site.url_of(entry.destination) or "gone"),
        line("type", "permanent" if entry.permanent else "temporary"),
        line("state", "draft" if entry.draft else "live"),
        Content(""),
    ]
    if entry.draft:
        lines.append(inert("A draft: visitors are not redirected until it goes live (f)."))
    else:
        lines.append(await trace_report(client, org_id, data, entry.source))
    return Content("\n").join(lines)


def import_report(outcome: ImportOutcome, plan: Sequence[PlannedChange]) -> Content:
    """What an import did: the counts, each refusal, or (none refused) the plan's summary."""
    lines = [
        inert(f"{outcome.created} created · {outcome.changed} changed"),
        *(inert(line, style="$error") for line in outcome.refused),
    ]
    if not outcome.refused:
        lines.append(inert(summary(plan), style="$text-muted"))
    return Content("\n").join(lines)
