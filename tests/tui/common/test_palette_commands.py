"""Command palette providers over the in-process local server: pages, spaces, app commands;
server errors yield nothing; hostile titles stay literal; a query typed while the data is
still loading gets its hits when the data arrives."""

from __future__ import annotations

import asyncio
import html
import json
import re
from typing import Any

import httpx
import pytest
from textual.app import App
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Provider

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.common.palette import APP_COMMANDS, AppCommands, PageCommands, SpaceCommands
from gitbook_tui.tui.common.registry import REGISTRY
from support.builders import space_with_pages
from support.nav_app import HOSTILE, RecordingNavigator, page_id
from support.waits import settle, until
from support.worlds import World

SIZE = (100, 30)


class Failing(httpx.AsyncBaseTransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = {"error": {"code": 403, "message": "no [b]access[/b]"}}
        return httpx.Response(403, content=json.dumps(body).encode(), request=request)


class NavApp(RecordingNavigator):
    """The navigator with the app's palette providers, recording the app actions run."""

    COMMANDS = App.COMMANDS | {PageCommands, SpaceCommands, AppCommands}

    def __init__(self, client: AsyncGitBook, org: str | None, space: str | None) -> None:
        super().__init__(client, org, space)
        self.actions: list[str] = []

    def action_search(self) -> None:
        self.actions.append("search")

    def action_reload(self) -> None:
        self.actions.append("reload")

    def action_help(self) -> None:
        self.actions.append("help")


@pytest.fixture
async def client(world: World):
    c = AsyncGitBook(
        "tok-alice",
        base_url="http://testserver/v1",
        transport=httpx.ASGITransport(app=world.app),
    )
    yield c
    await c.close()


@pytest.fixture
def spaces(world: World) -> dict[str, str]:
    tidewater = space_with_pages(
        world,
        "Tidewater",
        [
            ("Install", "# Install\n\n## Linux\n\napt install tidewater"),
            ("Configure", "# Configure\n\nPorts."),
        ],
    )
    coll = world.client("alice").post(f"/orgs/{world.org}/collections", json={"title": "Ops"})
    assert coll.status_code == 201, coll.text
    runbooks = space_with_pages(world, "Runbooks", [], parent=coll.json()["id"])
    return {"tidewater": tidewater, "runbooks": runbooks, "collection": coll.json()["id"]}


async def hits(provider: Provider, query: str) -> list[Hit | DiscoveryHit]:
    await provider.startup()
    if isinstance(provider, PageCommands | SpaceCommands):
        await provider.ready()  # a search before the data arrived yields nothing at once
    source = provider.search(query) if query else provider.discover()
    return [hit async for hit in source if hit is not NotImplemented]


async def test_page_commands(world: World, client: AsyncGitBook, spaces: dict[str, str]) -> None:
    app = NavApp(client, world.org, spaces["tidewater"])
    async with app.run_test(size=SIZE):
        found = await hits(PageCommands(app.screen), "inst")
        assert [h.text for h in found] == ["Install"]
        hit = found[0]
        assert isinstance(hit, Hit) and hit.score > 0
        assert "install" in hit.help.plain  # type: ignore[union-attr]  # the path
        assert any(span.start == 0 for span in hit.match_display.spans)  # type: ignore[union-attr]
        hit.command()
        # matched on the path too
        assert [h.text for h in await hits(PageCommands(app.screen), "configure")] == ["Configure"]
        assert await hits(PageCommands(app.screen), "zzzz") == []
    assert app.pages == [
        (spaces["tidewater"], page_id(world, spaces["tidewater"], "Install"), None)
    ]


async def test_space_commands_root_and_collection(
    world: World, client: AsyncGitBook, spaces: dict[str, str]
) -> None:
    app = NavApp(client, world.org, None)
    async with app.run_test(size=SIZE):
        provider = SpaceCommands(app.screen)
        found = await hits(provider, "run")
        assert [h.text for h in found] == ["Runbooks"]
        assert found[0].help.plain == "Space in Ops"  # type: ignore[union-attr]
        found[0].command()
        tide = await hits(SpaceCommands(app.screen), "tide")
        assert [h.text for h in tide] == ["Tidewater"]
        assert tide[0].help.plain == "Space"  # type: ignore[union-attr]
        # no open space: the page provider has nothing, quietly
        assert await hits(PageCommands(app.screen), "inst") == []
    assert app.spaces == [spaces["runbooks"]]


async def test_app_commands_only_those_the_app_has(world: World, client: AsyncGitBook) -> None:
    app = NavApp(client, world.org, None)
    async with app.run_test(size=SIZE) as pilot:
        provider = AppCommands(app.screen)
        discovered = await hits(provider, "")
        assert [h.text for h in discovered] == ["Search", "Help: key bindings", "Reload"]
        found = await hits(AppCommands(app.screen), "reload")
        assert found[0].text == "Reload"
        await found[0].command()  # type: ignore[misc]
        await pilot.pause()
    assert app.actions == ["reload"]
    assert {c.action for c in APP_COMMANDS} == {
        "app.search",
        "app.help",
        "app.outline",
        "app.toggle_hidden",
        "app.reload",
        "app.back",
        "app.forward",
        "app.change_theme",
        "app.quit",
    }
    # a feature's own commands come from the registry (the Comments view registers this one)
    assert "app.show_view('comments', 'page')" in {c.action for c in REGISTRY.commands}


def screen_text(app: App[Any]) -> str:
    """The text of the terminal, line by line, from a screenshot."""
    svg = app.export_screenshot()
    rows: dict[str, list[str]] = {}
    for y, text in re.findall(r'<text [^>]*?y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        rows.setdefault(y, []).append(html.unescape(text).replace("\xa0", " "))
    return "\n".join("".join(parts) for _, parts in sorted(rows.items(), key=lambda r: float(r[0])))


async def wait_for_options(app: App[Any], pilot: Any, count: int = 1) -> CommandList:
    listing = app.screen.query_one(CommandList)
    await until(pilot, lambda: listing.option_count >= count, f"{count} options listed")
    return listing


async def type_in_palette(app: App[Any], pilot: Any, text: str, count: int = 1) -> CommandList:
    """Open the command palette, type ``text`` and wait for ``count`` options listed."""
    app.action_command_palette()
    await pilot.pause()
    assert isinstance(app.screen, CommandPalette)
    await pilot.press(*text)
    return await wait_for_options(app, pilot, count)


async def choose_the_first_option(app: App[Any], pilot: Any) -> None:
    """Choose the palette's first option (down from the input, enter); wait until it closed."""
    await pilot.press("down", "enter")
    await until(pilot, lambda: not isinstance(app.screen, CommandPalette), "the palette to close")


async def test_palette_end_to_end(
    world: World, client: AsyncGitBook, spaces: dict[str, str]
) -> None:
    app = NavApp(client, world.org, spaces["tidewater"])
    async with app.run_test(size=SIZE) as pilot:
        listing = await type_in_palette(app, pilot, "configure")
        assert "Configure" in listing.get_option_at_index(0).prompt.plain  # type: ignore[union-attr]
        await choose_the_first_option(app, pilot)
        assert not isinstance(app.screen, CommandPalette)
        # spaces, then an app command, through the same palette
        await type_in_palette(app, pilot, "runbooks")
        await choose_the_first_option(app, pilot)
        await type_in_palette(app, pilot, "search")
        await choose_the_first_option(app, pilot)
    assert app.pages == [
        (spaces["tidewater"], page_id(world, spaces["tidewater"], "Configure"), None)
    ]
    assert app.spaces == [spaces["runbooks"]]
    assert app.actions == ["search"]


async def test_client_errors_yield_nothing(world: World) -> None:
    failing = AsyncGitBook("tok-alice", base_url="http://testserver/v1", transport=Failing())
    app = NavApp(failing, world.org, "some-space")
    async with app.run_test(size=SIZE) as pilot:
        assert await hits(PageCommands(app.screen), "inst") == []
        assert await hits(SpaceCommands(app.screen), "tide") == []
        listing = await type_in_palette(app, pilot, "reload")
        assert listing.get_option_at_index(0).prompt.plain.startswith("Reload")  # type: ignore[union-attr]
        assert app.is_running
    await failing.close()


async def test_without_navigator_yields_nothing() -> None:
    app: App[None] = App()
    async with app.run_test(size=SIZE):
        assert await hits(PageCommands(app.screen), "inst") == []
        assert await hits(SpaceCommands(app.screen), "tide") == []
        assert await hits(AppCommands(app.screen), "search") == []


async def test_hostile_titles_are_literal(world: World, client: AsyncGitBook) -> None:
    space = space_with_pages(world, HOSTILE, [(HOSTILE, "# x\n\ntext")])
    app = NavApp(client, world.org, space)
    async with app.run_test(size=SIZE) as pilot:
        pages = await hits(PageCommands(app.screen), "click")
        assert [h.text for h in pages] == ["[@click=app.quit]Boom[/] Redevil"]
        found = await hits(SpaceCommands(app.screen), "click")
        assert [h.text for h in found] == ["[@click=app.quit]Boom[/] Redevil"]
        listing = await type_in_palette(app, pilot, "click", 2)
        lines = [
            listing.get_option_at_index(i).prompt.plain  # type: ignore[union-attr]
            for i in range(listing.option_count)
        ]
        assert all("[@click=app.quit]Boom[/] Redevil" in line for line in lines)
        assert not any("\x1b" in line or "\u202e" in line for line in lines)
        assert "[@click=app.quit]Boom[/] Redevil" in screen_text(app)
        await pilot.click(listing, offset=(6, 1))
        await settle(pilot)
        assert app.is_running
    assert app.pages or app.spaces  # the click chose a hit, and nothing else happened


# -- a query typed while the data is loading ---------------------------------------------


class Gated(httpx.AsyncBaseTransport):
    """Every request waits for ``gate`` before reaching the server: a network exactly as slow
    as the test wants, so "typed before the data arrived" never depends on timing."""

    def __init__(self, inner: httpx.AsyncBaseTransport, gate: asyncio.Event) -> None:
        self.inner = inner
        self.gate = gate
        self.paths: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        await self.gate.wait()
        return await self.inner.handle_async_request(request)

    def count(self, suffix: str) -> int:
        return sum(path.endswith(suffix) for path in self.paths)


def gated_app(world: World, space: str, gate: asyncio.Event) -> tuple[Gated, AsyncGitBook, NavApp]:
    """A NavApp on ``space`` whose every request waits for ``gate``; its transport and
    client (to count requests, and to close)."""
    transport = Gated(httpx.ASGITransport(app=world.app), gate)
    client = AsyncGitBook("tok-alice", base_url="http://testserver/v1", transport=transport)
    return transport, client, NavApp(client, world.org, space)


async def palette_while_loading(
    app: NavApp, pilot: Any, transport: Gated, suffix: str, what: str
) -> CommandList:
    """Open the palette, wait until its providers asked for ``suffix`` (the load ``what``)
    and return its option list."""
    app.action_command_palette()
    await until(pilot, lambda: transport.count(suffix) > 0, what)
    palette = app.screen
    assert isinstance(palette, CommandPalette)
    return palette.query_one(CommandList)


def prompts(listing: CommandList) -> list[str]:
    """The plain text of the options shown (``No matches found`` is not plain content)."""
    options = (listing.get_option_at_index(i) for i in range(listing.option_count))
    return [o.prompt.plain for o in options if hasattr(o.prompt, "plain")]  # type: ignore[union-attr]


@pytest.mark.parametrize("gated", [True, False], ids=["typed-before-data", "data-already-there"])
@pytest.mark.parametrize(
    ("query", "expected", "request_suffix"),
    [
        ("configure", "Configure", "/content/pages"),
        ("runbooks", "Runbooks", "/orgs/{org}/spaces"),
    ],
    ids=["page", "space"],
)
async def test_query_typed_while_loading_gets_hits(
    world: World,
    spaces: dict[str, str],
    gated: bool,
    query: str,
    expected: str,
    request_suffix: str,
) -> None:
    request_suffix = request_suffix.format(org=world.org)
    gate = asyncio.Event()
    if not gated:
        gate.set()
    transport, client, app = gated_app(world, spaces["tidewater"], gate)
    try:
        async with app.run_test(size=SIZE) as pilot:
            listing = await palette_while_loading(
                app, pilot, transport, request_suffix, "the load to start"
            )
            # every key press cancels the palette's running search (and starts another)
            await pilot.press(*query)
            await pilot.pause()
            if gated:
                assert not any(expected in line for line in prompts(listing))
                gate.set()
            # no further key press: the search for the typed query shows the hit by itself
            await until(pilot, lambda: any(expected in line for line in prompts(listing)), expected)
            assert prompts(listing)[0].startswith(expected)
            await pilot.press("down", "enter")
            await until(pilot, lambda: bool(app.pages or app.spaces), "the hit to open")
        # the load was started once, not restarted by the cancelled searches
        assert transport.count(request_suffix) == 1
    finally:
        await client.close()
    if expected == "Configure":
        assert app.pages == [
            (spaces["tidewater"], page_id(world, spaces["tidewater"], "Configure"), None)
        ]
    else:
        assert app.spaces == [spaces["runbooks"]]


async def test_cancelled_search_does_not_cancel_the_load(
    world: World, spaces: dict[str, str]
) -> None:
    gate = asyncio.Event()
    transport, client, app = gated_app(world, spaces["tidewater"], gate)

    async def first_hit(provider: Provider) -> Hit | DiscoveryHit | None:
        async for hit in provider.search("inst"):
            return hit
        return None

    # a broken fix would wait on the gate for ever: fail instead
    async with asyncio.timeout(30), app.run_test(size=SIZE) as pilot:
        try:
            provider = PageCommands(app.screen)
            await provider.startup()  # returns at once: the load runs on its own
            await provider.startup()  # and is started once per provider
            # a search before the data arrived ends at once (the app's commands show)
            assert await first_hit(provider) is None
            waiting = asyncio.create_task(provider.ready())
            await until(pilot, lambda: transport.count("/content/pages") == 1, "the request")
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            gate.set()
            assert [h.text for h in await hits(provider, "inst")] == ["Install"]
            assert transport.count("/content/pages") == 1
            # closing the palette while loading cancels the load: nothing is left running
            gate.clear()
            closing = PageCommands(app.screen)
            await closing.startup()
            await until(pilot, lambda: transport.count("/content/pages") == 2, "the request")
            await closing.shutdown()
            assert [h.text async for h in closing.search("inst")] == []
        finally:
            gate.set()
            await client.close()


async def test_app_commands_match_before_the_server_answers(
    world: World, spaces: dict[str, str]
) -> None:
    """QA: with a slow server the palette ignored typing until pages and spaces came."""
    gate = asyncio.Event()
    transport, client, app = gated_app(world, spaces["tidewater"], gate)
    try:
        async with app.run_test(size=SIZE) as pilot:
            listing = await palette_while_loading(
                app, pilot, transport, "/content/pages", "the load"
            )
            await pilot.press(*"reload")
            await until(
                pilot,
                lambda: prompts(listing)[0:1] != [] and prompts(listing)[0].startswith("Reload"),
                "Reload",
            )
            assert not gate.is_set()  # the server has not answered anything yet
            await pilot.press(*["backspace"] * 6, *"install")
            gate.set()  # pages arrive: the palette searches again by itself
            await until(pilot, lambda: any("Install" in p for p in prompts(listing)), "Install")
    finally:
        gate.set()
        await client.close()
