"""The Admin view's tabs, in the order ``[``/``]`` walks them."""

from __future__ import annotations

from .admin_tab import AdminTab
from .integrations_tab import IntegrationsTab
from .invites_tab import InvitesTab
from .members_tab import MembersTab
from .openapi_tab import OpenAPITab
from .permissions_tab import PermissionsTab
from .teams_tab import TeamsTab
from .translations_tab import TranslationsTab

__all__ = ["TAB_CLASSES"]

TAB_CLASSES: tuple[type[AdminTab], ...] = (
    MembersTab,
    TeamsTab,
    InvitesTab,
    PermissionsTab,
    IntegrationsTab,
    OpenAPITab,
    TranslationsTab,
)
