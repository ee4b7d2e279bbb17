"""``Page[X]`` is made once per item type: its validator is built once per process."""

from __future__ import annotations

import gc
import weakref

from gitbook_tui.models import ApiModel, Page


class Probe(ApiModel):
    """An item type no other test pages (nothing else holds its ``Page``)."""

    name: str


def _read_a_page() -> weakref.ref[type[Page[Probe]]]:
    """Read an answer as the client's pager does (the page type held only meanwhile)."""
    page_type = Page[Probe]
    page = page_type.model_validate_json('{"items": [{"name": "a"}], "next": {"page": "2"}}')
    assert [item.name for item in page.items] == ["a"]
    assert page.next_page == "2"
    return weakref.ref(page_type)


def test_a_page_type_outlives_a_collection_with_its_validator() -> None:
    """pydantic keeps its parametrized models only weakly: after a collection the next
    listing made the class again and built its validator again (10-20 ms a listing)."""
    made = _read_a_page()
    gc.collect()
    assert made() is not None
    assert Page[Probe] is made()
    validator = Page[Probe].__pydantic_validator__
    _read_a_page()
    assert Page[Probe].__pydantic_validator__ is validator
