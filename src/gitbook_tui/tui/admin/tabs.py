"""The Admin view's tabs, in the order ``[``/``]`` walks them."""

from __future__ import annotations

from .admin_tab import AdminTab
from .members_tab import MembersTab

__all__ = ["TAB_CLASSES"]

TAB_CLASSES: tuple[type[AdminTab], ...] = (MembersTab,)
