"""TranslationsTab: the organization's translation settings (a title and the languages its
content is translated into); ``n`` creates, ``e`` edits, ``d`` deletes (confirmed)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType

from ..common.denial import gated
from ..common.filter_box import matches
from ..common.form_screen import FormField, Values
from ..common.text import plain
from .admin_data import ago
from .admin_tab import AdminHost, AdminTab
from .row_table import Cell, Column
from .translations_data import (
    TranslationRow,
    delete_effect,
    delete_translation,
    language_names,
    load_translations,
    parse_languages,
    save_translation,
)

__all__ = ["TranslationsTab"]


def _title_problem(values: Values) -> str | None:
    title = str(values.get("title", "")).strip()
    if not title:
        return "Translation settings need a title"
    return "At most 100 characters" if len(title) > 100 else None


def _languages_problem(values: Values) -> str | None:
    return parse_languages(str(values.get("languages", "")))[1]


def _languages_hint(values: Values) -> str:
    codes, problem = parse_languages(str(values.get("languages", "")))
    if problem is None and codes:
        return "→ " + language_names(codes)
    return "" if problem else "none: nothing is translated until a language is added"


class TranslationsTab(AdminTab):
    """Translation settings by title."""

    NAME = "translations"
    TITLE = "Translations"
    NOUN = ("translation setting", "translation settings")
    COLUMNS: ClassVar[Sequence[Column]] = (
        Column("Title", 28, grow=True),
        Column("State", 15),
        Column("Target languages", 30, grow=True),
        Column("Changed", 9),
    )
    ADMIN_ACTIONS = frozenset({"new", "edit", "delete"})
    DENIED = "Only organization admins create, change or delete translation settings."

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New", id="admin.translations.new"),
        Binding("e", "edit", "Edit", id="admin.translations.edit"),
        Binding("d", "delete", "Delete", id="admin.translations.delete"),
    ]

    def __init__(self, host: AdminHost) -> None:
        super().__init__(host)
        self.rows: list[TranslationRow] = []
        self.now = datetime.now(UTC)

    @work(exclusive=True, group="admin-translations")
    async def load(self) -> None:
        try:
            self.rows = await load_translations(self.client, self.org_id)
        except Exception as error:
            self.failed("the translation settings", error)
            return
        self.now = datetime.now(UTC)
        self.loaded = True
        self.show(key=self.current_key())

    def total(self) -> int:
        return len(self.rows)

    def items(self) -> Sequence[tuple[str, Sequence[Cell]]]:
        found = []
        for r in self.rows:
            names = language_names(r.languages)
            if not matches(self.needle, r.title, names):
                continue
            cells = (
                (r.title, "bold"),
                (r.state, "" if r.languages else "dim"),
                (names or "—", "" if r.languages else "dim"),
                (ago(r.updated, self.now), "dim"),
            )
            found.append((r.id, cells))
        return found

    def empty_text(self) -> str:
        return "No translation settings yet" + (" · n creates one" if self.host.is_admin else ".")

    def hint_text(self) -> str:
        return "n new · e edit · d delete" if self.host.is_admin else "read-only"

    def row(self, key: str | None) -> TranslationRow | None:
        return next((r for r in self.rows if r.id == key), None)

    def open_row(self, key: str) -> None:
        if self.denial_reason("edit") is None:
            self.run_worker(self.action_edit())

    # -- actions --------------------------------------------------------------------------------
    @gated
    async def action_new(self) -> None:
        await self._form(None)

    @gated
    async def action_edit(self) -> None:
        row = self.row(self.current_key())
        if row is not None:
            await self._form(row)

    async def _form(self, row: TranslationRow | None) -> None:
        """The settings form: sending it creates them, or replaces their title and languages."""

        async def submit(values: Values) -> dict[str, str] | None:
            title = str(values["title"]).strip()
            codes, problem = parse_languages(str(values["languages"]))
            if problem:
                return {"languages": problem}
            try:
                await save_translation(self.client, self.org_id, row, title, codes)
            except Exception as error:
                return self.refusal(error, ["title", "languages"])
            into = f" (into {language_names(codes)})" if codes else ""
            verb = "Created" if row is None else "Saved"
            self.notify(plain(f"{verb} the translation settings {title}{into}."), markup=False)
            self.load()
            return None

        fields = [
            FormField(
                "title",
                "Title",
                value=row.title if row else "",
                validate=_title_problem,
                max_length=100,
            ),
            FormField(
                "languages",
                "Target languages (codes or names, e.g. ja, de)",
                value=" ".join(row.languages) if row else "",
                validate=_languages_problem,
                hint=_languages_hint,
            ),
        ]
        title = "New translation settings" if row is None else f"Edit · {row.title}"
        target = "translation:new" if row is None else f"translation:{row.id}"
        await self.open_form(title, fields, submit, target=target)

    @gated
    def action_delete(self) -> None:
        row = self.row(self.current_key())
        if row is None:
            return

        def run() -> None:
            self._delete(row)

        self.confirm(f"Delete “{row.title}”?", delete_effect(row), "Delete", run)

    @work(group="admin-translation-delete")
    async def _delete(self, row: TranslationRow) -> None:
        try:
            await delete_translation(self.client, self.org_id, row)
        except Exception as error:
            self.report(error, "Not deleted")
            return
        self.notify(plain(f"Deleted the translation settings {row.title}."), markup=False)
        self.load()
