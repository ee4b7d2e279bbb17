"""What the application offers to its modal screens and command palette providers.

The app implements :class:`Navigator` (its client, where the reader is, and one
``navigate(intent)``); screens and providers find it as ``self.app`` and check
``isinstance(app, Navigator)`` (degrading gracefully when it is not one), so they
never depend on the app's concrete class.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...api import AsyncGitBook
from .intents import Intent
from .session_info import SessionInfo

__all__ = ["Navigator", "navigator_of"]


@runtime_checkable
class Navigator(Protocol):
    """The app's side of navigation: its client, where the reader is, and how to go elsewhere."""

    client: AsyncGitBook
    session: SessionInfo
    """Who is signed in and the organization shown (every view's status bar reads it)."""
    organization_id: str | None
    space_id: str | None
    """The space open in the browser, if any."""

    @property
    def page_id(self) -> str | None:
        """The page open in the browser, if any."""
        ...

    def navigate(self, intent: Intent) -> None:
        """Go where ``intent`` says (:mod:`.intents`), routed by the registry to the
        feature that handles it."""
        ...


def navigator_of(app: object) -> Navigator | None:
    """``app`` as a :class:`Navigator`, or ``None`` when it does not offer navigation."""
    try:
        return app if isinstance(app, Navigator) else None
    except Exception:  # a property of the app raising while being probed
        return None
