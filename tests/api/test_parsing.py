"""Bodies are validated straight from bytes; the collector pause around large bodies is undone."""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Iterator

import pytest

from gitbook_tui.api import ResponseValidationError
from gitbook_tui.api.parsing import parse_body
from gitbook_tui.models import Page, Space

SPACE = {"object": "space", "id": "s1", "title": "Guide", "visibility": "private"}


def big_page(n: int = 600) -> bytes:
    items = [
        {**SPACE, "id": f"s{i}", "visibility": "brand-new" if i % 2 else "public"} for i in range(n)
    ]
    return json.dumps({"items": items, "next": {"page": "p2"}}).encode()


def test_large_bodies_parse_to_models_and_leave_the_collector_as_it_was() -> None:
    body = big_page()
    assert len(body) > 32 * 1024
    assert gc.isenabled()
    page = parse_body(Page[Space], body, "listSpaces")
    assert gc.isenabled()
    assert len(page.items) == 600 and page.next_page == "p2"
    assert page.items[0].visibility == "public" and page.items[1].visibility == "brand-new"
    gc.disable()
    try:
        parse_body(Page[Space], body, "listSpaces")
        assert not gc.isenabled()  # not switched on behind the caller's back
    finally:
        gc.enable()


def test_a_failed_parse_restores_the_collector() -> None:
    body = big_page()[:-10]
    with pytest.raises(ResponseValidationError, match="is not JSON"):
        parse_body(Page[Space], body, "listSpaces")
    assert gc.isenabled()
    bad = big_page().replace(b'"title": "Guide"', b'"title": 5', 1)
    with pytest.raises(ResponseValidationError, match=r"items\.0\.title"):
        parse_body(Page[Space], bad, "listSpaces")
    assert gc.isenabled()


def test_overlapping_parses_in_threads_restore_the_collector_once() -> None:
    body = big_page(2000)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(5):
                parse_body(Page[Space], body, "listSpaces")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and gc.isenabled()


@pytest.mark.parametrize(
    ("cast_to", "body", "expected"),
    [
        (None, b'{"a": 1}', {"a": 1}),
        (None, b"", None),
        (dict, b'{"a": 1}', {"a": 1}),
        (list[int], b"[1, 2]", [1, 2]),
    ],
)
def test_plain_types_and_raw_json(cast_to: object, body: bytes, expected: object) -> None:
    assert parse_body(cast_to, body, "op") == expected


def test_not_json_says_so_once() -> None:
    with pytest.raises(ResponseValidationError) as info:
        parse_body(Space, b"<html>502</html>", "getSpace")
    assert info.value.field == "(body)"
    assert info.value.detail.startswith("is not JSON: ") and "Invalid JSON" not in info.value.detail


@pytest.fixture
def thawed() -> Iterator[None]:
    """Nothing frozen during the test (the suite freezes what it loaded: tests/conftest.py),
    as in the app until it freezes something itself; frozen again after."""
    gc.unfreeze()
    yield
    gc.collect()
    gc.freeze()


@pytest.mark.slow
def test_a_large_page_goes_to_the_oldest_generation_unwalked(thawed: None) -> None:
    """The models of a large body skip the young collections (they would live on anyway);
    nothing stays frozen, and objects the application froze itself stay frozen."""
    body = big_page()
    gc.collect()
    page = parse_body(Page[Space], body, "listSpaces")
    oldest = {id(obj) for obj in gc.get_objects(generation=2)}
    assert id(page.items[0]) in oldest and id(page.items[-1]) in oldest
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    kept = [[n] for n in range(100)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        parse_body(Page[Space], body, "listSpaces")
        assert gc.get_freeze_count() == frozen  # the application's freeze left alone
    finally:
        gc.unfreeze()
    assert kept
