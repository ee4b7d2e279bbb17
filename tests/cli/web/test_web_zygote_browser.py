"""``gitbook-tui web --demo`` in Chromium, its sessions forked by the zygote: a tab's app is
a child of the zygote (not a new Python), its tab closed ends it; with the zygote gone a
new tab still gets the app (its launcher runs it). One web server for the module."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from support.waits import until_sync
from support.web_browser import WebProcess, alive, cmdline, demo_web, open_app, parent_pid
from support.worlds import Template

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory, demo_template: Template) -> Iterator[WebProcess]:
    with demo_web(tmp_path_factory.mktemp("web-zygote"), demo_template) as process:
        yield process


def _new_tab(web: WebProcess, browser: Any) -> tuple[Any, int]:
    """A tab on the app, and its session's app process."""
    before = set(web.sessions())
    tab = browser.new_page(viewport={"width": 1000, "height": 600})
    open_app(tab, web.url + "/")
    (session,) = set(web.sessions()) - before
    return tab, session


def test_tabs_are_served_by_forks_of_the_zygote_and_by_a_new_python_once_it_is_gone(
    web: WebProcess, browser: Any
) -> None:
    """Over 5 s on a loaded machine: two sessions start, the second after the zygote died
    (a whole Python importing the app, ~3 s)."""
    zygote = web.zygote()
    assert zygote is not None
    tab, session = _new_tab(web, browser)
    assert parent_pid(session) == zygote
    assert cmdline(session) == cmdline(zygote)  # a fork: no Python started for the tab
    tab.close()
    until_sync(lambda: not alive(session), "the closed tab's forked app to end", timeout=8)

    os.kill(zygote, signal.SIGKILL)
    until_sync(lambda: web.zygote() is None, "the zygote to be gone", timeout=8)
    tab, session = _new_tab(web, browser)
    assert b"gitbook_tui.cli.web_session" in cmdline(session)  # the launcher became the app
    tab.close()
    until_sync(lambda: not alive(session), "the closed tab's app to end", timeout=8)
