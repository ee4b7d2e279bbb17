"""What the application offers to its modal screens and command palette providers.

The app implements :class:`Navigator`; screens and providers find it as ``self.app`` and
check ``isinstance(app, Navigator)`` (degrading gracefully when it is not one), so they
never depend on the app's concrete class.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...api import AsyncGitBook

__all__ = ["Navigator", "navigator_of"]


@runtime_checkable
class Navigator(Protocol):
    """The app's side of navigation: its client, where the reader is, and how to go elsewhere."""

    client: AsyncGitBook
    organization_id: str | None
    space_id: str | None
    """The space open in the browser, if any."""

    @property
    def page_id(self) -> str | None:
        """The page open in the browser, if any."""
        ...

    def open_page(self, space_id: str, page_id: str, anchor: str | None = None) -> None:
        """Show a page (scrolled to ``anchor`` when given)."""
        ...

    def open_space(self, space_id: str) -> None:
        """Open a space in the browser."""
        ...


def navigator_of(app: object) -> Navigator | None:
    """``app`` as a :class:`Navigator`, or ``None`` when it does not offer navigation."""
    try:
        return app if isinstance(app, Navigator) else None
    except Exception:  # a property of the app raising while being probed
        return None
