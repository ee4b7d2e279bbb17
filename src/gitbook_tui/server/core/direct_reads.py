"""ASGI middleware answering the few GET routes read by the hundred with their own endpoint,
past FastAPI's per-request routing and dependency solving (same caller check, same answer)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import compile_path

from .context import Ctx, caller_context
from .errors import ApiError, error_response
from .middleware import ASGIApp, Receive, Scope, Send

QueryArgs = Callable[[list[tuple[str, str]]], Awaitable[dict[str, Any] | None]]
"""An endpoint's arguments besides its context and path parameters, from the request's
query items; ``None`` when the query is not in the plain form it reads (FastAPI's own
validation answers such a request)."""

Endpoint = Callable[..., Awaitable[Response]]


@dataclass(frozen=True)
class RoutePath:
    """A route as FastAPI matches it: its full path and methods (in the order routes are
    tried), and its endpoint."""

    path: str
    methods: frozenset[str]
    endpoint: Callable[..., Any]


@dataclass(frozen=True)
class _Direct:
    regex: re.Pattern[str]
    convertors: Mapping[str, Any]
    before: tuple[re.Pattern[str], ...]
    """Paths of the GET routes tried before this one: a request one of them matches is
    theirs (FastAPI takes the first route that matches in full)."""
    endpoint: Endpoint
    query_args: QueryArgs


class DirectReads:
    """A GET to one of ``direct``'s endpoints is answered by calling that endpoint (an
    ``async def`` returning a :class:`Response`, whose parameters are the request context
    ``ctx``, its path parameters and what its query function gives), with the caller read
    as FastAPI's dependency reads it (:func:`caller_context`) and an :class:`ApiError`
    answered as the app's handler answers it. FastAPI's routing and dependency solving cost
    more CPU than such a read (~0.3 ms a request; a cold blame makes ~300). Every other
    request, and one whose query is not in the plain form (a value to validate), goes on to
    the app."""

    def __init__(
        self,
        app: ASGIApp,
        routes: Sequence[RoutePath],
        direct: Mapping[Callable[..., Any], QueryArgs],
    ) -> None:
        self.app = app
        self._direct: list[_Direct] = []
        seen: list[re.Pattern[str]] = []
        for route in routes:
            regex, _format, convertors = compile_path(route.path)
            if route.endpoint in direct and "GET" in route.methods:
                endpoint = route.endpoint
                query_args = direct[endpoint]
                _check_signature(endpoint, set(convertors))
                self._direct.append(_Direct(regex, convertors, tuple(seen), endpoint, query_args))
            if "GET" in route.methods:
                seen.append(regex)
        missing = set(direct) - {d.endpoint for d in self._direct}
        if missing:
            raise ValueError(f"no GET route for {sorted(f.__name__ for f in missing)}")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET" and not scope.get("root_path"):
            path = scope["path"]
            for direct in self._direct:
                match = direct.regex.match(path)
                if match is None:
                    continue
                if any(before.match(path) for before in direct.before):
                    break
                response = await self._answer(direct, match, scope)
                if response is not None:
                    await response(scope, receive, send)
                    return
                break
        await self.app(scope, receive, send)

    async def _answer(self, direct: _Direct, match: re.Match[str], scope: Scope) -> Response | None:
        query = scope.get("query_string", b"").decode("latin-1")
        args = await direct.query_args(parse_qsl(query, keep_blank_values=True))
        if args is None:
            return None
        for name, value in match.groupdict().items():
            args[name] = direct.convertors[name].convert(value)
        try:
            ctx: Ctx = await caller_context(Request(scope))
            return await direct.endpoint(ctx=ctx, **args)
        except ApiError as error:
            return error_response(error.status, error.message, error.headers)


def _check_signature(endpoint: Callable[..., Any], path_params: set[str]) -> None:
    """An endpoint answered directly is a coroutine function of ``ctx``, its path
    parameters and what its query function gives (checked when called)."""
    if not inspect.iscoroutinefunction(endpoint):
        raise TypeError(f"{endpoint.__name__} is not an async def")
    names = set(inspect.signature(endpoint).parameters)
    if "ctx" not in names or not path_params <= names:
        raise TypeError(f"{endpoint.__name__} does not take ctx and {sorted(path_params)}")
