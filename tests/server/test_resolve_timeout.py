"""A silent resolver never holds a fetch: host names resolve within a bounded time."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from gitbook_tui.server.core import url_guard
from gitbook_tui.server.core.fetch import FetchError, fetch_url, post_json
from support.asserts import assert_error
from support.worlds import World


@pytest.fixture
def silent_dns(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A resolver that never answers for *.silent.example (until the test ends); 0.3 s allowed."""
    asked: list[str] = []
    release = threading.Event()
    real = url_guard.resolve

    def resolve(host: str, port: int) -> list[Any]:
        if host.endswith(".silent.example"):
            asked.append(host)
            release.wait(30)
            raise OSError("no answer")
        return real(host, port)

    monkeypatch.setattr(url_guard, "resolve", resolve)
    monkeypatch.setattr(url_guard, "RESOLVE_SECONDS", 0.3)
    yield asked
    release.set()  # the lookups left in the background end


def test_a_fetch_gives_up_on_a_silent_resolver_and_names_the_host(silent_dns: list[str]) -> None:
    started = time.monotonic()
    with pytest.raises(FetchError) as caught:
        fetch_url("https://docs.silent.example/guide.md", timeout=20, max_bytes=1000)
    assert time.monotonic() - started < 5  # not the fetch's 20 s, nor the system's minutes
    assert caught.value.code == "FETCH_TIMEOUT" and caught.value.status == 504
    assert "docs.silent.example did not resolve within 0.3 s" in caught.value.message
    assert silent_dns == ["docs.silent.example"]


def test_a_dev_tunnel_call_to_a_silent_host_times_out_too(silent_dns: list[str]) -> None:
    with pytest.raises(FetchError) as caught:
        post_json("https://tunnel.silent.example/hook", {"event": "x"}, timeout=20)
    assert caught.value.code == "FETCH_TIMEOUT" and caught.value.status == 504
    assert "tunnel.silent.example did not resolve" in caught.value.message


def test_an_import_from_a_silent_host_is_answered_with_504(
    world: World, silent_dns: list[str]
) -> None:
    r = world.client("alice").post(f"/orgs/{world.org}/spaces", json={"title": "Notes"})
    space = r.json()["id"]
    started = time.monotonic()
    r = world.client("eve").post(
        f"/spaces/{space}/content/import",
        json={"url": "https://wiki.silent.example/page.md", "source": "markdown"},
    )
    assert time.monotonic() - started < 5
    assert_error(r, 504, "url: the host wiki.silent.example did not resolve within 0.3 s")


def test_many_silent_lookups_do_not_block_each_other_for_long(silent_dns: list[str]) -> None:
    """More lookups than resolver threads: each caller still gets its answer in time."""
    errors: list[str] = []

    def one(i: int) -> None:
        try:
            url_guard.pin(f"https://h{i}.silent.example/", url_guard.FetchPolicy())
        except url_guard.ResolveTimeout as exc:
            errors.append(exc.message)

    started = time.monotonic()
    threads = [threading.Thread(target=one, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(errors) == 12 and time.monotonic() - started < 5
