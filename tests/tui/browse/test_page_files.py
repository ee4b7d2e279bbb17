"""Files and images of a page: placeholders with the space's file details, and their
download URLs opened (``o``) or copied (``y``) only on a key; ``o`` with nothing chosen
opens the page itself."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.browse.browser_screen import BrowserScreen
from support import faults
from support.opened_links import record_opened_links
from support.waits import until
from support.worlds import World

# The operator lets this server's imports read the tests' folders and loopback peers.
pytestmark = pytest.mark.local_fetches

FIXTURE = Path(__file__).parents[2] / "server" / "fixtures" / "gitsync-basic"


@pytest.fixture
def imported(world: World, make_space: Callable[..., dict]) -> dict[str, str]:
    """A space imported from the Git Sync fixture (pages refer to .gitbook/assets files)."""
    space = make_space("Orbit")
    c = world.client("alice")
    r = c.post(
        f"/spaces/{space['id']}/content/import", json={"url": FIXTURE.as_uri(), "source": "github"}
    )
    assert r.status_code == 201, r.text
    install = c.get(f"/spaces/{space['id']}/content/path/getting-started/install").json()
    files = {f["name"]: f for f in c.get(f"/spaces/{space['id']}/content/files").json()["items"]}
    return {
        "space": space["id"],
        "install": install["id"],
        "logo": files["logo.gif"]["downloadURL"],
        "chart": files["chart.svg"]["downloadURL"],
    }


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app asked to open in a browser (nothing is opened for real)."""
    return record_opened_links(monkeypatch)


def make_app(world: World, tmp_path: Path) -> GitBookApp:
    """The app on the in-process server, no retries."""
    return faults.make_app(httpx.ASGITransport(app=world.app), tmp_path)


async def open_install(app: GitBookApp, pilot: Any, imported: dict[str, str]) -> BrowserScreen:
    browser = await faults.start_browser(app, pilot)
    browser.open_page(imported["space"], imported["install"])
    await until(pilot, lambda: browser.current_page == (imported["space"], imported["install"]))
    await until(pilot, lambda: browser.viewer.has_painted)
    return browser


def screen_text(browser: BrowserScreen) -> str:
    return "\n".join(browser.viewer.visible_text())


async def test_placeholders_show_the_space_files_details(
    world: World, imported: dict[str, str], tmp_path: Path
) -> None:
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 60)) as pilot:
        browser = await open_install(app, pilot, imported)
        await until(pilot, lambda: "120×80" in screen_text(browser))
        text = screen_text(browser)
        assert "chart.svg" in text and "123 B" in text  # image: dimensions and size
        assert "logo.gif" in text and "4×5 · 36 B" in text  # file block


async def test_file_links_open_and_copy_their_download_url_only_on_a_key(
    world: World, imported: dict[str, str], tmp_path: Path, opened: list[str]
) -> None:
    app = make_app(world, tmp_path)
    copied: list[str] = []
    app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
    async with app.run_test(size=(120, 60)) as pilot:
        browser = await open_install(app, pilot, imported)
        viewer = browser.viewer
        viewer.focus()
        await pilot.pause()
        assert viewer.has_focus
        # tab to the file block's link
        for _ in range(10):
            await pilot.press("tab")
            target = viewer.focused_target
            if target is not None and (target.target.href or "").endswith("logo.gif"):
                break
        else:
            raise AssertionError("the file link is not focusable")
        assert opened == []
        await pilot.press("y")
        assert copied == [imported["logo"]]
        await pilot.press("o")
        assert opened == [imported["logo"]]
        # enter offers it (never opens it)
        await pilot.press("enter")
        await pilot.pause()
        assert browser.pending_url == imported["logo"]
        assert opened == [imported["logo"]]


async def test_o_with_nothing_chosen_opens_the_page(
    world: World, imported: dict[str, str], tmp_path: Path, opened: list[str]
) -> None:
    app = make_app(world, tmp_path)
    async with app.run_test(size=(120, 60)) as pilot:
        browser = await open_install(app, pilot, imported)
        page = browser.page
        assert page is not None and page.urls is not None
        await pilot.press("o")
        assert opened == [page.urls.app]
        # a link offered on one page is forgotten on the next
        browser.follow_link("https://example.com/x")
        await pilot.pause()
        assert browser.pending_url == "https://example.com/x"
        readme = browser.workspace_tree.first_document(imported["space"])
        assert readme is not None
        browser.open_page(imported["space"], readme.id)
        await until(pilot, lambda: browser.current_page == (imported["space"], readme.id))
        assert browser.pending_url is None


async def test_a_file_list_older_than_30_minutes_is_read_again_before_a_link_opens(
    world: World, imported: dict[str, str], tmp_path: Path, opened: list[str]
) -> None:
    """Download URLs are signed for about an hour: an old list would give 403."""
    requests: list[str] = []
    inner = httpx.ASGITransport(app=world.app)

    class Counting(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            requests.append(request.url.path)
            return await inner.handle_async_request(request)

    app = faults.make_app(Counting(), tmp_path)
    copied: list[str] = []
    app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
    async with app.run_test(size=(120, 60)) as pilot:
        browser = await open_install(app, pilot, imported)
        viewer = browser.viewer
        await pilot.press("f6")
        for _ in range(10):
            await pilot.press("tab")
            target = viewer.focused_target
            if target is not None and (target.target.href or "").endswith("logo.gif"):
                break
        files_path = f"/v1/spaces/{imported['space']}/content/files"
        reads = requests.count(files_path)
        assert reads == 1
        await pilot.press("o")  # fresh: no new read
        assert opened == [imported["logo"]] and requests.count(files_path) == reads
        # 31 minutes later
        later = browser.files.clock() + 31 * 60
        browser.files.clock = lambda: later
        await pilot.press("o")
        await until(pilot, lambda: len(opened) == 2)
        assert requests.count(files_path) == reads + 1  # read again before opening
        assert opened[1] == imported["logo"]
        later += 31 * 60
        await pilot.press("y")
        await until(pilot, lambda: len(copied) == 1)
        assert requests.count(files_path) == reads + 2
        assert copied == [imported["logo"]]
