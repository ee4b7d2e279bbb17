"""Links with control or bidi characters are refused with a message: never opened, never
copied; what is shown, opened and copied is one string (issue #8, item 8)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from gitbook_tui.tui.browse.tree.workspace_tree import page_key
from gitbook_tui.tui.common.link_targets import (
    UnsafeURLError,
    classify_href,
    classify_link,
    copy_link,
    external_url,
    open_in_browser,
    url_problem,
)
from support.faults import FaultTransport, make_app, patch_json
from support.notes import notes_of
from support.opened_links import record_opened_links
from support.waits import until, until_screen
from support.worlds import World

HOSTILE = "https://example.com/a\x1b]0;PWNED\x07b"
HOSTILE_URLS = [
    HOSTILE,
    "https://example.com/\x07bell",
    "https://example.com/c1\x9bx",
    "https://example.com/\u202eexe.txt",
    "https://example.com/\u2066iso\u2069",
    "https://example.com/zero\u200bwidth",
    "https://exa\nmple.com/",
]


@pytest.mark.parametrize("url", HOSTILE_URLS)
def test_hostile_urls_are_refused_everywhere(url: str) -> None:
    assert url_problem(url) is not None
    target = classify_link(url, "", False)
    assert target.kind == "refused" and target.reason and target.url == ""
    assert external_url(url) is None
    assert classify_href(url) == (False, False)
    with pytest.raises(UnsafeURLError):
        open_in_browser(url)
    copied: list[str] = []

    class FakeApp:
        def copy_to_clipboard(self, text: str) -> None:
            copied.append(text)

    with pytest.raises(UnsafeURLError):
        copy_link(FakeApp(), url)  # type: ignore[arg-type]
    assert copied == []


def test_plain_urls_pass() -> None:
    assert url_problem("https://example.com/a b?q=é#x") is None
    assert external_url("https://example.com/ab") == "https://example.com/ab"


# -- the app ------------------------------------------------------------------------------------
@pytest.fixture
def space(world: World, make_space: Callable[..., dict]) -> dict[str, str]:
    s = make_space("Links")
    c = world.client("alice")
    cr = c.post(f"/spaces/{s['id']}/change-requests", json={"subject": "p"}).json()
    base = f"/spaces/{s['id']}/change-requests/{cr['id']}"
    changes = [
        {"operation": "insert_page", "title": "Home", "document": {"markdown": "# Home\n"}},
    ]
    assert c.post(f"{base}/content", json={"changes": changes}).status_code == 200
    assert c.post(f"{base}/merge").status_code == 200
    pages = c.get(f"/spaces/{s['id']}/content/pages").json()["pages"]
    return {"space": s["id"], "page": pages[0]["id"]}


def add_link_page(data: Any) -> Any:
    """An extra link page of the tree carries the hostile URL."""
    data["pages"].append(
        {"id": "evil-link", "kind": "link", "type": "link", "title": "Evil", "href": HOSTILE}
    )
    return data


def hostile_page_url(data: Any) -> Any:
    data["urls"] = {**(data.get("urls") or {}), "app": HOSTILE}
    return data


async def test_the_app_never_opens_or_copies_a_hostile_url(
    world: World, space: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = record_opened_links(monkeypatch)
    transport = FaultTransport(world.app)
    pages, page = (
        patch_json("/content/pages", add_link_page),
        patch_json("/content/page/", hostile_page_url),
    )
    transport.body = lambda request, body: pages(request, body) or page(request, body)
    app = make_app(transport, tmp_path)
    copied: list[str] = []
    app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
    notes = notes_of(app)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = await until_screen(pilot, BrowserScreen)
        await until(pilot, lambda: browser.workspace_tree.has_focus)
        browser.open_page(space["space"], space["page"])
        await until(pilot, lambda: browser.page is not None)
        # the page's own URL: o and y refuse it, with the reason
        await pilot.press("o")
        await pilot.press("y")
        await pilot.pause()
        refusals = [n for n in notes if n.startswith("Refused")]
        assert len(refusals) == 2 and all("control characters" in n for n in refusals), notes
        # the link page of the tree: enter and o refuse it
        tree = browser.workspace_tree
        await until(pilot, lambda: tree.node_data(page_key(space["space"], "evil-link")))
        tree.select_key(page_key(space["space"], "evil-link"))
        tree.focus()
        await pilot.press("enter")
        await pilot.press("o")
        await pilot.pause()
        assert len([n for n in notes if n.startswith("Refused")]) == 4, notes
        # a hostile href followed from a page
        browser.follow_link("https://example.com/\u202eexe.txt")
        await pilot.pause()
        assert "bidirectional" in notes[-1]
        assert browser.pending_url is None
        assert opened == [] and copied == []
        # nothing shown carries the controls
        assert not any("\x1b" in n or "\x07" in n or "\u202e" in n for n in notes)
