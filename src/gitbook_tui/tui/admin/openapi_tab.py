"""OpenAPITab: the organization's OpenAPI specs with their versions, processing state and
last error, the highlighted one's details below; ``n`` adds or updates a spec from a URL or a
local file (progress, then the processing outcome), ``o`` opens its reference (http/https)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Static

from ..common.denial import gated
from ..common.filter_box import matches
from ..common.form_screen import FormField, Values
from ..common.link_targets import external_url, open_in_browser
from ..common.text import inert, plain
from .admin_data import ago
from .admin_tab import AdminHost, AdminTab
from .openapi_data import SLUG, SpecRow, load_specs, outcome_text, send_spec, source_problem
from .row_table import Cell, Column, RowTable

__all__ = ["OpenAPITab"]


def _slug_problem(values: Values) -> str | None:
    slug = str(values.get("slug", "")).strip()
    if not slug:
        return "A spec needs a slug (e.g. public-api)"
    if not SLUG.match(slug):
        return "Lower-case letters, digits and single dashes (e.g. public-api)"
    return None if len(slug) <= 100 else "At most 100 characters"


def _source_problem(values: Values) -> str | None:
    return source_problem(str(values.get("source", "")))


class OpenAPITab(AdminTab):
    """OpenAPI specs by slug."""

    DEFAULT_CSS = """
    OpenAPITab #openapi-details { height: 8; padding: 0 1; border-top: solid $panel; }
    """

    NAME = "openapi"
    TITLE = "OpenAPI"
    NOUN = ("spec", "specs")
    COLUMNS: ClassVar[Sequence[Column]] = (
        Column("Spec", 18),
        Column("State", 10),
        Column("Versions", 16),
        Column("Last error", 30, grow=True),
    )
    DENIED = "Adding or updating OpenAPI specs needs the create role on the organization."

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "send", "Add/update spec", id="admin.openapi.send"),
        Binding("o", "open_reference", "Open reference", id="admin.openapi.open"),
    ]

    def __init__(self, host: AdminHost) -> None:
        super().__init__(host)
        self.specs: list[SpecRow] = []
        self.now = datetime.now(UTC)

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Static("", id="openapi-details")

    @work(exclusive=True, group="admin-openapi")
    async def load(self) -> None:
        try:
            self.specs = await load_specs(self.client, self.org_id)
        except Exception as error:
            self.failed("the OpenAPI specs", error)
            return
        self.now = datetime.now(UTC)
        self.loaded = True
        self.show(key=self.current_key())

    def total(self) -> int:
        return len(self.specs)

    def _versions(self, spec: SpecRow) -> str:
        if not spec.versions:
            return "none yet"
        latest = spec.versions[0][1]
        return f"{len(spec.versions)} · latest {ago(latest, self.now)}"

    def items(self) -> Sequence[tuple[str, Sequence[Cell]]]:
        found = []
        for s in self.specs:
            if not matches(self.needle, s.slug, s.state, s.error):
                continue
            state_style = "bold" if s.state == "failed" else "" if s.state == "processed" else "dim"
            cells = (
                (s.slug, "bold"),
                (s.state, state_style),
                (self._versions(s), ""),
                (s.error or "—", "" if s.error else "dim"),
            )
            found.append((s.slug, cells))
        return found

    def empty_text(self) -> str:
        can = self.denial_reason("send") is None
        return "No OpenAPI specs yet" + (" · n adds one from a URL or a file" if can else ".")

    def hint_text(self) -> str:
        can = self.denial_reason("send") is None
        return ("n add/update · " if can else "read-only · ") + "o open the reference"

    def spec(self, key: str | None) -> SpecRow | None:
        return next((s for s in self.specs if s.slug == key), None)

    def denial_reason(self, action: str) -> str | None:
        org = self.host.org
        if action == "send" and not (org and org.permissions and org.permissions.createOpenAPISpec):
            return self.DENIED
        return None

    # -- details --------------------------------------------------------------------------------
    @on(RowTable.Highlighted)
    def _highlighted(self) -> None:
        self.show_details(self.spec(self.current_key()))

    def show_details(self, spec: SpecRow | None) -> None:
        details = self.query_one("#openapi-details", Static)
        if spec is None:
            details.update("")
            return
        lines: list[Content | str] = [inert(f"{spec.slug} · source {spec.source}", style="bold")]
        if spec.error:
            lines += ["\n", inert(f"Last processing failed: {spec.error}", style="bold")]
        shown = ", ".join(f"{vid} ({ago(when, self.now)})" for vid, when in spec.versions[:4])
        lines += ["\n", inert("Versions, newest first: " + (shown or "none yet"))]
        where = "the published reference" if spec.published else "the spec in the web app"
        ref = f"o opens {where}: {spec.reference}" if spec.reference else "No reference link."
        lines += ["\n", inert(ref, style="dim")]
        details.update(Content.assemble(*lines))

    # -- actions --------------------------------------------------------------------------------
    def action_open_reference(self) -> None:
        spec = self.spec(self.current_key())
        if spec is None:
            return
        url = external_url(spec.reference) if spec.reference else None
        if url is None:
            self.notify(plain(f"{spec.slug} has no http(s) reference to open."), markup=False)
        elif open_in_browser(url):
            self.notify(plain(f"Opened {url}"), timeout=3, markup=False)
        else:
            self.app.copy_to_clipboard(url)
            self.notify(plain(f"No browser here; copied {url}"), timeout=5, markup=False)

    @gated
    async def action_send(self) -> None:
        current = self.spec(self.current_key())

        async def submit(values: Values) -> dict[str, str] | None:
            slug = str(values["slug"]).strip()
            try:
                spec = await send_spec(
                    self.client, self.org_id, slug, str(values["source"]), self._progress
                )
            except Exception as error:
                self.load()
                return self.refusal(error, ["slug", "source"])
            text, failed = outcome_text(spec)
            title = "Processing failed" if failed else "Spec sent"
            self.notify(
                plain(text),
                title=title,
                severity="error" if failed else "information",
                timeout=12 if failed else 6,
                markup=False,
            )
            self.load()
            return None

        fields = [
            FormField(
                "slug",
                "Slug (an existing one updates that spec)",
                value=current.slug if current else "",
                validate=_slug_problem,
                max_length=100,
            ),
            FormField(
                "source",
                "Source: an http(s) URL or a local file",
                placeholder="https://example.com/openapi.yaml or ~/api/openapi.yaml",
                value=current.source if current and "://" in current.source else "",
                validate=_source_problem,
            ),
        ]
        await self.open_form("Add or update an OpenAPI spec", fields, submit, target="openapi")

    def _progress(self, text: str) -> None:
        self.set_state(text)
        self.notify(plain(text), timeout=3, markup=False)
