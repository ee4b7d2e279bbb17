"""Hostile server text across the Admin tabs — a member's name and email, a team's title, an
integration's title and description, an OpenAPI spec's processing error, translation
settings' title: Rich markup and actions shown literally, escapes and bidi controls gone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from gitbook_tui.tui.common.confirm_screen import ConfirmScreen
from gitbook_tui.tui.common.intents import ShowPermissions
from support.admin_world import admin_shown, demo_id, listed
from support.hostile_text import BIDI, CLICK, CSI, MARKUP, check_screen, hostile, shown
from support.waits import settle, until, until_screen
from support.worlds import Template
from support.worlds import demo_app as demo_server

SIZE = (200, 50)
EMAIL = f"{MARKUP}{BIDI}{CSI}@lanternfish.dev"
EMAIL_SHOWN = f"{MARKUP}evilred@lanternfish.dev"


def _edit(demo: FastAPI, kind: str, where: str, value: str, **fields: Any) -> None:
    """Set ``fields`` on the one ``kind`` document whose ``where`` field is ``value``."""
    with demo.state.server.storage.transaction() as tx:
        rows = tx.conn.execute(
            f"SELECT id, data FROM docs WHERE kind=? AND json_extract(data, '$.{where}')=?",
            (kind, value),
        ).fetchall()
        assert len(rows) == 1, (kind, where, value)
        doc = json.loads(rows[0][1])
        doc.update(fields)
        tx.put(kind, rows[0][0], doc)


@pytest.fixture
def demo(tmp_path: Path, demo_template: Template) -> Iterator[FastAPI]:
    app = demo_server(demo_template, tmp_path / "demo.sqlite")
    _edit(app, "user", "email", "ravi@lanternfish.dev", displayName=hostile("ravi"), email=EMAIL)
    _edit(app, "team", "title", "Docs guild", title=hostile("team"))
    _edit(
        app,
        "integration",
        "name",
        "tidewater-slack-notify",
        title=hostile("integration"),
        description=hostile("about"),
    )
    _edit(
        app,
        "openapi-spec",
        "slug",
        "tidewater-api",
        lastProcessedErrors=[{"code": "PARSE_ERROR", "message": hostile("spec")}],
    )
    _edit(app, "translation", "title", "Docs in Japanese and German", title=hostile("tr"))
    yield app


async def test_hostile_text_is_inert_in_every_admin_tab(demo: FastAPI, tmp_path: Path) -> None:
    """Every tab drawn with hostile server text, checked on the terminal's output. (Seven
    screens measured over the demo.)"""

    async with admin_shown(demo, tmp_path, "members", size=SIZE) as (app, pilot, screen, tab, _):
        await settle(pilot)
        check_screen(app, shown("ravi"), EMAIL_SHOWN)
        for tab, expected in (
            ("teams", (CLICK, shown("ravi"))),
            ("invites", ()),
            ("integrations", (shown("integration"), shown("about"))),
            ("openapi", (f"Last processing failed: PARSE_ERROR: {shown('spec')}",)),
            ("translations", (shown("tr"),)),
        ):
            await pilot.press("right_square_bracket")
            while screen.tab not in (tab, "permissions"):
                await pilot.press("right_square_bracket")
            if screen.tab == "permissions":
                continue  # (no space chosen yet: it says so)
            await until(pilot, lambda: screen.current.loaded, timeout=20)
            if tab == "integrations":
                row = next(i for i, t in enumerate(listed(screen.current)) if "integration" in t)
                screen.current.table._set_cursor(row)
            await settle(pilot)
            check_screen(app, *expected)
        # a confirmation names the hostile title inert too
        await pilot.press("d")
        await until_screen(pilot, ConfirmScreen)
        await settle(pilot)
        check_screen(app, CLICK)
        await pilot.press("escape")
        # the permissions of a space shared with the hostile team and with Ravi's team
        app.navigate(ShowPermissions(space_id=demo_id(demo, "space", "Tidewater User Guide")))
        await until(pilot, lambda: screen.tab == "permissions" and screen.current.loaded)
        await settle(pilot)
        # (the Who column cuts Ravi's name; the team's title is whole where access comes from)
        check_screen(app, CLICK, f"team {shown('team')} (edit)")
        assert app.is_running
