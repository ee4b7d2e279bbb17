"""The Admin view's registration: view 5 (members, teams, invites, permissions, integrations,
OpenAPI specs, translations), its footer hints and the ``ShowPermissions`` intent."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.screen import Screen

from ..common.hint_footer import HINTS
from ..common.intents import ShowPermissions
from ..common.navigator import Navigator
from ..common.registry import Registry, View

__all__ = ["ADMIN", "register"]

ADMIN = "admin"
"""The Admin view's name (its mode)."""

ADMIN_HINTS: dict[str, tuple[str, ...]] = {
    "members-tab": (
        "admin.filter",
        "admin.members.role_filter",
        "admin.members.change_role",
        "admin.members.remove",
        "admin.next_tab",
        "admin.back",
    ),
    "teams-tab": (
        "admin.teams.new",
        "admin.teams.edit",
        "admin.teams.delete",
        "admin.filter",
        "admin.next_tab",
        "admin.back",
    ),
    "invites-tab": (
        "admin.invites.invite",
        "admin.invites.new",
        "admin.invites.copy",
        "admin.invites.edit",
        "admin.invites.delete",
        "admin.next_tab",
        "admin.back",
    ),
    "permissions-tab": (
        "admin.permissions.grant",
        "admin.permissions.change",
        "admin.permissions.remove",
        "admin.filter",
        "admin.next_tab",
        "admin.back",
    ),
    "openapi-tab": (
        "admin.openapi.send",
        "admin.openapi.open",
        "admin.filter",
        "admin.next_tab",
        "admin.back",
    ),
    "translations-tab": (
        "admin.translations.new",
        "admin.translations.edit",
        "admin.translations.delete",
        "admin.filter",
        "admin.next_tab",
        "admin.back",
    ),
    "integrations-tab": (
        "admin.integrations.install",
        "admin.integrations.uninstall",
        "admin.integrations.add_place",
        "admin.integrations.remove_place",
        "admin.filter",
        "admin.next_tab",
        "admin.back",
    ),
}
"""The footer's hints per tab (by widget id), most useful first."""


def _admin(nav: Navigator) -> Screen[None]:
    # imported when the view is first shown: the app's first screen is Browse
    from .admin_screen import AdminScreen

    return AdminScreen(nav)


def _show_permissions(app: App[Any], intent: ShowPermissions) -> None:
    """The Permissions tab of the Admin screen (the bottom of view 5's stack)."""
    from .admin_screen import AdminScreen

    screen = next((s for s in app.screen_stack if isinstance(s, AdminScreen)), None)
    if screen is not None:
        screen.show_permissions(intent.space_id, intent.collection_id, intent.page_id)


def register(registry: Registry) -> None:
    registry.add_view(View("5", ADMIN, "Admin", _admin))
    registry.handle(ShowPermissions, _show_permissions, view=ADMIN)
    # the footer finds hints by the focused widget's id or class: the tabs' ids are ours
    HINTS.update(ADMIN_HINTS)
