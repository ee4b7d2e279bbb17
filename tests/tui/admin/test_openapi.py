"""The OpenAPI tab on the demo workspace: specs with versions, state and the failed update's
error; adding a spec from a local file (processed) and a broken one (the failure shown), URL
rules, ``o`` on the reference, and the tab read-only for a non-creator."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI

from gitbook_tui.tui.admin import openapi_tab
from gitbook_tui.tui.admin.openapi_tab import OpenAPITab
from gitbook_tui.tui.common.form_screen import FormScreen
from support.admin_world import admin_shown, listed, rows_by_key
from support.waits import until, until_screen

SPEC = """openapi: 3.0.3
info: {title: Billing, version: "1.0"}
paths:
  /invoices:
    get:
      summary: List invoices
      responses: {"200": {description: OK}}
"""


def details(tab: OpenAPITab) -> str:
    return str(tab.query_one("#openapi-details").content)


async def test_specs_show_versions_and_the_failed_update(
    demo: FastAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo's spec: two versions and its failed update's error; o opens its reference."""

    opened: list[str] = []
    async with admin_shown(demo, tmp_path, "openapi") as (_, pilot, _, tab, _):
        assert isinstance(tab, OpenAPITab)
        row = rows_by_key(tab)["tidewater-api"]
        assert row[1] == "failed" and row[2].startswith("2 ·") and row[3] != "—"
        await until(pilot, lambda: "Last processing failed" in details(tab))
        assert "o opens" in details(tab)
        monkeypatch.setattr(openapi_tab, "open_in_browser", lambda url: not opened.append(url))
        await pilot.press("o")
        await until(pilot, lambda: len(opened) == 1)
        assert opened[0].startswith(("http://", "https://"))


async def test_adding_a_spec_from_a_file_then_a_broken_one(demo: FastAPI, tmp_path: Path) -> None:
    """A spec from a local file processes (progress, then the outcome); a broken update is
    reported as failed; a file:// URL is refused as typed. (Two sends over the demo.)"""

    good, bad = tmp_path / "billing.yaml", tmp_path / "broken.yaml"
    good.write_text(SPEC)
    bad.write_text('{"openapi": "3.0.3", "info": ')  # cut short
    async with admin_shown(demo, tmp_path, "openapi") as (app, pilot, _, tab, notes):
        await pilot.press("n")
        form = await until_screen(pilot, FormScreen)
        slug = form.query_one("#field-slug")
        slug.value = "billing-api"  # type: ignore[attr-defined]
        source = form.query_one("#field-source")
        source.value = "file:///etc/passwd"  # type: ignore[attr-defined]
        await until(pilot, lambda: "Only http:// and https://" in form.error_of("source"))
        source.value = str(good)  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, FormScreen))
        await until(pilot, lambda: "billing-api" in listed(tab))
        assert any("billing-api processed" in n for n in notes)
        assert any("Uploading billing.yaml" in n for n in notes)
        assert rows_by_key(tab)["billing-api"][1] == "processed"
        await pilot.press("n")
        form = await until_screen(pilot, FormScreen)
        form.query_one("#field-slug").value = "billing-api"  # type: ignore[attr-defined]
        form.query_one("#field-source").value = str(bad)  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: any("billing-api did not process" in n for n in notes))
        await until(pilot, lambda: rows_by_key(tab)["billing-api"][1] == "failed")


async def test_a_non_creator_reads_specs_only(demo: FastAPI, tmp_path: Path) -> None:
    """Ravi (edit role) reads the specs; n says why it needs the create role."""

    shown = admin_shown(demo, tmp_path, "openapi", user="ravi")
    async with shown as (app, pilot, _, tab, notes):
        assert "tidewater-api" in listed(tab)
        await pilot.press("n")
        await until(pilot, lambda: any("needs the create role" in n for n in notes))
        assert not isinstance(app.screen, FormScreen)
