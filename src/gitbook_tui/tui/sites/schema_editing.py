"""The adaptive schema edited in $EDITOR: fetched, edited, checked with jsonschema, sent.

A schema that does not pass the checks (or that the server refuses) is kept as a draft of
the site's form ``adaptive-schema`` and shown with its problems; the next ``E`` starts from
that text, so nothing typed is lost. The draft goes once the server accepted the schema.
"""

from __future__ import annotations

from textual.content import Content

from ..common.external_editor import ExternalEditorError, edit_externally
from ..common.text import inert
from .report_screen import ReportScreen
from .schema_check import schema_problems
from .settings_data import save_schema, schema_text
from .site_pane import SitePane

__all__ = ["edit_schema"]

TARGET = "adaptive-schema"


async def edit_schema(pane: SitePane) -> None:
    """Run the whole edit from the settings pane (``E``)."""
    key = pane.draft_key(TARGET)
    drafts = pane.editor.drafts
    draft = await drafts.load(key)
    if draft is not None:
        text = draft.text
        pane.notify("Continuing the schema you were editing.", timeout=3)
    else:
        try:
            text = await schema_text(pane.client, pane.org_id, pane.site.id)
        except Exception as error:
            pane.report(error)
            return
    try:
        edited = await edit_externally(pane.app, text, suffix=".json")
    except ExternalEditorError as error:
        pane.notify(str(error), title="$EDITOR", severity="warning", markup=False)
        return
    if edited is None or (edited == text and draft is None):
        pane.notify("Schema unchanged.", timeout=3)
        return
    schema, problems = schema_problems(edited)
    if schema is None or problems:
        await _keep(pane, edited, problems)
        return
    try:
        await save_schema(pane.client, pane.org_id, pane.site.id, schema)
    except Exception as error:
        await _keep(pane, edited, [str(getattr(error, "message", error))])
        return
    await drafts.discard(key)
    pane.notify("Adaptive schema saved.", timeout=3)


async def _keep(pane: SitePane, text: str, problems: list[str]) -> None:
    drafts = pane.editor.drafts
    drafts.schedule(pane.draft_key(TARGET), text, title="Adaptive schema")
    await drafts.flush(pane.draft_key(TARGET))
    body = Content("\n").join(
        [
            Content.styled("The schema was not sent:", "bold $error"),
            *(inert(f"• {p}") for p in problems),
            Content(""),
            inert("Your text is kept: press E to continue editing it."),
        ]
    )
    await pane.app.push_screen(ReportScreen("Adaptive schema", body))
