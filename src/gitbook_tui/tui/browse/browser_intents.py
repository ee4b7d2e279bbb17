"""BrowserIntents: the browser's keys that lead to other views — the open page's comments
(``C``), the space's or page's history (``H``), the page's blame (``B``), who has access
(``P``), another organization (``ctrl+o``) — each an intent, routed by the registry —
and the space the reader is in, which the other views take as "this space".

A helper the browser screen holds (``screen.intents``; its ``action_*`` methods delegate
here), reaching it through :class:`.browser_host.BrowserHost`.
"""

from __future__ import annotations

from ..common.intents import PickOrganization, ShowBlame, ShowHistory, ShowPermissions, ShowView
from ..common.navigator import navigator_of
from .browser_host import BrowserHost
from .pane_layout import PaneLayout

__all__ = ["BrowserIntents"]


class BrowserIntents:
    """Intents sent from the browser (see the module)."""

    def __init__(self, host: BrowserHost, panes: PaneLayout) -> None:
        self._host = host
        self._panes = panes

    @property
    def selected_space(self) -> str | None:
        """The space of the tree's cursor row: a space, or a page or status line in one."""
        tree = self._host.workspace_tree
        node = tree.cursor_node
        data = node.data if node is not None else None
        if data is not None and data.kind == "status":
            data = tree.node_data(data.id)  # (a status line's id is its parent's key)
        if data is None:
            return None
        return data.id if data.kind == "space" else data.space_id or None

    @property
    def open_space_id(self) -> str | None:
        """The space the reader is in: while the tree has the focus the cursor row's (a
        space selected counts as open), else — or on a row in no space — the open page's."""
        current = self._host.current_page
        page_space = current[0] if current is not None else None
        if self._panes.focus_in_tree() or page_space is None:
            return self.selected_space or page_space
        return page_space

    def sync_open_space(self) -> None:
        """Tell the app the space the reader is in (what 2, 3, search and the palette take
        as "this space")."""
        nav = navigator_of(self._host.app)
        if nav is not None and not self._host.leaving:
            nav.space_id = self.open_space_id

    def page_comments(self) -> None:
        """``C``: the open page's threads (of the page's space, whatever row the tree is on:
        the page scope's rule, in ``show_view``)."""
        nav = navigator_of(self._host.app)
        if nav is not None:
            nav.navigate(ShowView("comments", "page"))

    def history(self) -> None:
        """``H``: the open space's revisions in the History view (from the page pane: only
        those that changed the open page)."""
        host = self._host
        nav = navigator_of(host.app)
        current = host.current_page
        space = current[0] if current is not None else (nav and nav.space_id)
        if nav is None or not space:
            host.notify("Open a space to see its history.", timeout=5)
            return
        page = current[1] if current and host.viewer.has_focus else None
        nav.navigate(ShowHistory(space, page))

    def blame(self) -> None:
        """``B``: who last changed each block of the open page (``b`` is the reader's page
        up), in the History view over the page's log."""
        host = self._host
        nav = navigator_of(host.app)
        if nav is None or host.current_page is None:
            host.notify("Open a page to see who changed what in it.", timeout=5)
            return
        nav.navigate(ShowBlame(*host.current_page))

    def permissions(self) -> None:
        """``P``: who can access the tree row's collection, space or page, or the open page."""
        host = self._host
        node = host.workspace_tree.cursor_node if self._panes.focus_in_tree() else None
        row = node.data if node is not None else None
        page = row.id if row is not None and row.kind == "page" else None
        current = host.current_page
        if row is not None and row.kind == "collection":
            intent = ShowPermissions(collection_id=row.id)
        elif row is not None and row.space_id:
            intent = ShowPermissions(space_id=row.space_id, page_id=page)
        elif current is not None:
            intent = ShowPermissions(space_id=current[0], page_id=current[1])
        else:
            return
        if (nav := navigator_of(host.app)) is not None:
            nav.navigate(intent)

    def switch_org(self) -> None:
        nav = navigator_of(self._host.app)
        if nav is not None:
            nav.navigate(PickOrganization())
