"""Edit a text in the user's ``$VISUAL``/``$EDITOR``: suspend the app, edit a 0600 temp file.

API (shared by every composer)::

    text = await edit_externally(app, text)   # None: no editor, it failed, or nothing changed

The text is written to a private temp file (``mkstemp``: mode 0600, removed afterwards),
the app is suspended with :meth:`App.suspend` (the terminal goes to the editor — this works
over SSH), the editor runs as ``shlex.split($VISUAL or $EDITOR) + [path]``, and the file's
text comes back once it exits 0. Where the driver cannot suspend (headless tests) the
editor still runs, without suspending. Raises :class:`ExternalEditorError` with a message
worth showing when no editor is set or it cannot be started.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import subprocess
import tempfile
from collections.abc import Iterator, Mapping

from textual.app import App, SuspendNotSupported

__all__ = ["ExternalEditorError", "edit_externally", "editor_command"]


class ExternalEditorError(Exception):
    """The external editor could not be used (the message says why)."""


def editor_command(environ: Mapping[str, str] | None = None) -> list[str] | None:
    """The editor to run: ``$VISUAL``, else ``$EDITOR`` (split like a shell would)."""
    env = os.environ if environ is None else environ
    for name in ("VISUAL", "EDITOR"):
        value = env.get(name, "").strip()
        if value:
            try:
                return shlex.split(value)
            except ValueError:
                continue
    return None


@contextlib.contextmanager
def _suspended(app: App[object]) -> Iterator[None]:
    try:
        with app.suspend():
            yield
    except SuspendNotSupported:  # headless (tests) or a web driver: run it as is
        yield


async def edit_externally(app: App[object], text: str, *, suffix: str = ".md") -> str | None:
    """``text`` edited in the external editor; ``None`` if the editor exited non-zero."""
    command = editor_command()
    if command is None:
        raise ExternalEditorError("Set $VISUAL or $EDITOR to edit in an external editor.")
    fd, name = tempfile.mkstemp(prefix="gitbook-tui-draft-", suffix=suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        try:
            with _suspended(app):
                # Blocking on purpose: the app is suspended and the terminal is the editor's.
                result = subprocess.run([*command, name], check=False)
        except OSError as exc:
            raise ExternalEditorError(f"Could not start {command[0]}: {exc.strerror}") from None
        if result.returncode != 0:
            return None
        with open(name, encoding="utf-8", errors="replace") as handle:
            edited = handle.read()
        return edited
    finally:
        with contextlib.suppress(OSError):
            os.unlink(name)
        await asyncio.sleep(0)
