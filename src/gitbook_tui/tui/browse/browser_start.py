"""Where the browser starts: a ``gitbook-tui open`` target resolved to a page, and the
state remembered for the next start (ids and keys only)."""

from __future__ import annotations

from collections.abc import Callable

from ...api import AsyncGitBook, GitBookError
from ..common.state import AccountState, StartTarget
from ..common.text import plain
from .browse_reads import page_id_at_path, read_space
from .tree.workspace_tree import ROOT, WorkspaceTree

__all__ = ["resolve_start", "state_of"]


async def resolve_start(
    client: AsyncGitBook,
    tree: WorkspaceTree,
    target: StartTarget,
    notify: Callable[..., object],
) -> tuple[str, str] | None:
    """Reveal the target's space in ``tree``; the (space id, page id) to open: the page
    named by id or by path, else the space's first page (None: nothing to open)."""
    try:
        space = await read_space(client, target.space_id)
    except GitBookError as exc:
        notify(plain(f"Cannot open {target.space_id}: {exc}"), severity="error", markup=False)
        return None
    await tree.reveal(space)
    page_id = target.page_id
    if page_id is None and target.path:
        node = tree.page_at_path(space.id, target.path)
        if node is not None:
            page_id = node.id
        else:
            try:
                page_id = await page_id_at_path(client, space.id, target.path)
            except GitBookError:
                notify(
                    plain(f"No page at {target.path}: showing the space"),
                    severity="warning",
                    markup=False,
                )
    if page_id is None:
        first = tree.first_document(space.id)
        page_id = first.id if first is not None else None
    return (space.id, page_id) if page_id is not None else None


def state_of(tree: WorkspaceTree, org_id: str | None, page: tuple[str, str] | None) -> AccountState:
    """What to remember of the browser: its organization, the tree and the open page."""
    return AccountState(
        org_id=org_id,
        expanded=[k for k in tree.expanded_keys if k != ROOT],
        selected=tree.selected_key,
        page=list(page) if page else None,
    )
