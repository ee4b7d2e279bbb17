"""SpaceFiles: the files of each space, for placeholder details and file-link URLs."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from ...api import AsyncGitBook, GitBookError, ReadMode
from ...models import File
from ..common.shared_work import SharedWork
from ..render import FileInfo

__all__ = ["SpaceFiles"]

# A space with more files than this still shows its pages; later files show no details.
MAX_FILES = 5000


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

    def __init__(self, client: AsyncGitBook) -> None:
        self._client = client
        self._by_space: dict[str, dict[str, File]] = {}
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
        try:
            pager = self._client.content.files(space_id, limit=1000, max_items=MAX_FILES, read=read)
            async for file in pager:
                for key in _keys(file):
                    found.setdefault(key, file)
        except GitBookError:
            return
        self._by_space[space_id] = found

    def infos(self, space_id: str) -> Mapping[str, FileInfo] | None:
        """What the viewer's placeholders show: name, size, dimensions."""
        files = self._by_space.get(space_id)
        if files is None:
            return None
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
