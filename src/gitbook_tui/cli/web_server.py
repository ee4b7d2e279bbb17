"""WebServer: textual-serve's Server with an access key, a session limit, and sessions that
end with their browser tab.

textual-serve (aiohttp) serves the page and runs the app in one process per websocket.
On top of it: a middleware checks every request (the key's cookie, a loopback ``Host``
without a key, the websocket's ``Origin``) and the session limit before anything is
spawned; each session's process gets its own environment (the token, a data folder of
its own with ``--demo``) and is killed and reaped when its websocket closes, whatever the
app does.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import os
import re
import shutil
import signal
import socket
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.web_runner import GracefulExit
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager
from textual_serve.server import Server, to_int

from .web_access import COOKIE, Access

__all__ = ["SessionService", "WebServer", "shared_environment"]

STOP_GRACE = 2.0
"""Seconds a session's app has to quit after its tab closed, before SIGTERM (drafts are
written on it), then as long again before SIGKILL."""

_ORIGIN: ContextVar[str | None] = ContextVar("gitbook_tui_web_origin", default=None)
_GOOGLE_FONTS = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>\s*", re.IGNORECASE)

_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>gitbook-tui</title>
<style>body{{background:#0c181f;color:#eee;font-family:monospace;padding:3em}}</style>
</head><body><h1>{title}</h1><p>{text}</p></body></html>"""


def _page(status: int, title: str, text: str, **headers: str) -> web.Response:
    body = _PAGE.format(title=html.escape(title), text=html.escape(text))
    return web.Response(status=status, text=body, content_type="text/html", headers=headers)


def _busy(limit: int) -> web.Response:
    return _page(
        503,
        "Busy",
        f"gitbook-tui is serving as many browser sessions as it may ({limit}). Close one "
        "of them, or try again in a moment.",
        **{"Retry-After": "5"},
    )


def _unauthorized() -> web.Response:
    return _page(
        401,
        "Access key needed",
        "Open the address with the access key that `gitbook-tui web` printed or was given.",
    )


class SessionService(AppService):
    """One browser session's app process: its own environment, stopped for sure."""

    def __init__(
        self, command: str, *, env: Mapping[str, str | None], data_root: Path | None, **kw: Any
    ) -> None:
        super().__init__(command, **kw)
        self.extra_env = env
        self.data_dir = data_root / self.app_service_id if data_root is not None else None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        for name, value in self.extra_env.items():
            if value is None:
                environment.pop(name, None)
            else:
                environment[name] = value
        if self.data_dir is not None:
            from ..folders import DATA_DIR_ENV, private_dir

            environment[DATA_DIR_ENV] = str(private_dir(self.data_dir))
        return environment

    async def stop(self) -> None:
        """Ask the app to quit (textual-serve's way); then SIGTERM, then SIGKILL, and reap."""
        try:
            await asyncio.wait_for(super().stop(), STOP_GRACE)
        except TimeoutError:
            self._task = None  # cancelled with the wait
        process = self._process
        if process is not None and process.returncode is None:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(sig)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), STOP_GRACE)
                    break
        elif process is not None:
            await process.wait()
        self._forget_data_dir()

    def kill_now(self) -> None:
        """At the server's exit: whatever still runs goes."""
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()

    def _forget_data_dir(self) -> None:
        """Remove the session's data folder when it holds no file (no draft was left)."""
        folder = self.data_dir
        if folder is None or not folder.is_dir():
            return
        if not any(files for _, _, files in os.walk(folder)):
            shutil.rmtree(folder, ignore_errors=True)


async def _nothing(*args: object) -> None:
    """(a session that is never started writes nowhere)"""


def shared_environment(env: Mapping[str, str | None]) -> dict[str, str]:
    """The environment every session has in common (textual-serve's settings for the web
    driver, ``env``), without anything of the user's: for the zygote (``cli/web_zygote.py``),
    which imports the app under the settings its sessions will run with."""
    service = SessionService(
        "",
        env=env,
        data_root=None,
        write_bytes=_nothing,
        write_str=_nothing,
        close=_nothing,
        download_manager=DownloadManager(),
    )
    environment = service._build_environment()
    return {k: v for k, v in environment.items() if not k.startswith("GITBOOK_")}


