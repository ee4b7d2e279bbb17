"""SpaceFiles: the files of each space, for placeholder details and file-link URLs.

The server signs each file's ``downloadURL`` for about an hour: a list read (or cached)
longer than :data:`MAX_AGE` ago is read again from the server before one of its links is
opened or copied (:meth:`SpaceFiles.refresh_if_stale`), else the browser would get 403.
"""

from __future__ import annotations

import posixpath
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ...api import AsyncGitBook, GitBookError, ReadMode, response_meta
from ..common.shared_work import SharedWork

if TYPE_CHECKING:
    from ...models import File
    from ..render import FileInfo

__all__ = ["SpaceFiles"]

# A space with more files than this still shows its pages; later files show no details.
MAX_FILES = 5000

MAX_AGE = 30 * 60
"""Seconds a space's file list (and its signed download URLs) is trusted for links."""


def _keys(file: File) -> list[str]:
    """The names a page may use for ``file``: its name and the file name of its Git path
    (pages refer to ``../.gitbook/assets/<name>``; the placeholder looks up the basename)."""
    keys = [file.name] if file.name else []
    if file.git is not None and file.git.path:
        keys.append(posixpath.basename(file.git.path))
    return keys


def _whole(value: float | None) -> int | None:
    return round(value) if value else None


class SpaceFiles:
    """Files of the spaces seen so far, read once per space (from the cache when allowed)."""

    def __init__(
        self, client: AsyncGitBook, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._client = client
        self.clock = clock
        self._by_space: dict[str, dict[str, File]] = {}
        self._read_at: dict[str, float] = {}  # on ``clock``: when the server wrote the list
        self._loading: SharedWork[tuple[str, ReadMode], None] = SharedWork()

    async def load(self, space_id: str, *, read: ReadMode = "prefer-cache") -> None:
        """Read the files of ``space_id`` unless known; a failure leaves them unknown
        (placeholders then show the name from the page only). A read already under way
        for the space is shared, not repeated."""
        if space_id in self._by_space:
            return
        await self._loading.run((space_id, read), lambda: self._read(space_id, read))

    async def _read(self, space_id: str, read: ReadMode) -> None:
        found: dict[str, File] = {}
        age = 0.0
        try:
            pager = self._client.content.files(space_id, limit=1000, max_items=MAX_FILES, read=read)
            async for page in pager.pages():
                meta = response_meta(page)
                if meta is not None and meta.source == "cache":
                    age = max(age, meta.age or 0.0)
                for file in page.items:
                    for key in _keys(file):
                        found.setdefault(key, file)
        except GitBookError:
            return
        self._by_space[space_id] = found
        self._read_at[space_id] = self.clock() - age

    def is_stale(self, space_id: str) -> bool:
        """Whether the files of ``space_id`` were read more than :data:`MAX_AGE` ago."""
        read_at = self._read_at.get(space_id)
        return read_at is not None and self.clock() - read_at > MAX_AGE

    async def refresh_if_stale(self, space_id: str) -> bool:
        """Read the files of ``space_id`` again from the server when the list is stale
        (its signed download URLs may have expired); whether it was read again."""
        if not self.is_stale(space_id):
            return False
        self._by_space.pop(space_id, None)
        self._read_at.pop(space_id, None)
        await self.load(space_id, read="network")
        return True

    def infos(self, space_id: str) -> Mapping[str, FileInfo] | None:
        """What the viewer's placeholders show: name, size, dimensions."""
        files = self._by_space.get(space_id)
        if files is None:
            return None
        from ..render.core import FileInfo  # (a page is shown: the engine is imported)

        return {
            key: FileInfo(
                name=file.name,
                size=file.size,
                width=_whole(file.dimensions.width if file.dimensions else None),
                height=_whole(file.dimensions.height if file.dimensions else None),
            )
            for key, file in files.items()
        }

    def download_url(self, space_id: str, path: str) -> str | None:
        """The download URL of the file a page refers to as ``path``, when known."""
        files = self._by_space.get(space_id) or {}
        name = posixpath.basename(path.split("?", 1)[0].split("#", 1)[0])
        file = files.get(name)
        return file.downloadURL if file is not None else None
