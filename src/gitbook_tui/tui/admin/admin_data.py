"""Admin data: an organization's members, teams and invites as rows, loaded and changed
through the client, with the wording of what a change does (no Textual here)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ...api import AsyncGitBook
from ...api.errors import APIStatusError, NotFoundError, PermissionDeniedError
from ...markdown.sanitize import clean_text
from ...models import Invite, Member, Organization, Team

__all__ = [
    "ROLES",
    "InviteOutcome",
    "LinkInvite",
    "MemberRow",
    "TeamRow",
    "ago",
    "check_emails",
    "filter_members",
    "load_link_invites",
    "load_members",
    "load_teams",
    "member_row",
    "removal_effect",
    "role_change_effect",
    "role_rank",
    "send_invites",
    "team_delete_effect",
]

ROLES = ("admin", "create", "edit", "review", "comment", "read")
"""The organization roles, strongest first."""

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")


def count_of(count: int, noun: str) -> str:
    """``1 space``, ``3 spaces`` (the kit's helper lives beside Textual: this module is
    kept free of it)."""
    return f"{count} {noun if count == 1 else noun + 's'}"


def role_rank(role: str | None) -> int:
    """Higher is stronger; a guest (``None``) or an unknown role is -1."""
    return len(ROLES) - ROLES.index(role) if role in ROLES else -1


def ago(when: datetime | None, now: datetime | None = None) -> str:
    """ "today", "3d ago", "5w ago", "2y ago" ("never" for ``None``)."""
    if when is None:
        return "never"
    now = now or datetime.now(UTC)
    days = (now - when).total_seconds() / 86400
    if days < 1:
        return "today"
    for size, unit in ((365, "y"), (30, "mo"), (7, "w")):
        if days >= size * 2 or (unit == "w" and days >= 14):
            return f"{int(days // size)}{unit} ago"
    return f"{int(days)}d ago"


@dataclass(frozen=True)
class MemberRow:
    """One member as the Members tab lists it (server text already cleaned)."""

    id: str
    name: str
    email: str
    role: str | None
    last_seen: datetime | None
    sso: bool
    disabled: bool
    pending: bool
    spaces: int
    teams: int
    hay: str = field(repr=False, default="")
    """Lower-case text the filter searches (name, email, role and flags)."""

    @property
    def role_text(self) -> str:
        return self.role or "guest"

    @property
    def flags(self) -> str:
        parts = ["SSO" if self.sso else "", "disabled" if self.disabled else ""]
        parts.append("invited" if self.pending else "")
        return " ".join(p for p in parts if p)


def member_row(member: Member) -> MemberRow:
    user = member.user
    name = clean_text(user.displayName if user and user.displayName else member.id)
    email = clean_text(user.email if user and user.email else "")
    role = str(member.role) if member.role is not None else None
    pending = member.lastSeenAt is None  # invited by email, never signed in
    row = MemberRow(
        id=member.id,
        name=name,
        email=email,
        role=role,
        last_seen=member.lastSeenAt,
        sso=bool(member.sso),
        disabled=bool(member.disabled),
        pending=pending,
        spaces=int(member.spaces or 0),
        teams=int(member.teams or 0),
    )
    hay = f"{name} {email} {role or 'guest'} {row.flags}".lower()
    return MemberRow(**{**row.__dict__, "hay": hay})


def filter_members(rows: list[MemberRow], needle: str, role: str = "") -> list[MemberRow]:
    """The rows matching every word of ``needle`` (and ``role`` when given): one pass of
    substring tests over pre-lowered text, ~2 ms for 5,000 members."""
    words = needle.lower().split()
    if role:
        want = None if role == "guest" else role
        rows = [r for r in rows if r.role == want]
    if not words:
        return rows
    if len(words) == 1:  # a keystroke's usual case: one test per row, no generator
        word = words[0]
        return [r for r in rows if word in r.hay]
    return [r for r in rows if all(w in r.hay for w in words)]


async def load_members(client: AsyncGitBook, org_id: str) -> list[MemberRow]:
    """Every member, by name."""
    members = await client.orgs.members(org_id, limit=1000).to_list()
    rows = [member_row(m) for m in members]
    rows.sort(key=lambda r: (r.name.lower(), r.id))
    return rows


def role_change_effect(row: MemberRow, role: str | None) -> str:
    """What changing ``row``'s role to ``role`` does, in one sentence."""
    new = role or "guest"
    if role == "admin":
        return (
            f"{row.name} becomes an organization admin: they can change every space, "
            "member, team, invite and integration, and remove other admins."
        )
    if row.role == "admin":
        return f"{row.name} is no longer an admin: their role becomes {new}."
    verb = "raises" if role_rank(role) > role_rank(row.role) else "lowers"
    return f"This {verb} {row.name}'s organization role from {row.role_text} to {new}."


def removal_effect(row: MemberRow, spaces: list[str]) -> str:
    """What removing ``row`` from the organization takes away (``spaces``: the titles of
    the spaces they can reach now)."""
    what = [count_of(len(spaces), "space")]
    if row.teams:
        what.append(f"their {count_of(row.teams, 'team')}")
    shown = ", ".join(spaces[:3]) + (", …" if len(spaces) > 3 else "")
    listing = f" ({shown})" if spaces else ""
    return (
        f"{row.name} loses access to {' and '.join(what)}{listing}. Their direct grants "
        "go; what they wrote stays. They can be invited again."
    )


