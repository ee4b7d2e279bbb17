"""Running the local server: on a loopback socket in a background thread or in the foreground."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from .app import create_app
from .background import bind_preferred
from .core.clock import Clock
from .core.faults import Faults
from .demo.seed_base import SeedCancelled
from .owner_token import OwnerToken, owner_token


@dataclass
class ServerHandle:
    """A running server: its API base URL, the owner's token, and how to stop it."""

    url: str
    token: str
    server: uvicorn.Server
    thread: threading.Thread | None = None

    def stop(self, timeout: float = 10.0) -> None:
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout)

    def __repr__(self) -> str:  # the token never appears in reprs
        return f"ServerHandle(url={self.url!r})"


def prepare(
    db: str | Path,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    token: str | None = None,
    faults: Faults | str | None = None,
    demo: bool = False,
    import_dirs: list[Path] | None = None,
    clock: Clock | None = None,
    preferred_port: int | None = None,
    allow_import_roots: list[Path] | None = None,
    allow_fetch_hosts: list[str] | None = None,
    rotate_token: bool = False,
    sock: socket.socket | None = None,
) -> tuple[uvicorn.Server, socket.socket, str, OwnerToken]:
    """Open (or create and seed) the database and build a server bound to ``host:port``
    (``port`` 0: ``preferred_port`` when it is free, else any free port; ``sock``: a
    socket bound already)."""
    clock = clock or Clock()
    app = create_app(
        db,
        clock=clock,
        faults=faults,
        allow_import_roots=allow_import_roots or (),
        allow_fetch_hosts=allow_fetch_hosts or (),
    )
    storage = app.state.server.storage
    if demo:
        # The seeder talks to the API in-process: on an app of its own over the same
        # database, without the faults (those are for the running server's clients).
        seed_demo(db, clock)
    owner = owner_token(storage, clock, db, token=token, rotate=rotate_token)
    for folder in import_dirs or []:
        from .importers.gitsync import import_folder_as_new_space

        import_folder_as_new_space(app, Path(folder))
    if sock is None:
        sock = bind_preferred(host, port, preferred_port)
    bound_port = sock.getsockname()[1]
    shown_host = f"[{host}]" if ":" in host else host
    return _server(app), sock, f"http://{shown_host}:{bound_port}/v1", owner


def _server(app: Any) -> uvicorn.Server:
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    return uvicorn.Server(config)


def serve_on(
    sock: socket.socket,
    db: str | Path,
    *,
    demo: bool,
    report: Callable[[str], None],
    stopping: threading.Event,
) -> None:
    """The server of a :class:`~.background.BackgroundStart`, in a process of its own: serve
    on ``sock`` (bound already) until ``stopping`` is set; ``report("serving")`` once it
    answers. A new demo is seeded in two phases (:class:`.demo.phases.DemoSeeding`): what
    the app's first screen needs through the server's own app before it serves (its routes
    are then ready too), the rest on a connection of its own while it serves — requests for
    that rest wait for it (:class:`.demo.gate.SeedingGate`); ``report("seeded")`` then."""
    from .demo.batch import BatchStorage
    from .demo.phases import DemoSeeding

    clock = Clock()
    storage = BatchStorage(db)
    app = create_app(storage, clock=clock)
    gate = None
    if demo:
        first = DemoSeeding(storage, app=app, cancelled=stopping.is_set)
        first.seed_structure()
        if first.pending:
            from .demo.gate import SeedingGate

            gate = SeedingGate(app, first.space_ids_filled_later())
    owner_token(storage, clock, db)
    server = _server(gate or app)
    server.config.install_signal_handlers = False  # type: ignore[attr-defined]
    thread = threading.Thread(
        target=lambda: asyncio.run(server.serve(sockets=[sock])),
        name="gitbook-tui-server",
        daemon=True,
    )
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the server stopped while starting")
        if stopping.wait(0.01):
            break
    else:
        report("serving")
    try:
        if gate is None:
            report("seeded")  # nothing to seed
        else:
            gate.wait_for_a_lull(stopping)
            try:
                rest_storage = BatchStorage(db)  # a connection (and app) of its own
                rest_app = create_app(rest_storage, clock=Clock())
                with DemoSeeding(rest_storage, app=rest_app, cancelled=stopping.is_set) as rest:
                    rest.seed_extras()
                    gate.open()
                    report("seeded")
                    # left out of phase 2: nobody waits for it now (a search that comes
                    # first indexes its space itself, so a failure here costs nothing)
                    with contextlib.suppress(Exception):
                        rest.index_for_search()
            except SeedCancelled:
                pass
            except Exception as exc:  # the server goes on: the next start tries again
                report(f"warning the demo's extras were not seeded: {exc}")
            finally:
                gate.open()
        stopping.wait()
    finally:
        server.should_exit = True
        thread.join(5)


def seed_demo(db: str | Path, clock: Clock) -> None:
    """Seed the demo into the database ``db`` if it has none (or finish it), each phase in
    one transaction on a connection of its own."""
    from .demo.batch import BatchStorage
    from .demo.phases import DemoSeeding

    storage = BatchStorage(db)
    with DemoSeeding(storage, app=create_app(storage, clock=clock)) as seeding:
        seeding.seed_structure()
        seeding.seed_extras()
        seeding.index_for_search()


def start_in_thread(db: str | Path, **options: object) -> ServerHandle:
    """Start the server in a daemon thread and return once it accepts connections."""
    server, sock, url, owner = prepare(db, **options)  # type: ignore[arg-type]
    server.config.install_signal_handlers = False  # type: ignore[attr-defined]

    def run() -> None:
        asyncio.run(server.serve(sockets=[sock]))

    thread = threading.Thread(target=run, name="gitbook-tui-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the local server did not start")
        time.sleep(0.01)
    return ServerHandle(url=url, token=owner.token, server=server, thread=thread)


def network_warning(host: str) -> str | None:
    """A warning when ``host`` is not a loopback address (the server is then reachable from
    other machines, over plain HTTP)."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return None
    try:
        if ipaddress.ip_address(name).is_loopback:
            return None
    except ValueError:
        pass
    return (
        f"warning: --host {host} makes the server reachable from the network: anyone who can "
        "reach this machine can call the API (a token is still needed), and traffic is plain "
        "HTTP, so tokens and content cross the network unencrypted. Use 127.0.0.1 unless you "
        "mean to share it (behind a TLS proxy)."
    )


def serve_forever(db: str | Path, **options: object) -> None:
    """Run in the foreground, printing the one ``Serving …`` line: ``Serving URL token=T``
    when the owner's token is new, ``Serving URL (owner token in FILE)`` when reused."""
    server, sock, url, owner = prepare(db, **options)  # type: ignore[arg-type]
    warning = network_warning(str(options.get("host", "127.0.0.1")))
    if warning:
        print(f"gitbook-tui serve: {warning}", file=sys.stderr, flush=True)
    if owner.minted:  # the notes go first: the Serving line tells a caller it is up
        print(
            f"gitbook-tui serve: the owner's token is saved in {owner.file} (readable by you "
            "only); later runs reuse it, --rotate-token replaces it.",
            file=sys.stderr,
            flush=True,
        )
        print(f"Serving {url} token={owner.token}", flush=True)
    else:
        print(f"Serving {url} (owner token in {owner.file})", flush=True)
    asyncio.run(server.serve(sockets=[sock]))
