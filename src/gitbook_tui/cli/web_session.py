"""One browser session of ``gitbook-tui web``: the app, run by textual-serve's web driver.

Started as ``python -m gitbook_tui.cli.web_session`` with everything in its environment
(see ``cli/web.py``): the token (``GITBOOK_TOKEN``), or the demo's server
(``GITBOOK_TUI_WEB_DEMO_URL``), the start target or view. The token is taken out of the
environment once read, and written as ``[token]`` if anything prints it on the error
output (textual-serve copies that output to the web server's terminal).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, TextIO

from .web import DEMO_URL_ENV, START_TARGET_ENV, START_VIEW_ENV

__all__ = ["Redacting", "main"]


class Redacting:
    """A text stream writing ``[token]`` in place of each secret."""

    def __init__(self, inner: TextIO, secrets: list[str]) -> None:
        self._inner = inner
        self._secrets = [s for s in secrets if s]

    def write(self, text: str) -> int:
        for secret in self._secrets:
            text = text.replace(secret, "[token]")
        return self._inner.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _web_app_class() -> type[Any]:
    """GitBookApp, focusing the screen's default widget when the page gives the app focus.

    Textual's web driver starts the app blurred; a screen composed meanwhile (the tree)
    does not take its default focus, and the focus Textual restores on the first key or
    page focus is the one from before the blur — none. Keys then reached no widget: the
    first ``j`` did nothing, for seconds, until something else set the focus."""
    from ..tui import app as app_module
    from ..tui.app import GitBookApp

    class WebSessionApp(GitBookApp):
        # (a relative CSS_PATH is read beside the class's module: this one is elsewhere)
        CSS_PATH = str(Path(app_module.__file__).with_name(str(GitBookApp.CSS_PATH)))

        async def on_mount(self) -> None:  # (GitBookApp's runs too: Textual calls each class's)
            self.watch(self, "app_focus", self._focus_default, init=False)

        def _focus_default(self, focused: bool) -> None:
            screen = self.screen
            if not focused or screen.focused is not None:
                return
            selector = screen.AUTO_FOCUS or self.AUTO_FOCUS
            for widget in screen.query(selector) if selector else ():
                if widget.focusable:
                    widget.focus(scroll_visible=False)
                    return

    return WebSessionApp


def main() -> int:
    token = os.environ.pop("GITBOOK_TOKEN", None)  # no child of the app inherits it
    demo_url = os.environ.pop(DEMO_URL_ENV, None)
    sys.stderr = Redacting(sys.stderr, [token or ""])  # type: ignore[assignment]

    from ..api import AsyncGitBook
    from ..cache import ResponseCache
    from ..tui.app_signals import run_keeping_drafts
    from ..tui.common.state import parse_target

    start = None
    target = os.environ.get(START_TARGET_ENV)
    if target:
        try:
            start = parse_target(target)
        except ValueError:
            start = None  # run_web checked it; a bad one opens the default screen
    if demo_url:
        from ..server.demo.identity import demo_admin_token

        client = AsyncGitBook(demo_admin_token(), base_url=demo_url, cache=ResponseCache())
    else:
        client = AsyncGitBook(token, cache=ResponseCache())
    app = _web_app_class()(
        client, demo=bool(demo_url), start=start, start_view=os.environ.get(START_VIEW_ENV)
    )
    try:
        run_keeping_drafts(app)
    finally:
        if client.cache is not None:
            client.cache.close()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