class WebServer(Server):
    """textual-serve's Server, guarded (see the module)."""

    def __init__(
        self,
        command: str,
        *,
        host: str,
        port: int,
        access: Access,
        max_sessions: int,
        session_env: Mapping[str, str | None],
        session_data: Path | None = None,
        server_ready: Callable[[], bool] | None = None,
        show_key: str | None = None,
    ) -> None:
        self._fixed_url: str | None = None
        super().__init__(command, host=host, port=port, title="gitbook-tui")
        self.access = access
        self.max_sessions = max_sessions
        self.session_env = session_env
        self.session_data = session_data
        self.server_ready = server_ready
        self.show_key = show_key
        self.sessions: dict[str, SessionService] = {}
        self.sock: socket.socket | None = None

    # The page's websocket URL is made from ``public_url``: each page gets the address its
    # browser used (a name, an address, a port forwarded), so its cookie goes along.
    @property  # type: ignore[override]
    def public_url(self) -> str:
        return _ORIGIN.get() or self._fixed_url or ""

    @public_url.setter
    def public_url(self, value: str) -> None:
        self._fixed_url = value

    def initialize_logging(self) -> None:
        """No log set up: textual-serve's would print each session's command and errors
        with Rich; what a session's app prints on its error output still reaches the
        terminal (the sessions keep the token out of it)."""

    def request_exit(self) -> None:
        raise GracefulExit()

    def bind(self) -> socket.socket:
        """Listen (port 0: any free port); the URL is known from then on."""
        from ..server.background import bind_socket

        self.sock = bind_socket(self.host, self.port)
        self.port = self.sock.getsockname()[1]
        shown = f"[{self.host}]" if ":" in self.host else self.host
        self._fixed_url = f"http://{shown}:{self.port}"
        return self.sock

    def serve(self, debug: bool = False) -> None:
        sock = self.sock or self.bind()
        loop = asyncio.new_event_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.request_exit)
        try:
            web.run_app(
                self._make_app(),
                sock=sock,
                handle_signals=False,
                loop=loop,
                print=None,
                shutdown_timeout=STOP_GRACE,
            )
        finally:
            for session in list(self.sessions.values()):
                session.kill_now()

    async def on_startup(self, app: web.Application) -> None:
        print(f"gitbook-tui web: serving on {self._fixed_url}/ (ctrl+c to stop)", flush=True)
        if self.show_key is not None:  # the only time the key is shown
            print(f"open: {self._fixed_url}/?key={self.show_key}", flush=True)

    async def on_shutdown(self, app: web.Application) -> None:
        await asyncio.gather(*(s.stop() for s in list(self.sessions.values())))

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self._guard)
        return app

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if not self.access.host_allowed(request.host):
            return _page(421, "Wrong address", "Open the server by its loopback address.")
        if self.access.required:
            given = request.query.get("key")
            if request.path == "/" and given is not None:
                if not self.access.key_matches(given):
                    return _unauthorized()
                redirect = web.HTTPSeeOther("/")
                redirect.set_cookie(
                    COOKIE, self.access.cookie_value(), httponly=True, samesite="Strict", path="/"
                )
                redirect.headers["Referrer-Policy"] = "no-referrer"
                return redirect
            if not self.access.cookie_matches(request.cookies.get(COOKIE)):
                return _unauthorized()
        if request.path == "/ws":
            origin = request.headers.get("Origin")
            if origin is not None and origin != f"{request.scheme}://{request.host}":
                return _page(403, "Refused", "A page of another site opened this session.")
        if request.path == "/" and len(self.sessions) >= self.max_sessions:
            return _busy(self.max_sessions)
        reset = _ORIGIN.set(f"{request.scheme}://{request.host}")
        try:
            response = await handler(request)
        finally:
            _ORIGIN.reset(reset)
        if request.path == "/" and isinstance(response, web.Response) and response.text:
            # no request to a font service from the user's browser: the page's fonts are
            # served from /static
            response.text = _GOOGLE_FONTS.sub("", response.text)
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    # (a page instead of a websocket when refused: aiohttp takes any response)
    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """textual-serve's, with the limit checked before anything is spawned, the demo's
        server awaited, and the session stopped (killed if need be) when the socket closes."""
        if len(self.sessions) >= self.max_sessions:
            return _busy(self.max_sessions)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        websocket = web.WebSocketResponse(heartbeat=15)
        session = SessionService(
            self.command,
            env=self.session_env,
            data_root=self.session_data,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
        )
        self.sessions[session.app_service_id] = session  # the slot is taken before any await
        try:
            if not await self._server_ready():
                return _page(500, "No server", "The demo's server did not start.")
            await websocket.prepare(request)
            await session.start(width, height)
            await self._process_messages(websocket, session)
        except (asyncio.CancelledError, ConnectionResetError):
            pass
        finally:
            try:
                await session.stop()
            finally:
                self.sessions.pop(session.app_service_id, None)
                with contextlib.suppress(Exception):
                    await websocket.close()
        return websocket

    async def _server_ready(self) -> bool:
        """Wait for the demo's server (it seeds on its first run); False if it failed."""
        ready = self.server_ready
        if ready is None:
            return True
        try:
            while not ready():
                await asyncio.sleep(0.05)
        except RuntimeError:
            return False
        return True
