"""Hostile ids never escape their path segment: every client method, every string parameter."""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gitbook_tui.api import AsyncGitBook, GitBookError
from gitbook_tui.api.paths import segment, segments
from gitbook_tui.api.resource import Resource

BASE = "http://testserver/v1"
HOSTILE = ["..", ".", "", "a/b", "../x", "a\\b", "x?y", "x#y", "a\x00b", "\x1b]0;x\x07", "a\nb"]


async def _no_sleep(seconds: float) -> None:
    return None


class Recorder:
    """A MockTransport handler: records each request and answers 404."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(404, json={"error": {"code": 404, "message": "Not found"}})


def _client(recorder: Recorder) -> AsyncGitBook:
    return AsyncGitBook(
        "tok", base_url=BASE, transport=httpx.MockTransport(recorder), sleep=_no_sleep
    )


def _methods() -> Iterator[tuple[str, str, inspect.Signature]]:
    client = AsyncGitBook("tok", base_url=BASE)
    for namespace, resource in client.namespaces().items():
        if not isinstance(resource, Resource):
            continue
        for name, method in inspect.getmembers(resource, inspect.ismethod):
            if not name.startswith("_"):
                yield namespace, name, inspect.signature(method)


def _filler(annotation: str) -> Any:
    if "dict" in annotation:
        return {}
    if "list" in annotation or "Sequence" in annotation:
        return []
    return "x"


# Methods that need one of a group of optional arguments: (namespace, method) -> (group, value
# of its first member used when the tested parameter is not in the group).
ONE_OF: dict[tuple[str, str], tuple[tuple[str, ...], str]] = {
    ("permissions", "*"): (("space_id", "collection_id"), "perm-space"),
    ("openapi", "create"): (("text", "url"), "openapi: 3.1.0"),
    ("openapi", "update"): (("text", "url"), "openapi: 3.1.0"),
    ("sites", "move_section"): (("before", "after"), "sibling"),
    ("sites", "move_site_space"): (("before", "after"), "sibling"),
}
SIGNATURES = {(namespace, name): sig for namespace, name, sig in _methods()}


def _cases() -> Iterator[Any]:
    for (namespace, name), sig in SIGNATURES.items():
        params = [p for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD]
        for tested in params:
            if "str" not in str(tested.annotation):
                continue
            yield pytest.param(namespace, name, tested.name, id=f"{namespace}.{name}.{tested.name}")


async def _call(namespace: str, name: str, kwargs: dict[str, Any]) -> list[httpx.Request]:
    recorder = Recorder()
    async with _client(recorder) as client:
        result = getattr(getattr(client, namespace), name)(**kwargs)
        with contextlib.suppress(GitBookError):
            await result
    return recorder.requests


def _kwargs(namespace: str, name: str, tested: str, value: Any) -> dict[str, Any]:
    sig = SIGNATURES[namespace, name]
    kwargs: dict[str, Any] = {}
    for index, p in enumerate(sig.parameters.values()):
        if p.default is p.empty:
            ann = str(p.annotation)
            kwargs[p.name] = f"v{index}" if "str" in ann else _filler(ann)
    for (ns, method), (group, default) in ONE_OF.items():
        if ns == namespace and method in (name, "*") and tested not in group:
            kwargs[group[0]] = default
    kwargs[tested] = value
    return kwargs


@pytest.mark.parametrize(("namespace", "name", "tested"), list(_cases()))
async def test_hostile_values_never_leave_their_segment(
    namespace: str, name: str, tested: str
) -> None:
    """A value the method puts in the path raises a ValueError naming the parameter and
    sends nothing; a value it puts elsewhere (query, body) leaves the path unchanged."""
    benign = "benign-value-1"
    try:
        baseline = await _call(namespace, name, _kwargs(namespace, name, tested, benign))
    except ValueError as exc:  # a rule between arguments, not about the tested one
        assert tested not in str(exc).split()[0]
        pytest.skip(f"the benign call is refused: {exc}")
    assert baseline, "the benign call sends a request"
    in_path = benign in baseline[0].url.path.split("/")
    hostile = ["x/../.."] if tested == "path" else HOSTILE
    for value in hostile:
        kwargs = _kwargs(namespace, name, tested, value)
        if in_path:
            recorder = Recorder()
            async with _client(recorder) as client:
                with pytest.raises(ValueError, match=f"^{tested} must be a"):
                    await getattr(getattr(client, namespace), name)(**kwargs)
            assert recorder.requests == [], value
        else:
            try:
                sent = await _call(namespace, name, kwargs)
            except ValueError as exc:  # refused as a bad value elsewhere: nothing sent
                assert tested in str(exc)
                continue
            assert [r.url.raw_path.split(b"?")[0] for r in sent] == [
                r.url.raw_path.split(b"?")[0] for r in baseline
            ], value


async def test_the_reported_exploit_is_refused_before_sending() -> None:
    """``comments.delete(space, "..")`` used to send ``DELETE /v1/spaces/{space}``."""
    recorder = Recorder()
    async with _client(recorder) as client:
        with pytest.raises(
            ValueError, match=r"^comment_id must be a single path segment, got '\.\.'$"
        ):
            await client.comments.delete("space1", "..")
    assert recorder.requests == []


async def test_percent_escapes_are_sent_as_literal_ids() -> None:
    """``%2e%2e`` is an odd but harmless id: its ``%`` is encoded, the server sees it as is."""
    recorder = Recorder()
    async with _client(recorder) as client:
        with pytest.raises(GitBookError):
            await client.comments.get("space1", "%2e%2e")
    assert recorder.requests[0].url.raw_path == b"/v1/spaces/space1/comments/%252e%252e"


async def test_page_paths_keep_their_slashes_but_refuse_dot_segments() -> None:
    recorder = Recorder()
    async with _client(recorder) as client:
        with pytest.raises(GitBookError):
            await client.content.page_by_path("s1", "/guides/install me/")
        with pytest.raises(GitBookError):
            await client.content.page_by_path("s1", "")
        for bad in ("..", "guides/../..", "a/./b", "a\\b/c", "a?b"):
            with pytest.raises(ValueError, match=r"^path must be a path of plain segments"):
                await client.content.page_by_path("s1", bad)
    assert [r.url.raw_path for r in recorder.requests] == [
        b"/v1/spaces/s1/content/path/guides/install%20me",
        b"/v1/spaces/s1/content/path/",
    ]


async def test_paths_built_without_segment_are_checked_too() -> None:
    """The request engine refuses a dot or empty segment whatever built the path."""
    recorder = Recorder()
    async with _client(recorder) as client:
        for path in ("/spaces/s1/comments/..", "/spaces/./x", "/spaces//x", "/spaces/%2e%2e"):
            with pytest.raises(ValueError, match="unsafe request path"):
                await client.get(path, None)
            with pytest.raises(ValueError, match="unsafe request path"):
                await client.send("DELETE", path)
    assert recorder.requests == []


@pytest.mark.parametrize("value", ["abc", "Ünïcode id", "a b", "%2e%2e", 42, "...", "a.b"])
def test_plain_values_are_encoded_not_refused(value: str | int) -> None:
    assert "/" not in segment(value, "x_id")
    assert segments(f"{value}/{value}", "path").count("/") == 1


def test_the_message_names_the_parameter_and_shows_the_value_inert() -> None:
    with pytest.raises(ValueError) as info:
        segment("\x1b[31m..", "site_id")
    assert str(info.value) == "site_id must be a single path segment, got '\\x1b[31m..'"
