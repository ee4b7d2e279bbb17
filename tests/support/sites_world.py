"""Shared pieces of the site editor tests: a small site built through the API of the
in-process server, the app speaking to it, and waits for the editor's states."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import httpx
from textual.message import Message
from textual.pilot import Pilot
from textual.screen import Screen

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.app import GitBookApp
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.state import AccountState, StateStore, account_key
from gitbook_tui.tui.sites.redirects_pane import RedirectsPane
from gitbook_tui.tui.sites.site_editor_screen import SiteEditorScreen
from gitbook_tui.tui.sites.sites_screen import SitesScreen
from gitbook_tui.tui.sites.structure_pane import StructurePane
from support.notes import notes_of
from support.waits import until, until_screen
from support.worlds import World

BASE = "http://testserver/v1"
HOSTILE = "[@click=app.quit]Evil[/] \x1b]8;;https://x.test\x07ansi\u202e"


@dataclass
class SiteWorld:
    """Ids of the test site: its sections, site spaces, pages and redirects."""

    site: str
    url: str
    sections: dict[str, str] = field(default_factory=dict)
    site_spaces: dict[str, str] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)
    redirects: dict[str, str] = field(default_factory=dict)
    spaces: dict[str, str] = field(default_factory=dict)


def _ok(r: Any) -> Any:
    assert r.status_code in (200, 201, 204), r.text
    return r.json() if r.content else None


def _merge(world: World, space_id: str, titles: list[str]) -> None:
    c = world.client("alice")
    cr = _ok(c.post(f"/spaces/{space_id}/change-requests", json={"subject": "pages"}))
    changes = [
        {"operation": "insert_page", "title": t, "document": {"markdown": f"About {t}.\n"}}
        for t in titles
    ]
    _ok(c.post(f"/spaces/{space_id}/change-requests/{cr['id']}/content", json={"changes": changes}))
    _ok(c.post(f"/spaces/{space_id}/change-requests/{cr['id']}/merge"))


def build_site(world: World, *, bad_redirects: bool = True, title: str = "Acme Docs") -> SiteWorld:
    """A published site: sections Guides (User Guide ★, SDK) and Reference (API), and
    redirects (with a chain, a deleted page and a shadowed source when ``bad_redirects``)."""
    c = world.client("alice")
    org = world.org
    spaces = {}
    for key, name in (("guide", "User Guide"), ("sdk", "SDK"), ("api", "API Reference")):
        spaces[key] = _ok(c.post(f"/orgs/{org}/spaces", json={"title": name}))["id"]
    _ok(c.post(f"/orgs/{org}/spaces", json={"title": "Handbook"}))
    _merge(world, spaces["guide"], ["Install", "Configure", "Troubleshooting"])
    _merge(world, spaces["api"], ["Authentication", "Errors"])
    site = _ok(c.post(f"/orgs/{org}/sites", json={"title": title, "visibility": "unlisted"}))
    base = f"/orgs/{org}/sites/{site['id']}"
    _ok(c.patch(base, json={"basename": "docs"}))
    w = SiteWorld(site=site["id"], url="", spaces=spaces)
    guides = _ok(c.post(f"{base}/sections", json={"title": "Guides", "spaceId": spaces["guide"]}))
    w.sections["Guides"] = guides["id"]
    ref = _ok(c.post(f"{base}/sections", json={"title": "Reference", "spaceId": spaces["api"]}))
    w.sections["Reference"] = ref["id"]
    sdk = _ok(
        c.post(f"{base}/site-spaces", json={"spaceId": spaces["sdk"], "sectionId": guides["id"]})
    )
    w.site_spaces["SDK"] = sdk["id"]
    published = _ok(c.post(f"{base}/publish"))
    w.url = published["urls"]["published"]
    for section in _ok(c.get(f"{base}/sections"))["items"]:
        for ss in section["siteSpaces"]:
            w.site_spaces.setdefault(ss["title"], ss["id"])
    pages = _ok(c.get(f"/spaces/{spaces['guide']}/content/pages"))["pages"]
    w.pages = {p["title"]: p["id"] for p in pages}

    def redirect(source: str, dest: dict[str, Any], **flags: Any) -> None:
        body = {"source": source, "destination": dest, **flags}
        w.redirects[source] = _ok(c.post(f"{base}/redirects", json=body))["id"]

    guide_ss = w.site_spaces["User Guide"]
    redirect(
        "/old-install",
        {"kind": "site-page", "siteSpaceId": guide_ss, "pageId": w.pages["Install"]},
        permanent=True,
    )
    redirect("/forum", {"kind": "external", "url": "https://forum.example.com/"})
    if bad_redirects:
        redirect("/setup", {"kind": "external", "url": f"{w.url}/old-install"})
        redirect("/install", {"kind": "site-section", "siteSectionId": ref["id"]})
        redirect(
            "/old-trouble",
            {"kind": "site-page", "siteSpaceId": guide_ss, "pageId": w.pages["Troubleshooting"]},
        )
        # the page goes away: the redirect now points nowhere
        storage = world.storage
        with storage.transaction() as tx:
            record = tx.get("site-redirect", w.redirects["/old-trouble"])
            record["destination"]["pageId"] = "page-deleted"
            tx.put("site-redirect", record["id"], record, scope=w.site)
    return w


class Transport(httpx.AsyncBaseTransport):
    """The in-process server, recording requests; ``refuse`` makes the next request whose
    method and path end match answer with an error instead."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.requests: list[tuple[str, str]] = []
        self.refusals: list[tuple[str, str, int, str]] = []

    def refuse(self, method: str, path_end: str, status: int, message: str) -> None:
        self.refusals.append((method, path_end, status, message))

    def sent(self, method: str) -> list[str]:
        return [path for m, path in self.requests if m == method]

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append((request.method, request.url.path))
        for refusal in self.refusals:
            method, end, status, message = refusal
            if request.method == method and request.url.path.endswith(end):
                self.refusals.remove(refusal)
                body = {"error": {"code": status, "message": message}}
                return httpx.Response(status, json=body, request=request)
        return await self.inner.handle_async_request(request)


