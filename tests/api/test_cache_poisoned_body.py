"""One bad answer does not poison a page: a body that does not convert is not kept (nor
re-read from the cache after a 304), and the page shows what it can, the bad block marked."""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.api import APIConnectionError, AsyncGitBook, CacheMissError
from gitbook_tui.api.content import Unreadable, document_markdown, document_parts
from gitbook_tui.cache import ResponseCache, account_fingerprint, entry_key
from gitbook_tui.markdown import Document, Include, Notice, Paragraph, parse
from gitbook_tui.tui.browse.page_includes import load_includes

BASE = "http://gitbook.test/v1"
TOKEN = "tok-poison"
SPACE, REVISION, CONTENT = "s1", "r1", "rc1"
DOC_PATH = f"/spaces/{SPACE}/revisions/{REVISION}/reusable-contents/{CONTENT}/document"
PAGE = parse('Intro\n\n{% include ".gitbook/includes/hint.md" %}\n')


def paragraph(text: str, marks: Any = None) -> dict[str, Any]:
    leaf = {"object": "leaf", "text": text, "marks": [] if marks is None else marks}
    return {"object": "block", "type": "paragraph", "nodes": [{"object": "text", "leaves": [leaf]}]}


GOOD = {
    "object": "document",
    "nodes": [
        paragraph("Before"),
        paragraph("Middle", [{"type": "bold"}]),
        paragraph("After"),
    ],
}
BAD = copy.deepcopy(GOOD)
BAD["nodes"][1] = paragraph("Middle", 7)  # `marks` a number: the reported answer


class DocServer:
    """The revision (one reusable content) and its document, with an ETag that answers
    304 when it matches (what a server says when it still thinks the body is the same)."""

    def __init__(self, body: dict[str, Any], etag: str = '"v1"') -> None:
        self.body, self.etag = body, etag
        self.offline = False
        self.log: list[tuple[int, str | None]] = []  # the document's (status, If-None-Match)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if self.offline:
            raise httpx.ConnectError("refused", request=request)
        path = request.url.path.removeprefix("/v1")
        if path == f"/spaces/{SPACE}/content":
            git = {"path": ".gitbook/includes/hint.md"}
            revision = {"object": "revision", "id": REVISION}
            revision["reusableContents"] = [{"id": CONTENT, "title": "Hint", "git": git}]
            return httpx.Response(200, json=revision)
        assert path == DOC_PATH, path
        asked = request.headers.get("if-none-match")
        status = 304 if asked == self.etag else 200
        self.log.append((status, asked))
        if status == 304:
            return httpx.Response(304, headers={"ETag": self.etag})
        return httpx.Response(200, json=self.body, headers={"ETag": self.etag})


@pytest.fixture
async def cache(tmp_path: Path) -> AsyncIterator[ResponseCache]:
    store = ResponseCache(tmp_path / "responses.sqlite")
    yield store
    store.close()


async def no_sleep(seconds: float) -> None:
    return None


def client(server: DocServer, cache: ResponseCache) -> AsyncGitBook:
    transport = httpx.MockTransport(server)
    return AsyncGitBook(TOKEN, base_url=BASE, transport=transport, cache=cache, sleep=no_sleep)


def cache_key() -> str:
    return entry_key(account_fingerprint(BASE, TOKEN), "GET", DOC_PATH, "")


def included(document: Document) -> tuple[Any, ...]:
    [include] = [b for b in document.blocks if isinstance(b, Include)]
    assert include.state == "included"
    return include.blocks


def texts(blocks: tuple[Any, ...]) -> list[str]:
    out = []
    for block in blocks:
        if isinstance(block, Paragraph):
            out.append("".join(span.text for span in block.spans))
        else:
            assert isinstance(block, Notice)
            out.append(f"! {block.message}: {block.detail}")
    return out


