"""The fault matrix: latency, error rate, rate limit, server gone and back, malformed /
truncated / HTML-instead-of-JSON bodies, unknown enum values and fields. Each case opens
a page under the fault, then the server heals and changes the page: the app must still
run and, after ``r`` (the page's error) or ``R`` (reload), show the current data."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.faults import (
    FaultTransport,
    make_app,
    patch_json,
    seed_space,
    start_browser,
    visible_labels,
)
from support.waits import until
from support.worlds import World

PAGE = "/content/page/"


def _on_pages(change: Callable[[bytes], bytes]) -> Callable[[httpx.Request, bytes], bytes | None]:
    def fault(request: httpx.Request, body: bytes) -> bytes | None:
        return change(body) if PAGE in request.url.path else None

    return fault


def _unknown_values(data: Any) -> Any:
    data.update(type="hologram", kind="quantum", brandNewField={"nested": [1, 2]})
    if isinstance(data.get("urls"), dict):
        data["urls"]["somethingNew"] = "https://example.com/new"
    return data


FAULTS: dict[str, Callable[[FaultTransport], None]] = {
    "latency": lambda t: setattr(t, "latency", 0.3),
    "error-rate": lambda t: setattr(t, "error_rate", 0.5),
    "rate-limit": lambda t: setattr(t, "rate_limited", True),
    "server-gone": lambda t: setattr(t, "down", True),
    "malformed-json": lambda t: setattr(t, "body", _on_pages(lambda b: b"{not json")),
    "truncated-json": lambda t: setattr(t, "body", _on_pages(lambda b: b[: len(b) // 2])),
    "html-not-json": lambda t: setattr(
        t, "body", _on_pages(lambda b: b"<html><body><h1>502 Bad Gateway</h1></body></html>")
    ),
    "unknown-enums-and-fields": lambda t: setattr(t, "body", patch_json(PAGE, _unknown_values)),
}


FAILING = {"rate-limit", "server-gone", "malformed-json", "truncated-json", "html-not-json"}
"""The faults under which the page cannot open (the client does not retry in these tests)."""


def _update_guide(world: World, space_id: str, page_id: str, text: str) -> None:
    c = world.client("alice")
    cr = c.post(f"/spaces/{space_id}/change-requests", json={"subject": "edit"}).json()
    base = f"/spaces/{space_id}/change-requests/{cr['id']}"
    change = {
        "operation": "update_page",
        "page": page_id,
        "document": {"markdown": f"# Guide\n\n{text}\n"},
    }
    assert c.post(f"{base}/content", json={"changes": [change]}).status_code == 200
    assert c.post(f"{base}/merge").status_code == 200


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_the_app_recovers_and_shows_current_data(
    world: World, tmp_path: Path, fault: str
) -> None:
    manual = seed_space(world)
    transport = FaultTransport(world.app, seed=8)
    app = make_app(transport, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = await start_browser(app, pilot)
        tree = browser.workspace_tree
        await until(pilot, lambda: "□ Manual" in visible_labels(tree))
        browser.open_page(manual["space"], manual["Home"])
        await until(pilot, lambda: browser.header.title_text == "Home")

        # under the fault: open another page, reload the tree
        FAULTS[fault](transport)
        browser.open_page(manual["space"], manual["Guide"])
        await until(
            pilot,
            lambda: browser.page_error or browser.header.title_text == "Guide",
            timeout=15,
        )
        if fault in FAILING:
            assert browser.page_error and browser.header.title_text != "Guide"
        elif fault != "error-rate":  # (half the answers fail: either may happen)
            await until(pilot, lambda: browser.header.title_text == "Guide", timeout=15)
        tree.focus()
        await pilot.press("r")
        await pilot.pause()
        assert app.is_running

        # the server heals, and the page changes meanwhile
        transport.heal()
        _update_guide(world, manual["space"], manual["Guide"], "Version 2 of the guide.")
        browser.viewer.focus()
        await pilot.press("r" if browser.page_error else "R")
        await until(pilot, lambda: browser.header.title_text == "Guide", timeout=15)
        await until(
            pilot,
            lambda: any(
                "Version 2 of the guide." in line for line in browser.viewer.visible_text()
            ),
            timeout=15,
        )
        assert not browser.page_error
        await until(pilot, lambda: browser.status.connection_text == "online")
        await until(pilot, lambda: "□ Manual" in visible_labels(tree))
        assert app.is_running
    assert app.return_code in (None, 0)
