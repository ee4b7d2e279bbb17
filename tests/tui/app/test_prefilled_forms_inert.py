"""Server text prefilled into an editable field is inert: the review's subject/description
editor, the site title form, the comment editor, a redirect's edit form and the "Where it
lands" report never carry ANSI/OSC escapes or bidi controls to the terminal (QA #17)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widget import Widget
from textual.widgets import Input, TextArea

from gitbook_tui.tui.common.form_screen import FormField, FormScreen
from gitbook_tui.tui.common.state import StartTarget
from gitbook_tui.tui.common.text import form_value
from gitbook_tui.tui.sites.report_screen import ReportScreen
from support import comments_world, review_world, sites_world
from support.waits import until, until_screen
from support.worlds import World

MARKUP = "[@click=app.quit]x[/]"
HOSTILE = f"{MARKUP} \x1b[31mRED\x1b[0m \x1b]8;;http://evil\x07link\x1b]8;;\x07 \u202eevil\u202c"
HOSTILE_URL = "https://evil.example/%1b[31m/\u202eabc/[bold]x"
CONTROLS = ("\x1b", "\x07", "\u202e", "\u202c")


def _clean(text: str) -> None:
    for control in CONTROLS:
        assert control not in text, repr(text)


def _drawn(widget: Widget) -> str:
    """What the widget writes to the terminal, row by row."""
    return "\n".join(
        "".join(segment.text for segment in widget.render_line(y))
        for y in range(widget.size.height)
    )


def _screen_is_clean(app: Any) -> None:
    _clean(app.export_screenshot())


def test_form_value_strips_controls_keeps_text() -> None:
    value = form_value(HOSTILE)
    _clean(value)
    assert value == f"{MARKUP} RED link evil"
    assert form_value("a\n\tb", one_line=True) == "a  b"
    assert form_value("a\n\tb") == "a\n\tb"
    assert form_value(None) == ""


def test_form_screen_cleans_the_prefill_but_not_a_restored_draft() -> None:
    async def submit(values: dict[str, Any]) -> None:
        return None

    fresh = FormScreen("t", [FormField("title", "Title", HOSTILE)], submit)
    assert fresh.fields[0].value == f"{MARKUP} RED link evil"
    # a draft is the user's own text (here with a right-to-left mark they typed): kept
    mine = "שלום \u200f typed"
    restored = FormScreen(
        "t", [FormField("title", "Title", HOSTILE)], submit, restored={"title": mine}
    )
    assert restored.fields[0].value == mine


async def test_form_select_labels_from_the_server_are_inert() -> None:
    from textual.app import App
    from textual.widgets import Select

    async def submit(values: dict[str, Any]) -> None:
        return None

    field = FormField("space", "Space", "s1", "select", options=[(HOSTILE, "s1"), ("B", "s2")])
    app: App[None] = App()
    async with app.run_test(size=(100, 30)) as pilot:
        app.push_screen(FormScreen("Pick", [field], submit))
        await until_screen(pilot, FormScreen)
        await pilot.pause()
        select = app.screen.query_one(Select)
        assert select.value == "s1"
        screenshot = app.export_screenshot()
        assert MARKUP in screenshot  # the markup is shown as text, never a live link
        _clean(screenshot)


async def test_review_subject_editor_is_inert(world: World, desk: dict, tmp_path: Path) -> None:
    from gitbook_tui.tui.review.subject_screen import SubjectScreen

    path = f"/spaces/{desk['space']['id']}/change-requests/{desk['cr']['id']}"
    r = world.client("eve").patch(
        path, json={"subject": HOSTILE, "description": {"markdown": f"{HOSTILE}\n\nmore"}}
    )
    assert r.status_code == 200, r.text
    app = review_world.make_app(world, tmp_path, "eve")
    async with app.run_test(size=(120, 40)) as pilot:
        review = await review_world.open_review(app, pilot, HOSTILE)
        await pilot.press("E")
        await until_screen(pilot, SubjectScreen)
        await pilot.pause()
        subject = app.screen.query_one(Input)
        description = app.screen.query_one(TextArea)
        _clean(subject.value)
        _clean(description.text)
        assert MARKUP in subject.value and MARKUP in description.text
        assert "RED" in description.text and "more" in description.text
        _clean(_drawn(subject))
        _clean(_drawn(description))
        _screen_is_clean(app)
        assert review.state is not None


async def test_site_title_form_is_inert(world: World, tmp_path: Path) -> None:
    site = sites_world.build_site(world)
    r = world.client("alice").patch(f"/orgs/{world.org}/sites/{site.site}", json={"title": HOSTILE})
    assert r.status_code == 200, r.text
    app = sites_world.make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await sites_world.open_editor(pilot, HOSTILE)
        await pilot.press("left_square_bracket")
        assert editor.tab == "settings"
        await pilot.press("e")
        await until_screen(pilot, FormScreen)
        await pilot.pause()
        box = app.screen.query_one("#field-title", Input)
        assert box.value == f"{MARKUP} RED link evil"
        _clean(_drawn(box))
        _screen_is_clean(app)


async def test_redirect_report_and_edit_form_are_inert(world: World, tmp_path: Path) -> None:
    """A hostile redirect URL stays inert in the test-path report and the edit form. Slow: drives the
    sites editor through two dialogs."""
    site = sites_world.build_site(world)
    body = {"source": "/hostile-url", "destination": {"kind": "external", "url": HOSTILE_URL}}
    r = world.client("alice").post(f"/orgs/{world.org}/sites/{site.site}/redirects", json=body)
    assert r.status_code in (200, 201), r.text
    app = sites_world.make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await sites_world.open_editor(pilot)
        await pilot.press("right_square_bracket")
        pane = sites_world.redirects_pane(editor)
        await until(pilot, lambda: "/hostile-url" in [e.source for e in pane.shown])
        table = pane.query_one("#redirects-table")
        table.move_cursor(row=[e.source for e in pane.shown].index("/hostile-url"))  # type: ignore[attr-defined]
        await pilot.press("t")
        await until_screen(pilot, FormScreen)
        assert app.screen.query_one("#field-path", Input).value == "/hostile-url"
        await pilot.press("enter")
        await until_screen(pilot, ReportScreen)
        await pilot.pause()
        report = app.screen.query_one("#report-body")
        text = str(report.render())
        assert "/abc/[bold]x" in text
        _clean(text)
        _clean(_drawn(report))
        _screen_is_clean(app)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is editor)
        await pilot.press("e")
        await until_screen(pilot, FormScreen)
        await pilot.pause()
        box = app.screen.query_one("#field-destination", Input)
        assert box.value.endswith("/abc/[bold]x")
        _clean(box.value)
        _clean(_drawn(box))
        _screen_is_clean(app)


async def test_comment_editor_is_inert(world: World, tmp_path: Path) -> None:
    ids = comments_world.build_space(world)
    r = world.client("eve").post(
        f"/spaces/{ids['space']}/comments",
        json={"body": {"markdown": f"{HOSTILE}\n\nsecond"}, "page": ids["Welcome"]},
    )
    assert r.status_code in (200, 201), r.text
    mine = str(r.json()["id"])
    app, _ = comments_world.make_app(
        world, tmp_path, start=StartTarget(ids["space"], ids["Welcome"])
    )
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await comments_world.open_comments(pilot)
        await comments_world.select_thread(pilot, screen, mine)
        await pilot.press("e")
        await until(pilot, lambda: screen.composer.is_open and "second" in screen.composer.text)
        text = screen.composer.text
        _clean(text)
        assert MARKUP in text and "RED" in text
        _clean(_drawn(screen.composer.area))
        _screen_is_clean(app)
