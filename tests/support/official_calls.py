"""Every client method performing an official operation, called against a mock transport."""

# Which official operation a call performs is found by calling it (its first request), not
# declared here: a method that picks its path by an argument (``change_request=``, a space or a
# collection) is called once per variant. Each request is answered with a body the test gives.

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import httpx

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.api.pagination import AsyncPager
from gitbook_tui.api.resource import OPERATIONS
from gitbook_tui.models import ChangeRequestContentChange
from support.official_spec import operation_for

BASE = "http://api.test/v1"
# Arguments by parameter name (anything else named ``*_id``, ``slug``... is a plain string).
ARGUMENTS: dict[str, Any] = {
    "change_request": "cr1",
    "changes": [ChangeRequestContentChange.delete("page1")],
    "request": {"componentId": "c", "props": {}, "context": {}},
    "props": {},
    "context": {},
    "json_schema": {"type": "object"},
    "emails": ["ada@example.com"],
    "users": ["user1"],
    "role": "read",
    "status": "approved",
    "destination": {"kind": "external", "url": "https://example.com/"},
    "query": "words",
    "source": "/old",
    "url": "https://example.com/",
    "tunnel_url": "https://example.com/tunnel",
    "organization": "org2",
    "title": "A title",
    "markdown": "Some *text*",
}
# Keyword arguments some methods need to send anything at all.
EXTRA: dict[str, dict[str, Any]] = {
    "OpenAPISpecs.create": {"url": "https://example.com/openapi.yaml"},
    "OpenAPISpecs.update": {"url": "https://example.com/openapi.yaml"},
    "SiteStructure.move_section": {"before": "section2"},
    "SiteStructure.move_site_space": {"before": "sitespace2"},
}
# Keyword arguments that send the same method to another operation.
VARIANTS = ({"change_request": "cr1"}, {"space_id": "space1"}, {"collection_id": "coll1"})


@dataclass(frozen=True)
class Call:
    """One client method called with fixed arguments; ``template`` and ``method`` name the
    official operation its first request performs."""

    qualname: str
    kwargs: dict[str, Any] = field(hash=False, compare=False)
    method: str = ""
    template: str = ""
    variant: str = ""  # the keyword argument that chose the operation, if any

    @property
    def id(self) -> str:
        return f"{self.qualname}({self.variant}=)" if self.variant else self.qualname

    def bound(self, client: AsyncGitBook) -> Callable[..., Any]:
        namespace, name = self.qualname.split(".")
        for value in client.namespaces().values():
            if namespace in {c.__name__ for c in type(value).__mro__}:
                return getattr(value, name)  # type: ignore[no-any-return]
        raise LookupError(self.qualname)


Answer = Callable[[str, str], tuple[int, Any]]  # (method, template) -> status and JSON body


def client_for(answer: Answer, seen: list[tuple[str, str | None]] | None = None) -> AsyncGitBook:
    """A client whose requests are answered by ``answer`` (by official operation); the
    requests go to ``seen`` as (method, official template or None)."""

    def handle(request: httpx.Request) -> httpx.Response:
        found = operation_for(request.method, request.url.path)
        if seen is not None:
            seen.append((request.method, found))
        if found is None:
            return httpx.Response(404, json={"error": {"code": 404, "message": "unknown"}})
        status, body = answer(request.method, found)
        return httpx.Response(status, content=json.dumps(body).encode(), headers=_JSON)

    return AsyncGitBook(
        "token", base_url=BASE, transport=httpx.MockTransport(handle), max_retries=0
    )


_JSON = {"content-type": "application/json"}


async def perform(call: Call, client: AsyncGitBook) -> Any:
    """Run ``call``: the first page of a list, the answer of anything else."""
    result = call.bound(client)(**call.kwargs)
    if isinstance(result, AsyncPager):
        return await result
    if inspect.isawaitable(result):
        return await result
    return result


def _arguments(function: Callable[..., Any]) -> dict[str, Any]:
    out = {}
    for name, parameter in inspect.signature(function).parameters.items():
        if parameter.default is inspect.Parameter.empty and name != "self":
            out[name] = ARGUMENTS.get(name, f"{name.removesuffix('_id')}1")
    return out


def _refuse(method: str, template: str) -> tuple[int, Any]:
    return 500, {"error": {"code": 500, "message": "probe"}}


@cache
def calls() -> tuple[Call, ...]:
    """Every (method, variant) whose first request is an official operation."""
    probe = client_for(_refuse)
    assert probe.namespaces()  # every namespace imported: the registry is full
    found: dict[tuple[str, str, str], Call] = {}
    for qualname in sorted({q for names in OPERATIONS.values() for q in names}):
        function = Call(qualname, {}).bound(probe)
        base = {**_arguments(function), **EXTRA.get(qualname, {})}
        parameters = inspect.signature(function).parameters
        for variant in [{}, *(v for v in VARIANTS if set(v) <= set(parameters))]:
            kwargs = {**base, **variant}
            seen: list[tuple[str, str | None]] = []
            call = Call(qualname, kwargs)
            with contextlib.suppress(Exception):  # the refusal: only the request matters
                asyncio.run(perform(call, client_for(_refuse, seen)))
            method, template = seen[0] if seen else ("", None)
            if template is not None:
                key = (qualname, method, template)
                found.setdefault(key, Call(qualname, kwargs, method, template, ",".join(variant)))
    return tuple(found.values())