async def _no_sleep(_: float) -> None:
    await asyncio.sleep(0)


def make_app(world: World, tmp_path: Path, token: str = "tok-alice") -> GitBookApp:
    transport = Transport(world.app)
    client = AsyncGitBook(token, base_url=BASE, transport=transport, max_retries=0, sleep=_no_sleep)
    store = StateStore(tmp_path / "state.json")
    store.save(account_key(client), AccountState(org_id=world.org))
    return GitBookApp(client, config=TuiConfig(), state_store=store, transport=transport)


class SitesRun(NamedTuple):
    """An app run a sites test drives: its pilot, the app and every notification since start."""

    pilot: Pilot[Any]
    app: GitBookApp
    notes: list[str]


@asynccontextmanager
async def sites_run(
    world: World,
    tmp_path: Path,
    *,
    token: str = "tok-alice",
    size: tuple[int, int] = (120, 40),
    message_hook: Callable[[Message], None] | None = None,
) -> AsyncIterator[SitesRun]:
    """:func:`make_app` as ``token``'s user, run at ``size`` (``message_hook`` sees every
    message as it is handled)."""
    app = make_app(world, tmp_path, token)
    notes = notes_of(app)
    async with app.run_test(size=size, message_hook=message_hook) as pilot:
        yield SitesRun(pilot, app, notes)


async def open_sites(pilot: Pilot[Any], timeout: float = 10.0) -> SitesScreen:
    """Wait for the browser, then open the sites list (key 4) and wait for it to load
    (``timeout``: the seeded demo workspace is slower to load than a test world)."""
    app = pilot.app
    await until(pilot, lambda: app.browser is not None, timeout=timeout)
    await pilot.press("4")
    await until(pilot, lambda: isinstance(app.screen, SitesScreen) and app.screen.loaded)
    screen = app.screen
    assert isinstance(screen, SitesScreen)
    return screen


async def open_editor(
    pilot: Pilot[Any], title: str = "Acme Docs", timeout: float = 10.0
) -> SiteEditorScreen:
    """Open the sites list, then the site ``title`` in the editor, once its data is in."""
    sites = await open_sites(pilot, timeout)
    index = [s.title for s in sites.sites].index(title)
    table = sites.query_one("#sites-table")
    table.move_cursor(row=index)  # type: ignore[attr-defined]
    await pilot.press("enter")
    app = pilot.app
    await until(
        pilot,
        lambda: isinstance(app.screen, SiteEditorScreen) and app.screen.data is not None,
        timeout=timeout,
    )
    editor = app.screen
    assert isinstance(editor, SiteEditorScreen)
    await pilot.pause()
    return editor


def redirects_pane(editor: SiteEditorScreen) -> RedirectsPane:
    return editor.query_one(RedirectsPane)


async def open_redirects(pilot: Pilot[Any]) -> RedirectsPane:
    """Open the site editor's redirects tab and wait until it lists the redirects."""
    editor = await open_editor(pilot)
    await pilot.press("right_square_bracket")
    pane = redirects_pane(editor)
    await until(pilot, lambda: bool(pane.shown))
    return pane


DialogT = TypeVar("DialogT", bound=Screen[Any])


async def open_from_redirects(
    pilot: Pilot[Any], key: str, dialog: type[DialogT]
) -> tuple[RedirectsPane, DialogT]:
    """Open the redirects tab, press ``key`` and wait for its ``dialog`` on top; the pane
    and the dialog."""
    pane = await open_redirects(pilot)
    await pilot.press(key)
    return pane, await until_screen(pilot, dialog)


def wait_seconds(start: float) -> float:
    return time.perf_counter() - start


def transport_of(app: GitBookApp) -> Transport:
    assert isinstance(app.transport, Transport)
    return app.transport


def add_group(world: World, site: SiteWorld, title: str, sections: list[str]) -> str:
    r = world.client("alice").post(
        f"/orgs/{world.org}/sites/{site.site}/section-groups",
        json={"title": title, "sections": [site.sections[s] for s in sections]},
    )
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def server_tree(world: World, site: SiteWorld) -> list[Any]:
    def shape(item: dict) -> Any:
        if item["object"] == "site-section-group":
            return (item["title"], [shape(c) for c in item["children"]])
        return item["title"]

    r = world.client("alice").get(f"/orgs/{world.org}/sites/{site.site}/structure")
    return [shape(i) for i in r.json()["structure"]]


def grouped_site(world: World) -> SiteWorld:
    """Guides (User Guide ★, SDK) at the root, then group Products holding Reference."""
    site = build_site(world, bad_redirects=False)
    add_group(world, site, "Products", ["Reference"])
    return site


async def structure(pilot: Any, rows: int) -> StructurePane:
    editor = await open_editor(pilot)
    pane = editor.query_one(StructurePane)
    await until(pilot, lambda: len(pane.rows) == rows)
    return pane


def titles(pane: StructurePane) -> list[str]:
    return [pane._item(r).title or "" for r in pane.rows]  # type: ignore[union-attr]


def select(pane: StructurePane, title: str) -> None:
    pane.query_one("#structure-list").highlighted = titles(pane).index(title)  # type: ignore[attr-defined]
