"""RedirectTools: the redirect pane's tools over all of its redirects, composed into it —
test where a path lands, lint (with a key to fix each finding, what the fix would change,
and the lint run again after it), import a CSV/YAML file with a dry run, and export (never
overwriting a file). What is read, written and sent: :mod:`.redirect_data`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.content import Content

from ..common.form_screen import FormField, Values
from .export_form import ExportForm
from .import_form import ImportForm
from .import_screen import ImportScreen
from .lint_screen import LintScreen
from .path_test_form import PathTestForm
from .redirect_actions import import_report, trace_report
from .redirect_data import (
    export_name_problem,
    import_name_problem,
    read_import_file,
    send_import,
    write_export,
)
from .redirect_editing import RedirectEditing, RedirectsHost
from .redirect_files import PlannedChange, parse_import, plan_import
from .redirect_rules import (
    SOURCE_RE,
    Finding,
    LintDiff,
    fix_effect,
    lint,
    shown_source,
)
from .report_screen import ReportScreen
from .site_pane import when_confirmed

__all__ = ["RedirectTools"]


class RedirectTools:
    """The tools of a redirects pane (``host``); the lint's host
    (:class:`.lint_screen.LintHost`)."""

    def __init__(self, host: RedirectsHost, editing: RedirectEditing) -> None:
        self.host = host
        self.editing = editing

    # -- test a path ----------------------------------------------------------------------------
    async def test_path(self) -> None:
        host = self.host

        def check(values: Values) -> str | None:
            return None if SOURCE_RE.match(values["path"]) else "A path like /old/page."

        report: list[Content] = []

        async def run(values: Values) -> dict[str, str] | None:
            if host.data is not None:
                report.append(
                    await trace_report(host.client, host.org_id, host.data, values["path"])
                )
            return None

        def show(values: Values | None) -> None:
            if values is not None and report:
                host.app.push_screen(ReportScreen("Where it lands", report[-1]))

        start = host.current.source if host.current else "/"
        field = FormField("path", "Path a visitor asks for", start, validate=check)
        await host.open_form(
            "Test a path", [field], run, target="test-path", tool=PathTestForm, on_done=show
        )

    # -- lint -----------------------------------------------------------------------------------
    async def open_lint(self) -> None:
        if self.host.data is not None:
            await self.host.app.push_screen(LintScreen(self))

    def lint_findings(self) -> tuple[list[Finding], int]:
        data = self.host.data
        if data is None:
            return [], 0
        return lint(data.redirects, data.site_map), len(data.redirects)

    def fix_label(self, action: str, finding: Finding) -> str:
        source = shown_source(finding.redirect)
        if action == "delete":
            return f"delete {source}"
        data = self.host.data
        if data is None or finding.suggestion is None:
            return f"edit {source}"
        return f"point {source} at {data.site_map.label_of(finding.suggestion)}"

    def fix_effect(
        self, action: str, finding: Finding, before: Sequence[Finding]
    ) -> LintDiff | None:
        data = self.host.data
        if data is None:
            return None
        return fix_effect(finding, action, data.redirects, data.site_map, before)

    def start_fix(self, action: str, finding: Finding, done: Callable[[], None]) -> None:
        """The form (``edit``, the suggestion filled in) or the confirmation (``delete``)
        over the lint; ``done`` once the server accepted it and the redirects are reloaded."""
        host = self.host
        reason = host.denial_reason("edit")
        if reason:
            host.notify(reason, title="Not allowed", severity="warning", markup=False)
            return
        if action == "delete":
            host.call_later(self.editing.confirm_delete, finding.redirect, done)
            return
        data = host.data
        suggestion = (
            data.site_map.target_text(finding.suggestion) if data and finding.suggestion else None
        )
        host.call_later(self.editing.open_form, finding.redirect, suggestion, done)

    # -- import / export ------------------------------------------------------------------------
    async def import_file(self) -> None:
        host = self.host
        plans: list[tuple[str, list[PlannedChange]]] = []

        async def read(values: Values) -> dict[str, str] | None:
            try:
                name, text = await read_import_file(values["file"])
            except (OSError, UnicodeDecodeError) as error:
                return {"file": f"Could not read it: {error}"}
            data = host.data
            if data is None:
                return {"": "The site is still loading."}
            plans.append(
                (name, plan_import(parse_import(text, name), data.redirects, data.site_map))
            )
            return None

        def preview(values: Values | None) -> None:
            if values is None or not plans or host.data is None:
                return
            name, plan = plans[-1]
            host.app.push_screen(
                ImportScreen(name, plan, host.data.site_map),
                when_confirmed(lambda: self._apply(plan)),
            )

        field = FormField(
            "file",
            "File to import (.csv, .yaml)",
            "",
            validate=lambda values: import_name_problem(values["file"]),
        )
        await host.open_form(
            "Import redirects", [field], read, target="import", tool=ImportForm, on_done=preview
        )

    def _apply(self, plan: list[PlannedChange]) -> None:
        self.host.run_worker(self._send(plan), group="redirects-import")

    async def _send(self, plan: list[PlannedChange]) -> None:
        host = self.host
        outcome = await send_import(host.client, host.org_id, host.site.id, plan)
        await host.refresh_redirects()
        host.app.push_screen(ReportScreen("Import done", import_report(outcome, plan)))

    async def export_file(self) -> None:
        host = self.host
        default = f"redirects-{host.site.basename or host.site.id}.csv"

        async def write(values: Values) -> dict[str, str] | None:
            data = host.data
            if data is None:
                return {"": "The site is still loading."}
            try:
                path = await write_export(values["file"], data.redirects, data.site_map)
            except OSError as error:
                return {"file": f"Could not write it: {error}"}
            host.notify(f"Exported {len(data.redirects)} redirects to {path}", markup=False)
            return None

        field = FormField(
            "file",
            "Export to (.csv or .yaml)",
            default,
            validate=lambda values: export_name_problem(values["file"]),
        )
        await host.open_form("Export redirects", [field], write, target="export", tool=ExportForm)
