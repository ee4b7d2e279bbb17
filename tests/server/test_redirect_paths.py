"""Site redirect sources and destinations are normalised paths: dot segments are refused."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from support.asserts import assert_error
from support.worlds import World

EXTERNAL = {"kind": "external", "url": "https://example.com/new"}

DOTTED = [
    "/../../etc/passwd",
    "/docs/..",
    "/a/./b",
    "/a/%2e%2E/b",
    "/a/.%2e",
    "/a/%252e%252e/b",  # decoded twice by whatever decodes twice
    "/a/x%2F..%2Fy",  # an encoded slash hides a '..'
]
FINE = ["/a..b", "/v1.2/install", "/a/...", "/.well-known-ish/x"]


@pytest.fixture
def redirects(world: World, make_space: Callable[..., dict]) -> str:
    """The redirects URL of a site whose one site space holds a space."""
    c = world.client()
    site = c.post(f"/orgs/{world.org}/sites", json={"title": "Docs"}).json()
    base = f"/orgs/{world.org}/sites/{site['id']}"
    made = c.post(f"{base}/site-spaces", json={"spaceId": make_space()["id"]})
    assert made.status_code == 201, made.text
    return f"{base}/redirects"


@pytest.mark.parametrize("source", DOTTED)
def test_a_source_with_a_dot_segment_is_refused(world: World, redirects: str, source: str) -> None:
    r = world.client().post(redirects, json={"source": source, "destination": EXTERNAL})
    assert_error(r, 400, "source", "segment")
    assert world.client().get(redirects).json()["items"] == []


@pytest.mark.parametrize("source", FINE)
def test_dots_inside_a_segment_are_fine(world: World, redirects: str, source: str) -> None:
    r = world.client().post(redirects, json={"source": source, "destination": EXTERNAL})
    assert r.status_code == 201, r.text
    assert r.json()["source"] == source


def test_an_edit_cannot_bring_a_dot_segment_in(world: World, redirects: str) -> None:
    c = world.client()
    made = c.post(redirects, json={"source": "/old", "destination": EXTERNAL}).json()
    url = f"{redirects}/{made['id']}"
    assert_error(c.patch(url, json={"source": "/old/../admin"}), 400, "source", "segment")
    dotted = {"kind": "external", "url": "https://example.com/a/../../etc/passwd"}
    assert_error(c.patch(url, json={"destination": dotted}), 400, "destination.url", "segment")
    assert c.get(redirects).json()["items"][0]["source"] == "/old"


@pytest.mark.parametrize(
    ("destination", "field"),
    [
        ({"kind": "external", "url": "https://example.com/a/../b"}, "destination.url"),
        ({"kind": "external", "url": "https://example.com/%2e%2e/b"}, "destination.url"),
        ({"kind": "path", "spaceId": "any", "path": "guide/../../secret"}, "destination.path"),
        ({"kind": "path", "spaceId": "any", "path": "./install"}, "destination.path"),
    ],
)
def test_a_destination_with_a_dot_segment_is_refused(
    world: World, redirects: str, destination: dict[str, str], field: str
) -> None:
    r = world.client().post(redirects, json={"source": "/old", "destination": destination})
    assert_error(r, 400, field, "segment")
