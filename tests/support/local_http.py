"""Helpers shared by the server tests: a loopback HTTP peer and the page-tree walk."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["local_http", "local_server", "walk_pages"]

SHUTDOWN_POLL = 0.005
"""Seconds between a serving loop's looks for a shutdown."""


@contextmanager
def local_server(handler: Callable[..., BaseHTTPRequestHandler]) -> Iterator[ThreadingHTTPServer]:
    """An HTTP server for ``handler`` on a free loopback port, serving from a thread while
    the block runs; closed after."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True  # a handler held on purpose never blocks the shutdown
    # the serving loop looks for a shutdown every interval: at its default (0.5 s) each
    # test's shutdown waited up to that long
    thread = threading.Thread(target=server.serve_forever, args=(SHUTDOWN_POLL,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def local_http(handler: Callable[..., BaseHTTPRequestHandler]) -> Iterator[str]:
    """:func:`local_server`'s base URL (``http://127.0.0.1:PORT``)."""
    with local_server(handler) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}"


def walk_pages(pages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every page of a page tree (API or import form), parents before their children."""
    out: list[dict[str, Any]] = []
    for page in pages:
        out.append(page)
        out.extend(walk_pages(page.get("pages", [])))
    return out


def list_all(client: Any, path: str, **params: object) -> list[dict[str, Any]]:
    """Every item of a paginated listing (pages of 1,000, following ``next.page``)."""
    items: list[dict[str, Any]] = []
    page = None
    while True:
        body = client.get(
            path, params={**params, "limit": 1000, **({"page": page} if page else {})}
        ).json()
        items += body["items"]
        page = (body.get("next") or {}).get("page")
        if not page:
            return items
