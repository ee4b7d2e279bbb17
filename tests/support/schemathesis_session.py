"""A schemathesis session that calls an ASGI app on the caller's own event loop."""

from __future__ import annotations

from typing import Any

from schemathesis.python.asgi import ASGIClient, get_client

from support.asgi_client import InLoopAdapter


def schemathesis_session(app: Any) -> ASGIClient:
    """What ``case.call(session=…)`` takes to reach ``app`` in process: schemathesis's own
    ASGI client (so requests are built, sent and read as without it), its transport swapped
    for :class:`InLoopAdapter` (its own crosses to a loop thread for every ASGI message, most
    of a fuzz test's time). The environment is not read for proxies or certificates, which
    an in-process call never uses. Close it after."""
    client = get_client(app)
    adapter = InLoopAdapter(app)
    client.mount("http://", adapter)
    client.mount("https://", adapter)
    client.trust_env = False
    return client
