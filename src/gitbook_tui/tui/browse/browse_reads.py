"""The browser's small reads — the signed-in user's name, a space, a page found by its path.

Widget-free (no Textual): the browser screen and :mod:`.browser_start` call these, and
tests call them with a client alone. Each reads ``prefer-cache`` (a cached answer at once,
the server's in the background).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from ...api import AsyncGitBook, response_meta
from ...models import Space, User

__all__ = ["page_id_at_path", "read_space", "signed_in_names", "space_comment_total"]


def _name(user: User) -> str:
    return user.displayName or user.email or user.id


async def signed_in_names(client: AsyncGitBook) -> AsyncIterator[str]:
    """The signed-in user's name (as cached, or as the server said), then — when that came
    from the cache and the server answers differently — the server's. Raises what the
    first read raises; a failed refresh of a name already given ends the names quietly."""
    user = await client.users.me(read="prefer-cache")
    yield _name(user)
    meta = response_meta(user)
    if meta is None or meta.refresh is None:
        return
    try:
        fresh = await meta.refresh
    except Exception:  # (the name given stays: nothing depends on a fresher one)
        return
    if fresh is not None:
        yield _name(fresh)


async def read_space(client: AsyncGitBook, space_id: str) -> Space:
    """The space (raises :class:`~gitbook_tui.api.GitBookError` when it cannot be read)."""
    return await client.spaces.get(space_id, read="prefer-cache")


async def space_comment_total(client: AsyncGitBook, space_id: str) -> int | None:
    """The space's own count of open comment threads (``Space.comments``; None: unknown)."""
    space = await read_space(client, space_id)
    return space.comments


async def page_id_at_path(client: AsyncGitBook, space_id: str, path: str) -> str:
    """The id of the page at ``path`` of the space (raises
    :class:`~gitbook_tui.api.GitBookError` when there is none, ``ValueError`` for a path
    that is not made of plain segments)."""
    page = await client.content.page_by_path(space_id, path, read="prefer-cache")
    return page.id