# -- teams ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TeamRow:
    """A team, its member ids (``None``: the server would not list them) and its spaces."""

    id: str
    title: str
    members: int
    spaces: int
    member_ids: tuple[str, ...] | None
    admin: bool


def team_delete_effect(team: TeamRow, names: dict[str, str]) -> str:
    people = [names.get(m, m) for m in team.member_ids or ()]
    shown = ", ".join(people[:3]) + (", …" if len(people) > 3 else "")
    who = f" ({shown})" if people else ""
    return (
        f"“{team.title}” is deleted with its grants on {count_of(team.spaces, 'space')}: "
        f"its {count_of(team.members, 'member')}{who} lose what the team gave them."
    )


async def _team_members(client: AsyncGitBook, org_id: str, team: Team) -> tuple[str, ...] | None:
    try:
        members = await client.org_admin.team_members(org_id, team.id, limit=1000).to_list()
    except (PermissionDeniedError, NotFoundError):
        return None
    return tuple(m.organization.id for m in members if m.organization is not None)


async def load_teams(client: AsyncGitBook, org_id: str) -> list[TeamRow]:
    """Every team with its members, by title."""
    teams = await client.org_admin.teams(org_id, limit=1000).to_list()
    members = await asyncio.gather(*(_team_members(client, org_id, t) for t in teams))
    rows = [
        TeamRow(
            id=t.id,
            title=clean_text(t.title or t.id),
            members=int(t.members or 0),
            spaces=int(t.spaces or 0),
            member_ids=ids,
            admin=bool(t.permissions and t.permissions.admin),
        )
        for t, ids in zip(teams, members, strict=True)
    ]
    rows.sort(key=lambda r: (r.title.lower(), r.id))
    return rows


# -- invites ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class LinkInvite:
    """A link invite: the role whoever joins gets, and the link to share."""

    id: str
    role: str | None
    redundant: bool
    link: str


def _link(org: Organization | None, org_id: str, invite: Invite) -> str:
    """Where someone joins with the invite: the organization's web address + /invite/<id>
    (the API joins with ``POST …/invites/{inviteId}``; the web app serves this link)."""
    app = org.urls.app if org is not None and org.urls is not None and org.urls.app else ""
    base = app.rstrip("/") or f"https://app.gitbook.com/o/{org_id}"
    return f"{base}/invite/{invite.id}"


async def load_link_invites(
    client: AsyncGitBook, org_id: str, org: Organization | None
) -> list[LinkInvite]:
    invites = await client.org_admin.link_invites(org_id, limit=1000).to_list()
    return [
        LinkInvite(
            id=i.id,
            role=str(i.role) if i.role is not None else None,
            redundant=bool(i.redundant),
            link=_link(org, org_id, i),
        )
        for i in invites
    ]


@dataclass
class InviteOutcome:
    """What an email invite did: who was invited, and each refused address and why."""

    invited: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    """Invited, but not as asked (SSO refused)."""

    def summary(self) -> str:
        parts = []
        if self.invited:
            parts.append(f"Invited {', '.join(self.invited)}.")
        parts += [f"{email}: {note}." for email, note in self.notes]
        parts += [f"Not invited {email}: {why}." for email, why in self.refused]
        return " ".join(parts) or "Nobody was invited."


def check_emails(text: str, members: list[MemberRow]) -> tuple[list[str], InviteOutcome]:
    """Split the typed addresses (commas, spaces or lines): the ones to send, and the ones
    refused before sending (not an address, typed twice, already a member)."""
    known = {m.email.lower() for m in members if m.email}
    outcome = InviteOutcome()
    send: list[str] = []
    seen: set[str] = set()
    for email in (e for e in re.split(r"[\s,;]+", text) if e):
        key = email.lower()
        if not _EMAIL.match(email):
            outcome.refused.append((email, "not an email address"))
        elif key in seen:
            continue
        elif key in known:
            outcome.refused.append((email, "already a member"))
        else:
            send.append(email)
        seen.add(key)
    return send, outcome


async def send_invites(
    client: AsyncGitBook,
    org_id: str,
    emails: list[str],
    role: str | None,
    sso: bool,
    outcome: InviteOutcome,
) -> InviteOutcome:
    """Invite ``emails`` with ``role``; addresses the server invited without SSO are
    reported as refused for SSO (the organization does not enforce it)."""
    if not emails:
        return outcome
    try:
        result = await client.org_admin.invite(org_id, list(emails), role=role, sso=sso)
    except APIStatusError as error:
        why = clean_text(error.message)
        outcome.refused += [(e, f"{why} [{error.status}]") for e in emails]
        return outcome
    failed = {e.lower() for e in result.failedSSOEmails}
    for email in emails:
        outcome.invited.append(email)
        if email.lower() in failed:
            outcome.notes.append((email, "SSO refused (not set up here): invited without SSO"))
    return outcome
