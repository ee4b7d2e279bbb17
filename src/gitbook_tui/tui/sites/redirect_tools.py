"""RedirectTools: the redirect pane's tools over all of its redirects — test where a path
lands, lint (with a key to fix each finding, what the fix would change, and the lint run
again after it), import a CSV/YAML file with a dry run, and export (never overwriting a
file)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

from textual import work
from textual.content import Content

from ..common.denial import gated
from ..common.form_screen import ExportForm, FormField, ImportForm, PathTestForm, Values
from .import_screen import ImportScreen
from .lint_screen import LintScreen
from .redirect_actions import apply_import, trace_report
from .redirect_files import PlannedChange, export_csv, export_yaml, parse_import, plan_import
from .redirect_rules import (
    SOURCE_RE,
    Finding,
    LintDiff,
    RedirectEntry,
    fix_effect,
    lint,
    shown_source,
)
from .report_screen import ReportScreen
from .site_pane import SitePane, when_confirmed

__all__ = ["RedirectTools"]


class RedirectTools(SitePane):
    """The tools; the pane provides the selection, the form and the refresh."""

    @property
    def current(self) -> RedirectEntry | None:
        raise NotImplementedError

    async def refresh_redirects(self, keep: str | None = None) -> None:
        raise NotImplementedError

    async def _open_form(
        self,
        entry: RedirectEntry | None,
        destination: str | None = None,
        done: Callable[[], None] | None = None,
    ) -> None:
        raise NotImplementedError

    async def _confirm_delete(
        self, entry: RedirectEntry, done: Callable[[], None] | None = None
    ) -> None:
        raise NotImplementedError

    # -- test a path ----------------------------------------------------------------------------
    async def action_test(self) -> None:
        def check(values: Values) -> str | None:
            return None if SOURCE_RE.match(values["path"]) else "A path like /old/page."

        report: list[Content] = []

        async def run(values: Values) -> dict[str, str] | None:
            if self.data is not None:
                report.append(
                    await trace_report(self.client, self.org_id, self.data, values["path"])
                )
            return None

        def show(values: Values | None) -> None:
            if values is not None and report:
                self.app.push_screen(ReportScreen("Where it lands", report[-1]))

        start = self.current.source if self.current else "/"
        field = FormField("path", "Path a visitor asks for", start, validate=check)
        await self.open_form(
            "Test a path", [field], run, target="test-path", tool=PathTestForm, on_done=show
        )

    # -- lint -----------------------------------------------------------------------------------
    async def action_lint(self) -> None:
        if self.data is not None:
            await self.app.push_screen(LintScreen(self))

    def lint_findings(self) -> tuple[list[Finding], int]:
        data = self.data
        if data is None:
            return [], 0
        return lint(data.redirects, data.site_map), len(data.redirects)

    def fix_label(self, action: str, finding: Finding) -> str:
        source = shown_source(finding.redirect)
        if action == "delete":
            return f"delete {source}"
        data = self.data
        if data is None or finding.suggestion is None:
            return f"edit {source}"
        return f"point {source} at {data.site_map.label_of(finding.suggestion)}"

    def fix_effect(
        self, action: str, finding: Finding, before: Sequence[Finding]
    ) -> LintDiff | None:
        data = self.data
        if data is None:
            return None
        return fix_effect(finding, action, data.redirects, data.site_map, before)

    def start_fix(self, action: str, finding: Finding, done: Callable[[], None]) -> None:
        """The form (``edit``, the suggestion filled in) or the confirmation (``delete``)
        over the lint; ``done`` once the server accepted it and the redirects are reloaded."""
        reason = self.denial_reason("edit")
        if reason:
            self.notify(reason, title="Not allowed", severity="warning", markup=False)
            return
        if action == "delete":
            self.call_later(self._confirm_delete, finding.redirect, done)
            return
        data = self.data
        suggestion = (
            data.site_map.target_text(finding.suggestion) if data and finding.suggestion else None
        )
        self.call_later(self._open_form, finding.redirect, suggestion, done)

    # -- import / export ------------------------------------------------------------------------
    @gated
    async def action_import_file(self) -> None:
        def check(values: Values) -> str | None:
            name = values["file"].strip()
            if not name:
                return "A CSV (source,destination[,permanent]) or YAML file."
            return None if Path(name).expanduser().is_file() else f"No file {name}."

        async def read(values: Values) -> dict[str, str] | None:
            path = Path(values["file"].strip()).expanduser()
            try:
                text = await asyncio.to_thread(path.read_text, encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                return {"file": f"Could not read it: {error}"}
            data = self.data
            if data is None:
                return {"": "The site is still loading."}
            plans.append(
                (
                    path.name,
                    plan_import(parse_import(text, path.name), data.redirects, data.site_map),
                )
            )
            return None

        def preview(values: Values | None) -> None:
            if values is None or not plans or self.data is None:
                return
            name, plan = plans[-1]
            self.app.push_screen(
                ImportScreen(name, plan, self.data.site_map),
                when_confirmed(lambda: self._apply(plan)),
            )

        plans: list[tuple[str, list[PlannedChange]]] = []
        field = FormField("file", "File to import (.csv, .yaml)", "", validate=check)
        await self.open_form(
            "Import redirects", [field], read, target="import", tool=ImportForm, on_done=preview
        )

    @work(group="redirects-import")
    async def _apply(self, plan: list[PlannedChange]) -> None:
        report = await apply_import(self.client, self.org_id, self.site.id, plan)
        await self.refresh_redirects()
        self.app.push_screen(ReportScreen("Import done", report))

    async def action_export_file(self) -> None:
        default = f"redirects-{self.site.basename or self.site.id}.csv"

        def check(values: Values) -> str | None:
            name = values["file"].strip()
            if not name.lower().endswith((".csv", ".yaml", ".yml")):
                return "Name a .csv or .yaml file."
            if Path(name).expanduser().exists():
                return f"{name} exists: choose a new name (nothing is overwritten)."
            return None

        async def write(values: Values) -> dict[str, str] | None:
            data = self.data
            if data is None:
                return {"": "The site is still loading."}
            path = Path(values["file"].strip()).expanduser()
            make = export_yaml if path.suffix.lower() in (".yaml", ".yml") else export_csv
            text = make(data.redirects, data.site_map)
            try:
                await asyncio.to_thread(_write_new, path, text)
            except OSError as error:
                return {"file": f"Could not write it: {error}"}
            self.notify(f"Exported {len(data.redirects)} redirects to {path}", markup=False)
            return None

        field = FormField("file", "Export to (.csv or .yaml)", default, validate=check)
        await self.open_form("Export redirects", [field], write, target="export", tool=ExportForm)


def _write_new(path: Path, text: str) -> None:
    """Write ``text`` to a new file (``FileExistsError`` rather than overwrite one)."""
    with path.open("x", encoding="utf-8") as handle:
        handle.write(text)
