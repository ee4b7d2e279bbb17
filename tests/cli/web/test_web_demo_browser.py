"""``gitbook-tui web --demo`` in Chromium: the tree drawn in the page, keys typed there moving
the cursor and opening a page, the four views, a comment reaching the demo's server, and a
closed tab ending its app process. One web server and one browser for the module."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.server.demo.identity import demo_admin_token
from support.waits import until_sync
from support.web_browser import (
    WebProcess,
    alive,
    demo_web,
    open_app,
    press,
    screen_text,
    wait_text,
)
from support.worlds import Template

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory, demo_template: Template) -> Iterator[WebProcess]:
    with demo_web(tmp_path_factory.mktemp("web-demo"), demo_template) as process:
        yield process


@pytest.fixture(scope="module")
def page(web: WebProcess, browser: Any) -> Iterator[Any]:
    """One tab on the app, kept across the module's tests (they go on where the last left)."""
    tab = browser.new_page(viewport={"width": 1280, "height": 800})
    open_app(tab, web.url + "/")
    yield tab
    tab.close()


def test_a_reader_in_the_page_browses_switches_views_copies_opens_and_comments(
    web: WebProcess, page: Any
) -> None:
    """One walk (the steps go on from each other), over 5 s on a loaded machine: keys move
    the tree's cursor and open a page, ``1``–``4`` switch views, ``y`` copies a site's URL
    to the browser's clipboard and ``o`` opens it in a new tab, and a comment typed in
    the page reaches the demo's server."""
    wait_text(page, "Tidewater 1.x Docs (archived)")  # the tree, drawn in the page
    press(page, "j", "j", "j", "Enter")  # the cursor down to the archived space: expand it
    wait_text(page, "Installing 1.x")
    press(page, "j", "j", "Enter")
    wait_text(page, "Tidewater 1.x Docs (archived) / Installing 1.x")  # the page, opened

    for key, text in (
        ("2", "Change requests of this space"),
        ("3", "Comments · Tidewater 1.x Docs (archived)"),
        ("4", "Tidewater Developer Hub"),
        ("1", "/ Installing 1.x"),
    ):
        press(page, key)
        wait_text(page, text)

    site = "https://lanternfish.gitbook.io/developers"
    context = page.context
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=web.url)
    context.route(
        f"{site}*", lambda route: route.fulfill(body="the site", content_type="text/html")
    )
    press(page, "4")
    wait_text(page, "Tidewater Developer Hub")
    press(page, "j", "y")  # the published site under the cursor: its URL copied
    wait_text(page, f"Copied {site}")
    assert page.evaluate("navigator.clipboard.readText()") == site
    with context.expect_page() as opened:
        press(page, "o")
    assert opened.value.url == site
    opened.value.close()

    press(page, "3")
    wait_text(page, "c starts one")
    press(page, "c")
    wait_text(page, "New thread")
    page.keyboard.type("Typed in Chromium, via gitbook-tui web")
    # sent once the composer shows it all, as a user would (on a loaded machine the
    # terminal may still be drawing the first letters)
    wait_text(page, "via gitbook-tui web")
    press(page, "Control+s")
    demo_url = web.line_after("the demo's server is ")
    try:
        until_sync(
            lambda: any("Typed in Chromium" in c for c in _comment_bodies(demo_url)),
            "the comment on the demo's server",
            timeout=60,  # the outbox sends it: slow when the machine's two cores are busy
        )
    except AssertionError as exc:
        raise AssertionError(f"{exc}; the page shows:\n{screen_text(page)}") from None


def _comment_bodies(url: str) -> list[str]:
    async def read() -> list[str]:
        found = []
        async with AsyncGitBook(demo_admin_token(), base_url=url) as client:
            async for org in client.orgs.list():
                async for space in client.spaces.list_in_org(org.id):
                    async for comment in client.comments.list(space.id):
                        found.append(comment.model_dump_json())
        return found

    # in a thread: Playwright's sync API keeps an event loop running in this one
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, read()).result()


def test_a_closed_tab_ends_its_app_process(web: WebProcess, browser: Any) -> None:
    """Over 5 s on a loaded machine: a second session's app starts (~3 s) before its tab
    is closed."""
    before = set(web.sessions())
    tab = browser.new_page(viewport={"width": 1000, "height": 600})
    open_app(tab, web.url + "/")
    (session,) = set(web.sessions()) - before
    tab.close()
    until_sync(lambda: not alive(session), "the closed tab's app process to end", timeout=8)
    assert session not in web.sessions()


def test_each_session_has_a_data_folder_of_its_own(web: WebProcess, page: Any) -> None:
    sessions = web.home / "data" / "gitbook-tui" / "web-sessions"
    # the environment textual-serve gave the session (a forked app's /proc shows the
    # zygote's: the launcher hands this one over)
    pid = web.launchers()[0]
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    (entry,) = [v for v in environ if v.startswith(b"GITBOOK_TUI_DATA_DIR=")]
    folder = Path(entry.split(b"=", 1)[1].decode())
    assert folder.parent == sessions
    assert b"GITBOOK_TOKEN" not in b"\0".join(environ)  # the demo signs in as its owner
    # and the app (forked, or started by the launcher) keeps its outbox there
    until_sync(lambda: (folder / "outbox").is_dir(), "the session's outbox in its folder")
