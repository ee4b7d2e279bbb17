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


def main() -> int:
    token = os.environ.pop("GITBOOK_TOKEN", None)  # no child of the app inherits it
    demo_url = os.environ.pop(DEMO_URL_ENV, None)
    sys.stderr = Redacting(sys.stderr, [token or ""])  # type: ignore[assignment]

    from ..api import AsyncGitBook
    from ..cache import ResponseCache
    from ..tui.app import GitBookApp
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
    app = GitBookApp(
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
