"""SitePane: what the editor's tabs share — the site, the client, permission reasons,
forms whose drafts survive a restart, and errors that name the server."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from textual.app import App
from textual.widget import Widget

from ...api import AsyncGitBook
from ...api.errors import APIStatusError
from ...drafts import Debouncer, DraftKey
from ...drafts.keys import SITE_FORM
from ...models import Site
from ..common.form_screen import FormField, FormScreen, Submit, ToolForm, Values, restored_values
from ..common.screen_host import ScreenHost
from .site_data import SiteData
from .site_text import edit_denied, error_text, field_errors

__all__ = ["PaneHost", "SiteEditor", "SitePane", "changed", "when_confirmed"]


class SiteEditor(Protocol):
    """What a tab needs of the site editor holding it (:class:`.site_editor_screen.SiteEditorScreen`)."""

    site: Site
    data: SiteData | None
    drafts: Debouncer

    @property
    def client(self) -> AsyncGitBook: ...

    @property
    def org_id(self) -> str: ...

    def set_site(self, site: Site) -> None: ...

    def reload(self) -> object:
        """Load the site's data again (a worker)."""
        ...


class PaneHost(ScreenHost, Protocol):
    """What a pane's helper (its editing, its tools) needs of the pane holding it
    (:class:`SitePane`)."""

    editor: SiteEditor

    @property
    def app(self) -> App[object]: ...

    @property
    def site(self) -> Site: ...

    @property
    def data(self) -> SiteData | None: ...

    @property
    def client(self) -> AsyncGitBook: ...

    @property
    def org_id(self) -> str: ...

    def report(self, error: BaseException) -> None: ...

    def refusal(self, error: Exception, names: Sequence[str]) -> dict[str, str]: ...

    async def open_form(
        self,
        title: str,
        fields: Sequence[FormField],
        submit: Submit,
        *,
        target: str,
        on_done: Any = None,
        tool: type[ToolForm] | None = None,
    ) -> None: ...

    def denial_reason(self, action: str) -> str | None: ...


class SitePane(Widget):
    """A tab of the site editor."""

    DEFAULT_CSS = "SitePane { height: 1fr; }"

    EDIT_ACTIONS: frozenset[str] = frozenset()
    """Actions that change the site (denied without the create role)."""

    def __init__(self, editor: SiteEditor, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.editor = editor

    @property
    def site(self) -> Site:
        return self.editor.site

    @property
    def data(self) -> SiteData | None:
        return self.editor.data

    @property
    def client(self) -> AsyncGitBook:
        return self.editor.client

    @property
    def org_id(self) -> str:
        return self.editor.org_id

    def focus_main(self) -> None:
        """Focus the pane's main widget."""

    def denial_reason(self, action: str) -> str | None:
        if action in self.EDIT_ACTIONS:
            return edit_denied(self.site)
        return None

    def report(self, error: BaseException) -> None:
        """A refusal or failure, naming the server; stays until dismissed."""
        self.notify(
            error_text(error, self.client.base_url),
            title="Not saved",
            severity="error",
            timeout=10,
            markup=False,
        )

    def draft_key(self, target: str) -> DraftKey:
        return DraftKey(kind=SITE_FORM, site=self.site.id, target=target)

    async def open_form(
        self,
        title: str,
        fields: Sequence[FormField],
        submit: Submit,
        *,
        target: str,
        on_done: Any = None,
        tool: type[ToolForm] | None = None,
    ) -> None:
        """Open a form, restoring its draft (``target`` names what it edits); a ``tool``
        form (test, import, export) keeps no draft."""
        if tool is not None:
            await self.app.push_screen(tool(title, fields, submit), on_done)
            return
        key = self.draft_key(target)
        draft = await self.editor.drafts.load(key)
        restored = restored_values(draft.extra) if draft is not None else None
        if restored:
            self.notify("Restored the draft of this form.", timeout=3)
        screen = FormScreen(
            title, fields, submit, draft_key=key, drafts=self.editor.drafts, restored=restored
        )
        await self.app.push_screen(screen, on_done)

    @staticmethod
    def refusal(error: Exception, names: Sequence[str]) -> dict[str, str]:
        """Errors by field of a failed send (anything but a 4xx goes on top of the form)."""
        if isinstance(error, APIStatusError) and 400 <= error.status < 500:
            found = field_errors(error, names)
            return {k or "": f"{v} [{error.status}]" for k, v in found.items()}
        return {"": error_text(error)}


def when_confirmed(run: Callable[[], object]) -> Callable[[bool | None], None]:
    """A screen callback that runs ``run`` only when the screen answered ``True``."""

    def done(ok: bool | None) -> None:
        if ok:
            run()

    return done


def changed(values: Values, before: dict[str, Any]) -> dict[str, Any]:
    """The values that differ from ``before``."""
    return {k: v for k, v in values.items() if before.get(k) != v}
