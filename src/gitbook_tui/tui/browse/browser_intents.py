"""BrowserIntents: the browser's keys that lead to other views — the open page's comments
(``C``), the space's or page's history (``H``), the page's blame (``B``), who has access
(``P``), another organization (``ctrl+o``) — each an intent, routed by the registry.

A mixin for :class:`.browser_screen.BrowserScreen`, which makes the panes and the state
this reads.
"""

from __future__ import annotations

from ..common.intents import PickOrganization, ShowBlame, ShowHistory, ShowPermissions, ShowView
from ..common.navigator import navigator_of
from .page_viewer import PageViewer
from .pane_layout import PaneLayout

__all__ = ["BrowserIntents"]


class BrowserIntents(PaneLayout):
    """Intents sent from the browser (see the module)."""

    _current: tuple[str, str] | None
    _viewer: PageViewer

    async def action_page_comments(self) -> None:
        """``C``: the open page's threads (of the page's space, whatever row the tree is on:
        the page scope's rule, in ``show_view``)."""
        nav = navigator_of(self.app)
        if nav is not None:
            nav.navigate(ShowView("comments", "page"))

    def action_history(self) -> None:
        """``H``: the open space's revisions in the History view (from the page pane: only
        those that changed the open page)."""
        nav = navigator_of(self.app)
        space = self._current[0] if self._current is not None else (nav and nav.space_id)
        if nav is None or not space:
            self.notify("Open a space to see its history.", timeout=5)
            return
        page = self._current[1] if self._current and self._viewer.has_focus else None
        nav.navigate(ShowHistory(space, page))

    def action_blame(self) -> None:
        """``B``: who last changed each block of the open page (``b`` is the reader's page
        up), in the History view over the page's log."""
        nav = navigator_of(self.app)
        if nav is None or self._current is None:
            self.notify("Open a page to see who changed what in it.", timeout=5)
            return
        nav.navigate(ShowBlame(*self._current))

    def action_permissions(self) -> None:
        """``P``: who can access the tree row's collection, space or page, or the open page."""
        node = self.workspace_tree.cursor_node if self._focus_in_tree() else None
        row = node.data if node is not None else None
        page = row.id if row is not None and row.kind == "page" else None
        if row is not None and row.kind == "collection":
            intent = ShowPermissions(collection_id=row.id)
        elif row is not None and row.space_id:
            intent = ShowPermissions(space_id=row.space_id, page_id=page)
        elif self._current is not None:
            intent = ShowPermissions(space_id=self._current[0], page_id=self._current[1])
        else:
            return
        if (nav := navigator_of(self.app)) is not None:
            nav.navigate(intent)

    def action_switch_org(self) -> None:
        nav = navigator_of(self.app)
        if nav is not None:
            nav.navigate(PickOrganization())
