"""The feature registry: numbered views, intent routes and palette commands, filled from the top.

Each feature folder has a ``feature.py`` whose ``register(registry)`` adds its view (key,
name, title, factory), the intents it handles and its palette commands; :mod:`..views`
calls them all once. The app, the status bar and the palette read :data:`REGISTRY`, so
nothing in ``common/`` imports a feature.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from .intents import Intent

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from .navigator import Navigator

__all__ = [
    "REGISTRY",
    "AppCommand",
    "Registry",
    "Route",
    "View",
    "view_named",
]

I = TypeVar("I", bound=Intent)  # noqa: E741

Handler = Callable[["App[Any]", Any], Awaitable[None] | None]
"""Handles one intent for the app (the app is also the :class:`.navigator.Navigator`)."""


@dataclass(frozen=True)
class View:
    """A numbered view: its key, name (``ShowView`` argument and binding id), title and
    the factory building its first screen (``None`` for Browse, which is the browser)."""

    key: str
    name: str
    """Also the name of the view's mode (its screen stack)."""
    title: str
    factory: Callable[[Navigator], Screen[None]] | None = None


@dataclass(frozen=True)
class Route:
    """How an intent kind is handled: the view shown first (``None``: over the screen
    shown now, in its view), then the handler."""

    handler: Handler
    view: str | None


@dataclass(frozen=True)
class AppCommand:
    """An app action offered in the palette: its title, help and action name."""

    title: str
    help: str
    action: str

    @property
    def method(self) -> str:
        """The app method that performs it (``action_search`` for ``app.search``,
        ``action_show_view`` for ``app.show_view('browse')``)."""
        return "action_" + self.action.split(".", 1)[-1].split("(", 1)[0]


class Registry:
    """Views in key order, a route per intent kind, palette commands in registration order."""

    def __init__(self) -> None:
        self._views: dict[str, View] = {}
        self._routes: dict[type[Intent], Route] = {}
        self._commands: dict[str, AppCommand] = {}

    def add_view(self, view: View) -> None:
        """Add (or replace, by name) a numbered view."""
        self._views[view.name] = view

    def handle(
        self,
        kind: type[I],
        handler: Callable[[App[Any], I], Awaitable[None] | None],
        *,
        view: str | None = None,
    ) -> None:
        """Route intents of ``kind`` to ``handler``, after showing ``view`` (a feature's
        screens land in its own view)."""
        self._routes[kind] = Route(handler, view)

    def add_command(self, command: AppCommand) -> None:
        self._commands[command.action] = command

    @property
    def views(self) -> tuple[View, ...]:
        """Every numbered view, in key order."""
        return tuple(sorted(self._views.values(), key=lambda v: v.key))

    def view_named(self, name: str) -> View | None:
        return self._views.get(name)

    def route(self, intent: Intent) -> Route | None:
        """The route of ``intent``'s kind (or of the nearest registered base class)."""
        for kind in type(intent).__mro__:
            route = self._routes.get(kind)  # type: ignore[arg-type]
            if route is not None:
                return route
        return None

    @property
    def commands(self) -> tuple[AppCommand, ...]:
        """The palette commands features registered."""
        return tuple(self._commands.values())


REGISTRY = Registry()
"""The app's registry (filled by :func:`gitbook_tui.tui.views.register_features`)."""


def view_named(name: str) -> View | None:
    """The registered view called ``name``."""
    return REGISTRY.view_named(name)
