"""Command palette (ctrl+p) providers: pages of the open space, spaces, app commands.

Add them to the app's ``COMMANDS``. They reach the app through the
:class:`~.navigator.Navigator` protocol (``self.app``) and yield nothing
when the app is not one, or when the server cannot answer (the error is logged).

* :class:`PageCommands` — pages of the open space (:func:`.palette_data.space_pages`, the
  cached tree when there is one), fuzzy matched on title and path; opens with
  ``navigator.navigate(OpenPage(space_id, page_id))``.
* :class:`SpaceCommands` — spaces of the organization (root spaces and the spaces of
  every collection); opens with ``navigator.navigate(OpenSpace(space_id))``.
* :class:`AppCommands` — app actions, run by name with ``app.run_action(...)``. The app
  provides those it supports as ``action_<name>`` methods; only those are offered:

  ==================  ===========================================
  ``app.search``      open the search screen
  ``app.help``        show the key bindings (help screen)
  ``app.outline``     headings of the open page (outline screen)
  ``app.toggle_hidden``  show / hide hidden pages
  ``app.reload``      reload what is shown from the server
  ``app.back``        go back in the page history
  ``app.forward``     go forward in the page history
  ==================  ===========================================

Data is loaded once per palette opening, by a task that ``startup`` starts and nothing
but closing the palette cancels (the palette cancels its running search on every key
press). A search before the data arrived yields nothing at once, so the app's own
commands show without waiting for the server; when the data arrives the palette searches
the typed query again and pages and spaces join. Every text taken from the server is
shown as inert :class:`~textual.content.Content`, highlighted by us (never through markup).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from textual.app import App
from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content
from textual.screen import Screen
from textual.style import Style

from ...models import Collection, RevisionPage, Space
from .intents import OpenPage, OpenSpace
from .palette_data import organization_spaces, space_pages
from .palette_loading import LoadingProvider
from .registry import REGISTRY, AppCommand
from .text import emoji_slot, inert

__all__ = [
    "APP_COMMANDS",
    "AppCommand",
    "AppCommands",
    "PageCommands",
    "SpaceCommands",
    "highlight_match",
]

log = logging.getLogger("gitbook_tui.tui.commands")


def _emoji_prefix(emoji: str | None) -> str:
    slot = emoji_slot(emoji)
    return f"{slot} " if slot else ""


def highlight_match(matcher: Matcher, content: Content) -> Content:
    """``content`` with the characters the fuzzy ``matcher`` matched styled (no markup)."""
    plain = content.plain
    score, offsets = matcher.fuzzy_search.match(matcher.query, plain)
    if not score:
        return content
    for offset in offsets:
        if not plain[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


# -- pages ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _PageEntry:
    page_id: str
    title: Content
    path: Content
    hidden: bool


def _walk(pages: Iterable[RevisionPage], parents: tuple[str, ...] = ()) -> Iterable[_PageEntry]:
    for page in pages:
        slug = page.slug or page.id
        path = page.path or "/".join((*parents, slug))
        if page.type != "link":
            title = inert(_emoji_prefix(page.emoji) + (page.title or "Untitled"))
            yield _PageEntry(page.id, title, inert(path), bool(page.hidden))
        yield from _walk(page.pages, (*parents, slug))


class PageCommands(LoadingProvider):
    """Pages of the open space."""

    def __init__(self, screen: Screen[Any], match_style: Style | None = None) -> None:
        super().__init__(screen, match_style)
        self._pages: list[_PageEntry] = []
        self._space_id: str | None = None

    async def _load(self) -> None:
        nav = self.navigator
        if nav is None or not nav.space_id:
            return
        try:
            self._pages = list(_walk(await space_pages(nav.client, nav.space_id)))
            self._space_id = nav.space_id
        except Exception as exc:
            log.warning("pages of %s for the command palette: %s", nav.space_id, exc)
            self._pages = []

    def _open(self, page_id: str) -> None:
        nav = self.navigator
        if nav is not None and self._space_id is not None:
            nav.navigate(OpenPage(self._space_id, page_id))

    @staticmethod
    def _help(entry: _PageEntry) -> Content:
        help_text = Content.assemble("Page · ", entry.path)
        return help_text + Content(" · hidden") if entry.hidden else help_text

    async def search(self, query: str) -> Hits:
        if not await self._loaded():
            return
        matcher = self.matcher(query)
        for entry in self._pages:
            title_score = matcher.match(entry.title.plain)
            path_score = matcher.match(entry.path.plain) * 0.8
            score = max(title_score, path_score)
            if score <= 0:
                continue
            display = highlight_match(matcher, entry.title) if title_score else entry.title
            yield Hit(
                score,
                display,
                partial(self._open, entry.page_id),
                text=entry.title.plain,
                help=self._help(entry),  # type: ignore[arg-type]  # Content is never markup
            )


# -- spaces --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _SpaceEntry:
    space_id: str
    title: Content
    where: Content


class SpaceCommands(LoadingProvider):
    """Spaces of the organization: at its root and in its collections."""

    def __init__(self, screen: Screen[Any], match_style: Style | None = None) -> None:
        super().__init__(screen, match_style)
        self._spaces: list[_SpaceEntry] = []

    async def _load(self) -> None:
        nav = self.navigator
        if nav is None or not nav.organization_id:
            return
        found = await organization_spaces(nav.client, nav.organization_id)
        seen: set[str] = set()
        entries: list[_SpaceEntry] = []

        def add(space: Space, where: Content) -> None:
            if space.id in seen:
                return
            seen.add(space.id)
            title = inert(_emoji_prefix(space.emoji) + (space.title or "Untitled"))
            entries.append(_SpaceEntry(space.id, title, where))

        for space in found.root:
            add(space, Content("Space"))
        for collection, spaces in found.in_collections:
            where = Content.assemble(
                "Space in ", self._collection_path(collection, found.collections)
            )
            for space in spaces:
                add(space, where)
        self._spaces = entries

    @staticmethod
    def _collection_path(collection: Collection, by_id: dict[str, Collection]) -> Content:
        names: list[str] = []
        current: Collection | None = collection
        while current is not None and len(names) < 16:
            names.append(current.title or "Untitled")
            current = by_id.get(current.parent) if current.parent else None
        return inert(" › ".join(reversed(names)))

    def _open(self, space_id: str) -> None:
        nav = self.navigator
        if nav is not None:
            nav.navigate(OpenSpace(space_id))

    async def search(self, query: str) -> Hits:
        if not await self._loaded():
            return
        matcher = self.matcher(query)
        for entry in self._spaces:
            score = matcher.match(entry.title.plain)
            if score <= 0:
                continue
            yield Hit(
                score,
                highlight_match(matcher, entry.title),
                partial(self._open, entry.space_id),
                text=entry.title.plain,
                help=entry.where,  # type: ignore[arg-type]  # Content is never markup
            )


# -- app commands --------------------------------------------------------------------------


def _view_commands() -> tuple[AppCommand, ...]:
    """ "Go to <view>" for every numbered view (:mod:`.registry`)."""
    return tuple(
        AppCommand(
            f"Go to {view.title}",
            f"View {view.key}: {view.title}",
            f"app.show_view('{view.name}')",
        )
        for view in REGISTRY.views
    )


APP_COMMANDS: tuple[AppCommand, ...] = (
    AppCommand("Search", "Search this space or the whole organization", "app.search"),
    AppCommand("Help: key bindings", "Every key binding of this screen", "app.help"),
    AppCommand("Outline of the page", "Jump to a heading of the open page", "app.outline"),
    AppCommand("Toggle hidden pages", "Show or hide pages marked hidden", "app.toggle_hidden"),
    AppCommand("Reload", "Load what is shown again from the server", "app.reload"),
    AppCommand("Back", "Previous page in the history", "app.back"),
    AppCommand("Forward", "Next page in the history", "app.forward"),
    AppCommand("Theme", "Choose the colours (kept in config.toml)", "app.change_theme"),
    AppCommand("Quit", "Leave gitbook-tui (the tree and page are remembered)", "app.quit"),
)
"""The app's own commands; features add theirs to the registry (``REGISTRY.commands``)."""


class AppCommands(Provider):
    """The app's own commands (those it implements)."""

    @property
    def commands(self) -> list[AppCommand]:
        """The commands the app implements itself (not Textual's own ``App.action_back``…)."""
        app_class = type(self.app)
        return [
            c
            for c in (*_view_commands(), *APP_COMMANDS, *REGISTRY.commands)
            if callable(getattr(app_class, c.method, None))
            and getattr(app_class, c.method) is not getattr(App, c.method, None)
        ]

    def _runner(self, command: AppCommand) -> Callable[[], object]:
        async def run() -> None:
            await self.app.run_action(command.action)

        return run

    async def discover(self) -> Hits:
        for command in self.commands:
            yield DiscoveryHit(
                Content(command.title),
                self._runner(command),
                text=command.title,
                help=Content(command.help),  # type: ignore[arg-type]
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self.commands:
            score = max(matcher.match(command.title), matcher.match(command.help) * 0.5)
            if score <= 0:
                continue
            yield Hit(
                1.0 + score,  # the app's commands before pages and spaces
                highlight_match(matcher, Content(command.title)),
                self._runner(command),
                text=command.title,
                help=Content(command.help),  # type: ignore[arg-type]
            )
