"""RedirectEditing: the redirects pane's editing, composed into it — the new and edit form,
live/draft (optimistic, undone if refused) and delete (what is sent:
:mod:`.redirect_data`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from ..common.confirm_screen import ConfirmScreen
from ..common.form_screen import Values
from .redirect_actions import redirect_fields
from .redirect_data import delete_redirect, save_redirect, set_draft
from .redirect_rules import RedirectEntry, shown_source
from .site_pane import PaneHost, when_confirmed

__all__ = ["RedirectEditing", "RedirectsHost"]


class RedirectsHost(PaneHost, Protocol):
    """What the editing and the tools need of the redirects pane
    (:class:`.redirects_pane.RedirectsPane`): the selection, the rows and their refresh."""

    @property
    def current(self) -> RedirectEntry | None:
        """The redirect under the cursor."""
        ...

    @property
    def redirects(self) -> list[RedirectEntry]: ...

    def render_rows(self, keep: str | None = None) -> None:
        """Show the redirects again, the cursor on ``keep`` (an id)."""
        ...

    async def refresh_redirects(self, keep: str | None = None) -> None:
        """Load the redirects again and show them."""
        ...


class RedirectEditing:
    """The editing of a redirects pane (``host``)."""

    def __init__(self, host: RedirectsHost) -> None:
        self.host = host

    async def open_form(
        self,
        entry: RedirectEntry | None,
        destination: str | None = None,
        done: Callable[[], None] | None = None,
    ) -> None:
        """The new or edit form (``destination``: a suggestion); ``done`` runs once the
        server accepted it and the table shows it."""
        host = self.host
        site = host.data.site_map if host.data else None
        if site is None:
            return

        async def submit(values: Values) -> dict[str, str] | None:
            dest = site.destination_at(values["destination"])
            if dest is None:
                return {"destination": "No page at this path."}
            try:
                keep = await save_redirect(
                    host.client,
                    host.org_id,
                    host.site.id,
                    entry,
                    values["source"],
                    dest,
                    permanent=values["permanent"],
                    draft=values["draft"],
                    wildcard=values["wildcard"],
                )
            except Exception as error:
                return host.refusal(error, ["source", "destination"])
            await host.refresh_redirects(keep)
            return None

        title = "New redirect" if entry is None else f"Edit redirect {shown_source(entry)}"
        target = "redirect:new" if entry is None else f"redirect:{entry.id}"

        def closed(values: Values | None) -> None:
            if values is not None and done is not None:
                done()

        await host.open_form(
            title,
            redirect_fields(site, host.redirects, entry, destination),
            submit,
            target=target,
            on_done=closed,
        )

    def toggle_draft(self, entry: RedirectEntry) -> None:
        """A draft goes live, a live redirect back to draft (shown at once, undone if
        refused)."""
        self.host.run_worker(self._toggle_draft(entry), group="redirects-edit")

    async def _toggle_draft(self, entry: RedirectEntry) -> None:
        host = self.host
        data = host.data
        if data is None:
            return
        flipped = replace(entry, draft=not entry.draft)
        data.redirects = [flipped if e.id == entry.id else e for e in data.redirects]
        host.render_rows(entry.id)
        try:
            await set_draft(host.client, host.org_id, host.site.id, entry.id, flipped.draft)
        except Exception as error:
            data.redirects = [entry if e.id == entry.id else e for e in data.redirects]
            host.render_rows(entry.id)
            host.report(error)
            return
        host.notify(f"{entry.source} is now {'a draft' if flipped.draft else 'live'}.", timeout=3)

    async def confirm_delete(
        self, entry: RedirectEntry, done: Callable[[], None] | None = None
    ) -> None:
        host = self.host
        label = host.data.site_map.label_of(entry.destination) if host.data else ""
        effect = (
            f"Deletes the redirect {shown_source(entry)} → {label}. Visitors of {entry.source} will "
            "get the page at that path, or “page not found”. There is no undo."
        )
        await host.app.push_screen(
            ConfirmScreen("Delete redirect?", effect, confirm_label="Delete"),
            when_confirmed(lambda: self._start_delete(entry, done)),
        )

    def _start_delete(self, entry: RedirectEntry, done: Callable[[], None] | None) -> None:
        self.host.run_worker(self._delete(entry, done), group="redirects-edit")

    async def _delete(self, entry: RedirectEntry, done: Callable[[], None] | None) -> None:
        host = self.host
        try:
            await delete_redirect(host.client, host.org_id, host.site.id, entry.id)
        except Exception as error:
            host.report(error)
            return
        await host.refresh_redirects()
        if done is not None:
            done()
