"""Slugs the server makes from titles carry no remnants of terminal escape sequences."""

from __future__ import annotations

from typing import Any

import pytest

from gitbook_tui.server.content.documents import markdown_to_document
from gitbook_tui.server.core.slugs import slugify, unique_slug
from support.worlds import World


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Getting started", "getting-started"),
        ("\x1b[31mRed\x1b[0m", "red"),  # CSI colour codes
        ("\x1b[1;38;5;208mBold orange\x1b[m notes", "bold-orange-notes"),
        ("\x9b31mC1 CSI\x9b0m", "c1-csi"),  # the one-byte CSI introducer
        ("\x1b]8;;https://evil.example/x\x1b\\Link\x1b]8;;\x1b\\", "link"),  # OSC 8, ST
        ("\x1b]0;window title\x07Setup", "setup"),  # OSC ended by BEL
        ("\x1bPq#0;2;0;0;0\x1b\\Sixel", "sixel"),  # DCS string
        ("Tab\tand\x00NUL\x7f", "tab-andnul"),  # stray controls are dropped
        ("Café \u202eevil\u202c", "cafe-evil"),  # bidi overrides too
        ("\x1b[31m\x1b[0m", "page"),  # nothing left: the fallback
    ],
)
def test_slugify_strips_escape_sequences(title: str, slug: str) -> None:
    assert slugify(title) == slug


def test_slugify_fallback_and_unique_slug() -> None:
    assert slugify("\x1b[2J", "section") == "section"
    taken = {"red"}
    assert unique_slug(slugify("\x1b[31mRed\x1b[0m"), taken) == "red-2"
    assert taken == {"red", "red-2"}


def test_heading_ids_have_no_escape_remnants() -> None:
    document = markdown_to_document("# \x1b[1mInstall\x1b[0m now\n\nText\n")
    assert document["nodes"][0]["data"]["id"] == "install-now"


def test_pages_created_through_the_api_get_clean_slugs(world: World, make_space: Any) -> None:
    space = make_space()
    base = f"/spaces/{space['id']}/change-requests"
    cr = world.client("eve").post(base, json={"subject": "Edits"}).json()
    changes = [
        {"operation": "insert_page", "title": title, "document": {"markdown": "Body"}}
        for title in ("\x1b[31mRed\x1b[0m alert", "\x1b]8;;https://x.example\x07Docs\x1b]8;;\x07")
    ]
    r = world.client("eve").post(f"{base}/{cr['id']}/content", json={"changes": changes})
    assert r.status_code == 200, r.text
    pages = world.client("eve").get(f"{base}/{cr['id']}/content/pages").json()["pages"]
    assert [(p["slug"], p["path"]) for p in pages] == [("red-alert", "red-alert"), ("docs", "docs")]
