"""Helpers shared by the server tests: a loopback HTTP peer and the page-tree walk."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["local_http", "walk_pages"]


@contextmanager
def local_http(handler: Callable[..., BaseHTTPRequestHandler]) -> Iterator[str]:
    """An HTTP server for ``handler`` on a free loopback port, serving from a thread while
    the block runs; yields its base URL (``http://127.0.0.1:PORT``)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True  # a handler held on purpose never blocks the shutdown
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


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
