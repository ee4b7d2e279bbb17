"""The app's redirect lint flags dot segments (a database from before the server's check may
hold one), and its forms refuse them as the server does."""

from __future__ import annotations

from typing import Any

import pytest

from gitbook_tui.tui.sites.redirect_rules import (
    Destination,
    RedirectEntry,
    SiteMap,
    lint,
    source_error,
    url_error,
)
from gitbook_tui.tui.sites.site_data import load_site_data
from support.worlds import Clients, World

BASE = "https://acme.gitbook.io/docs"
AWAY = Destination("external", url="https://example.com/new")


def unsafe(redirects: list[RedirectEntry]) -> list[str]:
    return [f.redirect.id for f in lint(redirects, SiteMap(base_url=BASE)) if f.kind == "unsafe"]


def test_lint_flags_dot_segments_in_sources_and_destination_urls() -> None:
    redirects = [
        RedirectEntry("etc", "/../../etc/passwd", AWAY),
        RedirectEntry("encoded", "/a/%2E%2e/b", AWAY),
        RedirectEntry("url", "/old", Destination("external", url="https://x.test/a/../b")),
        RedirectEntry("fine", "/v1..2/a.b", AWAY),
    ]
    assert unsafe(redirects) == ["etc", "encoded", "url"]
    first = lint(redirects, SiteMap(base_url=BASE))[0]
    assert first.kind == "unsafe" and first.fix == "edit" and "'..'" in first.message


@pytest.mark.parametrize("source", ["/../x", "/a/./b", "/a/%2e%2e", "/a/x%2F..%2Fy"])
def test_the_form_refuses_a_dotted_source(source: str) -> None:
    assert "segment" in (source_error(source, []) or "")


def test_the_form_refuses_a_dotted_destination_url() -> None:
    assert "segment" in (url_error("https://example.com/a/../b") or "")
    assert url_error("https://example.com/a..b") is None


async def test_a_stored_dotted_redirect_is_flagged(world: World, connect: Clients) -> None:
    """Stored as a server from before the check stored it (it now refuses to)."""
    c = world.client()
    site: dict[str, Any] = c.post(f"/orgs/{world.org}/sites", json={"title": "Docs"}).json()
    made = c.post(
        f"/orgs/{world.org}/sites/{site['id']}/redirects",
        json={"source": "/old", "destination": AWAY.to_api()},
    ).json()
    with world.storage.transaction() as tx:
        stored = tx.get("site-redirect", made["id"])
        tx.put("site-redirect", made["id"], {**stored, "source": "/../../etc/passwd"})
    data = await load_site_data(connect("alice"), world.org, site["id"])
    assert unsafe(data.redirects) == [made["id"]]
