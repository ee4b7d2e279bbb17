"""PageLoader: the one page-reading path (fetch → sanitise → parse) and the freshness it reports."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.api import APIConnectionError, AsyncGitBook
from gitbook_tui.cache import ResponseCache
from gitbook_tui.markdown import expand_includes, include_paths
from gitbook_tui.markdown import model as m
from gitbook_tui.tui.browse.page_loader import PageLoader, parse_page
from gitbook_tui.tui.common.freshness import Freshness

BASE = "http://testserver/v1"


class Switch(httpx.AsyncBaseTransport):
    """The in-process server; ``offline`` refuses every request."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.offline = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.offline:
            raise httpx.ConnectError("network is down", request=request)
        return await self.inner.handle_async_request(request)


def client_for(transport: httpx.AsyncBaseTransport, cache: ResponseCache) -> AsyncGitBook:
    return AsyncGitBook("tok-alice", base_url=BASE, transport=transport, max_retries=0, cache=cache)


def space_with_page(world: Any, markdown: str) -> tuple[str, str]:
    a = world.client("alice")
    space = a.post(f"/orgs/{world.org}/spaces", json={"title": "Loader"}).json()
    cr = a.post(f"/spaces/{space['id']}/change-requests", json={"subject": "page"}).json()
    change = {"operation": "insert_page", "title": "Page", "document": {"markdown": markdown}}
    r = a.post(
        f"/spaces/{space['id']}/change-requests/{cr['id']}/content", json={"changes": [change]}
    )
    assert r.status_code == 200, r.text
    assert a.post(f"/spaces/{space['id']}/change-requests/{cr['id']}/merge").status_code == 200
    pages = a.get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    return space["id"], pages[0]["id"]


def test_parse_page_cleans_before_parsing() -> None:
    """An escape sequence inside link brackets would otherwise cut the link's text."""
    document = parse_page("[here\x1b[0m](https://x.y)")
    paragraph = document.blocks[0]
    assert isinstance(paragraph, m.Paragraph)
    assert [(s.text, s.href) for s in paragraph.spans] == [("here", "https://x.y")]


def test_a_parser_bug_becomes_a_message_in_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(markdown: str) -> m.Document:
        raise ValueError("parser bug \x1b]52;c;Zm9v\x07[@click=app.quit]")

    monkeypatch.setattr("gitbook_tui.markdown.parse", broken)  # (page_loader imports it when used)
    paragraph = parse_page("# anything").blocks[0]
    assert isinstance(paragraph, m.Paragraph)
    text = "".join(s.text for s in paragraph.spans)
    assert text.startswith("This page could not be displayed: parser bug")
    assert "[@click=app.quit]" in text and "\x1b" not in text and "\x07" not in text


async def test_load_then_refresh_reports_freshness(world: Any, tmp_path: Path) -> None:
    space_id, page_id = space_with_page(world, "# Title\n\nSee [here\x1b[0m](https://x.y).\n")
    transport = Switch(world.app)
    cache = ResponseCache(tmp_path / "responses.sqlite")
    async with client_for(transport, cache) as client:
        loader = PageLoader(client)
        first = await loader.load(space_id, page_id)
        assert first.freshness == Freshness.online()
        assert await loader.refreshed(first) is None  # from the network: nothing to wait for
        spans = next(b for b in first.document.blocks if isinstance(b, m.Paragraph)).spans
        assert ("here", "https://x.y") in [(s.text, s.href) for s in spans]

        again = await loader.load(space_id, page_id)
        assert again.freshness is not None and again.freshness.state == "cached"
        confirmed = await loader.refreshed(again)
        assert confirmed is not None and confirmed.freshness == Freshness.online()
        assert confirmed.page is again.page  # unchanged: nothing to re-show

        transport.offline = True
        cached = await loader.load(space_id, page_id)
        assert cached.freshness is not None and cached.freshness.state == "cached"
        refreshed = await loader.refreshed(cached)
        assert refreshed is not None and refreshed.freshness is not None
        assert refreshed.freshness.state == "offline" and refreshed.page is cached.page

        only = await loader.load(space_id, page_id, read="cache-only")
        assert only.page.id == page_id and only.document.blocks
    cache.close()


async def test_unreachable_with_nothing_cached_raises(world: Any, tmp_path: Path) -> None:
    space_id, page_id = space_with_page(world, "# Title\n")
    transport = Switch(world.app)
    transport.offline = True
    cache = ResponseCache(tmp_path / "responses.sqlite")
    async with client_for(transport, cache) as client:
        with pytest.raises(APIConnectionError):
            await PageLoader(client).load(space_id, page_id)
    cache.close()


async def test_a_large_page_loads_in_parts_with_includes_in_each(
    world: Any, tmp_path: Path
) -> None:
    """The first part comes first; the rest follows in parts, each extending the last,
    includes filled in the blocks each part adds; the end equals a whole parse."""
    section = (
        '## Part {k}\n\n{{% include ".gitbook/includes/missing-{k}.md" %}}\n\n'
        + ("Some prose that makes the page long enough to be parsed in parts. " * 20 + "\n\n") * 3
    )
    markdown = "".join(section.format(k=k) for k in range(60))
    space_id, page_id = space_with_page(world, markdown)
    cache = ResponseCache(tmp_path / "responses.sqlite")
    async with client_for(Switch(world.app), cache) as client:
        loaded = await PageLoader(client).load(space_id, page_id)
        assert loaded.rest is not None and 0 < loaded.share < 1
        documents = [loaded.document]
        async for document, _share in loaded.rest:
            documents.append(document)
    cache.close()
    assert len(documents) >= 3
    for before, after in itertools.pairwise(documents):
        assert all(a is b for a, b in zip(before.blocks, after.blocks, strict=False))
    final = documents[-1]
    keys = include_paths(parse_page(markdown))
    assert len(keys) == 60
    assert final == expand_includes(parse_page(markdown), dict.fromkeys(keys))
    includes = [b for b in final.blocks if isinstance(b, m.Include)]
    assert len(includes) == 60 and {b.state for b in includes} == {"missing"}
