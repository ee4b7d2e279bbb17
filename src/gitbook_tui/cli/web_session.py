"""One browser session of ``gitbook-tui web``: the app, run by textual-serve's web driver.

Run by a process forked from the zygote (``cli/web_zygote.py``, which called ``prepare``
beforehand), or started as ``python -m gitbook_tui.cli.web_session``; either way with
everything in its environment (see ``cli/web.py``): the token (``GITBOOK_TOKEN``), or the demo's server
(``GITBOOK_TUI_WEB_DEMO_URL``), the start target or view. The token is taken out of the
environment once read, and written as ``[token]`` if anything prints it on the error
output (textual-serve copies that output to the web server's terminal).
"""

from __future__ import annotations

import functools
import os
import ssl
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import httpx

from .web import DEMO_ACCOUNT_ENV, DEMO_URL_ENV, START_TARGET_ENV, START_VIEW_ENV

if TYPE_CHECKING:
    from ..api import AsyncGitBook
    from ..cache import ResponseCache

__all__ = ["Redacting", "build_validators", "main", "prepare", "session_client"]

PRELOADED = (
    "textual.drivers.web_driver",
    "textual.drivers.headless_driver",
    "textual.pilot",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "textual.scrollbar",
    "gitbook_tui.tui.app",
    "gitbook_tui.tui.app_signals",
    "gitbook_tui.server.demo.identity",
    "httpcore",  # (the client's transport imports it, with anyio and trio, when made)
    "anyio._backends._asyncio",
    "h11",
    "concurrent.futures.thread",
)
"""What a session imports on its way to the first tree frame (beyond this module's own
imports), with every module of ``gitbook_tui.api`` and ``gitbook_tui.tui``: the zygote
imports them once (the app defers some until a screen needs them)."""
PRELOADED_PACKAGES = ("gitbook_tui.api", "gitbook_tui.models", "gitbook_tui.tui")
PAGED_AT_START = ("Organization", "Space", "Collection")
"""The models a session's start reads lists of (``Page[X]``, made when first asked for): the
zygote makes those pages' models too (``tests/cli/web/test_web_session_preload.py`` finds
any other)."""


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The client's TLS settings (httpx's own: certifi's authorities), made once: reading
    the authorities takes ~0.1 s of CPU, which a forked session need not pay again."""
    return httpx.create_ssl_context()


def _transport() -> httpx.AsyncHTTPTransport:
    return httpx.AsyncHTTPTransport(verify=_tls_context())


def prepare() -> None:
    """Do beforehand what every session does the same way: import the app (``PRELOADED``),
    build the models' validators, read the TLS authorities and Rich's table of character
    widths. For the zygote (``cli/web_zygote.py``): nothing of a user's, no thread, no
    event loop."""
    import importlib
    import pkgutil

    for name in PRELOADED:
        importlib.import_module(name)
    for package_name in PRELOADED_PACKAGES:
        package = importlib.import_module(package_name)
        for module in pkgutil.walk_packages(package.__path__, package_name + "."):
            try:
                importlib.import_module(module.name)
            except Exception:  # (one that cannot be imported alone is imported when used)
                print(f"gitbook-tui web: could not preload {module.name}", file=sys.stderr)
    build_validators()
    _tls_context()
    from rich.cells import get_character_cell_size

    get_character_cell_size("\u3042")  # loads Rich's table of wide characters


def build_validators() -> None:
    """Build the validator of every model: each is built when it first reads an answer
    (``defer_build``, for the terminal's start), which a forked session would pay again
    each time (~0.05 s of CPU on its way to the tree); built here, the sessions share them."""
    from .. import models
    from ..models.common import ApiModel, Page

    for name in PAGED_AT_START:
        Page.__class_getitem__(getattr(models, name))  # (kept by Page: see its docstring)
    found: list[type[ApiModel]] = [ApiModel]
    while found:
        model = found.pop()
        found += model.__subclasses__()
        if not model.__pydantic_complete__:
            try:
                model.model_rebuild()
            except Exception:  # (one that cannot be built yet is built when used)
                print(f"gitbook-tui web: could not build {model.__name__}", file=sys.stderr)


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


def session_client(
    token: str | None, demo_url: str | None, demo_account: str | None, cache: ResponseCache
) -> AsyncGitBook:
    """The session's client: the demo's owner on the demo's server (in the terminal's demo
    account, so both share one cache), else the user's token on their server."""
    from ..api import AsyncGitBook

    if demo_url:
        from ..server.demo.identity import demo_admin_token

        return AsyncGitBook(
            demo_admin_token(),
            base_url=demo_url,
            cache=cache,
            transport=_transport(),
            account_server=demo_account,
        )
    return AsyncGitBook(token, cache=cache, transport=_transport())


def main() -> int:
    token = os.environ.pop("GITBOOK_TOKEN", None)  # no child of the app inherits it
    demo_url = os.environ.pop(DEMO_URL_ENV, None)
    demo_account = os.environ.pop(DEMO_ACCOUNT_ENV, None)
    sys.stderr = Redacting(sys.stderr, [token or ""])  # type: ignore[assignment]

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
    client = session_client(token, demo_url, demo_account, ResponseCache())
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
