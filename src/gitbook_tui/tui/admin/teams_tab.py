"""TeamsTab: the organization's teams with their members and spaces; ``n`` creates one
(title, then members picked from the member list), ``e`` renames it and changes its
members, ``d`` deletes it (confirmed, naming who loses what)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType

from ..common.denial import gated
from ..common.filter_box import matches
from ..common.form_screen import FormField, Values
from ..common.text import plain
from .admin_changes import delete_team, save_team
from .admin_data import MemberRow, TeamRow, load_members, load_teams, team_delete_effect
from .admin_tab import AdminHost, AdminTab
from .member_picker_screen import MemberPickerScreen
from .row_table import Cell, Column

__all__ = ["TeamsTab"]


def _title_problem(values: Values) -> str | None:
    title = str(values.get("title", "")).strip()
    if not title:
        return "A team needs a title"
    return "At most 64 characters" if len(title) > 64 else None


class TeamsTab(AdminTab):
    """Teams of the organization, by title."""

    NAME = "teams"
    TITLE = "Teams"
    NOUN = ("team", "teams")
    COLUMNS: ClassVar[Sequence[Column]] = (
        Column("Team", 22),
        Column("Members", 7),
        Column("Spaces", 6),
        Column("Who", 30, grow=True),
    )
    ADMIN_ACTIONS = frozenset({"new", "edit", "delete"})
    DENIED = "Only organization admins can create, change or delete teams."

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New team", id="admin.teams.new"),
        Binding("e", "edit", "Edit team", id="admin.teams.edit"),
        Binding("d", "delete", "Delete team", id="admin.teams.delete"),
    ]

    def __init__(self, host: AdminHost) -> None:
        super().__init__(host)
        self.teams: list[TeamRow] = []
        self.members: list[MemberRow] = []
        self.names: dict[str, str] = {}

    @work(exclusive=True, group="admin-teams")
    async def load(self) -> None:
        try:
            self.teams = await load_teams(self.client, self.org_id)
            self.members = await load_members(self.client, self.org_id)
        except Exception as error:
            self.failed("the teams", error)
            return
        self.names = {m.id: m.name for m in self.members}
        self.loaded = True
        self.show(key=self.current_key())

    def total(self) -> int:
        return len(self.teams)

    def who(self, team: TeamRow) -> str:
        if team.member_ids is None:
            return "(members not listed for you)"
        return ", ".join(sorted(self.names.get(m, m) for m in team.member_ids)) or "nobody yet"

    def items(self) -> Sequence[tuple[str, Sequence[Cell]]]:
        found = []
        for t in self.teams:
            who = self.who(t)
            if not matches(self.needle, t.title, who):
                continue
            cells = ((t.title, "bold"), (str(t.members), ""), (str(t.spaces), ""), (who, "dim"))
            found.append((t.id, cells))
        return found

    def empty_text(self) -> str:
        return "No teams yet" + (" · n creates one" if self.host.is_admin else ".")

    def hint_text(self) -> str:
        return "n new · e edit · d delete" if self.host.is_admin else "read-only"

    def team(self, key: str | None) -> TeamRow | None:
        return next((t for t in self.teams if t.id == key), None)

    def open_row(self, key: str) -> None:
        if self.denial_reason("edit") is None:
            self.run_worker(self.action_edit())

    # -- actions ------------------------------------------------------------------------------
    @gated
    def action_new(self) -> None:
        def picked(chosen: list[str] | None) -> None:
            if chosen is not None:
                self.run_worker(self._title_form(None, chosen))

        self.app.push_screen(
            MemberPickerScreen("New team: its members", self.members, set()), picked
        )

    @gated
    async def action_edit(self) -> None:
        team = self.team(self.current_key())
        if team is None:
            return
        before = set(team.member_ids or ())

        def picked(chosen: list[str] | None) -> None:
            if chosen is not None:
                self.run_worker(self._title_form(team, chosen))

        title = f"{team.title}: its members"
        await self.app.push_screen(MemberPickerScreen(title, self.members, before), picked)

    async def _title_form(self, team: TeamRow | None, chosen: list[str]) -> None:
        """The title form; sending it creates the team, or renames it and applies the
        member changes."""
        names = ", ".join(self.names.get(m, m) for m in chosen) or "nobody"

        async def submit(values: Values) -> dict[str, str] | None:
            title = str(values["title"]).strip()
            try:
                key = await save_team(self.client, self.org_id, team, title, chosen)
            except Exception as error:
                return self.refusal(error, ["title"])
            verb = "Created" if team is None else "Saved"
            self.notify(plain(f"{verb} team {title} ({names})."), markup=False)
            self._reload_at(key)
            return None

        field = FormField(
            "title",
            f"Title (members: {names})",
            value=team.title if team else "",
            validate=_title_problem,
            max_length=64,
        )
        form_title = "New team" if team is None else f"Edit team · {team.title}"
        target = "team:new" if team is None else f"team:{team.id}"
        await self.open_form(form_title, [field], submit, target=target)

    def _reload_at(self, key: str) -> None:
        self.load()

    @gated
    def action_delete(self) -> None:
        team = self.team(self.current_key())
        if team is None:
            return

        def run() -> None:
            self._delete(team)

        self.confirm(
            f"Delete team {team.title}?", team_delete_effect(team, self.names), "Delete team", run
        )

    @work(group="admin-team-delete")
    async def _delete(self, team: TeamRow) -> None:
        try:
            await delete_team(self.client, self.org_id, team)
        except Exception as error:
            self.report(error, "Not deleted")
            return
        self.notify(plain(f"Deleted team {team.title}."), markup=False)
        self.load()