def test_a_node_that_does_not_convert_becomes_one_unreadable_part() -> None:
    parts = document_parts(BAD)
    assert parts[0] == "Before" and parts[2] == "After"
    assert isinstance(parts[1], Unreadable) and parts[1].kind == "paragraph"
    assert parts[1].reason.startswith("TypeError")
    assert document_parts(GOOD) == ["Before", "**Middle**", "After"]
    assert "unreadable paragraph block" in document_markdown(BAD)
    odd = {"nodes": [paragraph("Fine"), 42, {"type": "heading-1", "nodes": "x"}]}
    assert [type(p).__name__ for p in document_parts(odd)] == ["str", "Unreadable", "str"]
    assert document_parts({"nodes": 5}) == [Unreadable("document", "'nodes' is int, not a list")]


async def test_the_page_shows_what_it_can_with_the_bad_block_marked(
    cache: ResponseCache,
) -> None:
    server = DocServer(BAD)
    async with client(server, cache) as gb:
        shown = await load_includes(gb, SPACE, PAGE)
    blocks = included(shown)
    assert texts(blocks)[0] == "Before" and texts(blocks)[2] == "After"
    assert isinstance(blocks[1], Notice) and blocks[1].message == "Unreadable paragraph block"
    assert "TypeError" in blocks[1].detail


async def test_a_body_that_does_not_convert_is_not_kept_and_is_read_again_in_full(
    cache: ResponseCache,
) -> None:
    server = DocServer(BAD)
    async with client(server, cache) as gb:
        await load_includes(gb, SPACE, PAGE)
        assert cache.get(cache_key()) is None  # not kept: the next open asks anew
        server.body = GOOD  # (fixed on the server; same ETag, as a garbling proxy leaves it)
        fixed = await load_includes(gb, SPACE, PAGE)
        again = await load_includes(gb, SPACE, PAGE)
    assert texts(included(fixed)) == ["Before", "Middle", "After"]
    assert texts(included(again)) == ["Before", "Middle", "After"]
    # the second open asked without If-None-Match (a 304 would confirm the bad body);
    # the third revalidated the good one it kept
    assert server.log[:2] == [(200, None), (200, None)]
    assert server.log[-1] == (304, '"v1"')


@pytest.mark.parametrize("mode", ["network", "prefer-cache"])
async def test_a_poisoned_entry_is_dropped_not_confirmed_by_a_304(
    cache: ResponseCache, mode: str
) -> None:
    """A bad body already in the cache (kept by an older version) with an ETag the server
    still answers 304 to: dropped and read again in full, not re-read on every open."""
    server = DocServer(GOOD)
    account = account_fingerprint(BASE, TOKEN)
    cache.put(cache_key(), account, DOC_PATH, httpx.Response(200, json=BAD).content, '"v1"')
    async with client(server, cache) as gb:
        body = await gb.content.reusable_content_document(
            SPACE,
            REVISION,
            CONTENT,
            read=mode,  # type: ignore[arg-type]
        )
    assert document_parts(body) == ["Before", "**Middle**", "After"]
    want = [(304, '"v1"'), (200, None)] if mode == "network" else [(200, None)]
    assert server.log == want
    kept = cache.get(cache_key())
    assert kept is not None and b'"marks":7' not in kept.body.replace(b" ", b"")


async def test_offline_the_cached_body_shows_what_it_can_and_cache_only_misses(
    cache: ResponseCache,
) -> None:
    server = DocServer(GOOD)
    account = account_fingerprint(BASE, TOKEN)
    cache.put(cache_key(), account, DOC_PATH, httpx.Response(200, json=BAD).content, '"v1"')
    server.offline = True
    async with client(server, cache) as gb:
        body = await gb.content.reusable_content_document(SPACE, REVISION, CONTENT)
        assert [type(p).__name__ for p in document_parts(body)] == ["str", "Unreadable", "str"]
        with pytest.raises(CacheMissError):
            await gb.content.reusable_content_document(SPACE, REVISION, CONTENT, read="cache-only")
        assert cache.get(cache_key()) is None
        with pytest.raises(APIConnectionError):  # nothing cached any more
            await gb.content.reusable_content_document(SPACE, REVISION, CONTENT)
