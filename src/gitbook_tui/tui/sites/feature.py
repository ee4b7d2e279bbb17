"""The Sites view's registration: view 4 (the sites list, then a site's editor)."""

from __future__ import annotations

from textual.screen import Screen

from ..common.navigator import Navigator
from ..common.registry import Registry, View

__all__ = ["SITES", "register"]

SITES = "sites"
"""The Sites view's name (its mode)."""


def _sites(nav: Navigator) -> Screen[None]:
    # imported when the view is first shown: the app's first screen is Browse
    from .sites_screen import SitesScreen

    return SitesScreen(nav)


def register(registry: Registry) -> None:
    registry.add_view(View("4", SITES, "Sites", _sites))
