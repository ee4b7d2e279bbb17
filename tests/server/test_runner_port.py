"""The demo's preferred port: taken when free (a stable URL keeps its cache and remembered
tree), any free port when another server holds it."""

from __future__ import annotations

import socket
from pathlib import Path

from gitbook_tui.server.runner import bind_socket, prepare


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_preferred_port_when_free_else_any(tmp_path: Path) -> None:
    port = _free_port()
    _, first, url, _ = prepare(tmp_path / "a.sqlite", preferred_port=port)
    try:
        assert first.getsockname()[1] == port
        assert url == f"http://127.0.0.1:{port}/v1"
        _, second, other, _ = prepare(tmp_path / "b.sqlite", preferred_port=port)
        try:
            assert second.getsockname()[1] != port
            assert other != url
        finally:
            second.close()
    finally:
        first.close()


def test_an_explicit_port_wins(tmp_path: Path) -> None:
    wanted, preferred = _free_port(), _free_port()
    _, sock, url, _ = prepare(tmp_path / "c.sqlite", port=wanted, preferred_port=preferred)
    try:
        assert sock.getsockname()[1] == wanted
        assert url == f"http://127.0.0.1:{wanted}/v1"
    finally:
        sock.close()


def test_accepted_connections_send_without_delay() -> None:
    """Small answers go out at once: asyncio sets TCP_NODELAY only on TCP-proto sockets."""
    listener = bind_socket("127.0.0.1", 0)
    try:
        assert listener.proto == socket.IPPROTO_TCP
        client = socket.create_connection(listener.getsockname())
        accepted, _ = listener.accept()
        with client, accepted:
            assert accepted.proto == socket.IPPROTO_TCP
    finally:
        listener.close()
