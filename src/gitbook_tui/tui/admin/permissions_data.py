"""Permissions data: a space's or collection's direct grants, everyone with access and where
each person's access comes from, and the wording of a grant's change (no Textual here)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Literal

from ...api import AsyncGitBook
from ...markdown.sanitize import clean_text
from ...models import Collection, PermissionEntry, Space, TeamGrant
from .admin_data import MemberRow, TeamRow, load_members, load_teams, role_rank

__all__ = [
    "Access",
    "Grant",
    "Holder",
    "PermissionsData",
    "Target",
    "TargetKind",
    "grant_effect",
    "ids",
    "load_permissions",
    "page_title",
    "removal_effect",
    "remove_grant",
    "resolve_holder",
    "send_grant",
]

TargetKind = Literal["space", "collection"]
HolderKind = Literal["user", "team"]


@dataclass(frozen=True)
class Target:
    """What the tab shows the permissions of; ``page_id``: the page the question was asked
    about (a page's access is its space's)."""

    kind: TargetKind
    id: str
    page_id: str | None = None


@dataclass(frozen=True)
class Grant:
    """A direct grant on the target: to a user or a team, with its role."""

    kind: HolderKind
    id: str
    name: str
    detail: str
    """The user's email, or how many members the team has."""
    role: str


@dataclass(frozen=True)
class Access:
    """One person who can access the target: the effective role (the server's) and where it
    comes from, strongest first."""

    user_id: str
    name: str
    email: str
    role: str
    via: tuple[str, ...]


@dataclass(frozen=True)
class Holder:
    """Who a new grant would go to (a member or a team, as typed in the grant form)."""

    kind: HolderKind
    id: str
    name: str


@dataclass
class PermissionsData:
    """Everything the Permissions tab lists for one target."""

    target: Target
    title: str
    page_title: str
    chain: list[str]
    """The titles of the collections above the target, nearest first."""
    inherited: str
    """What members get without a grant, and where that is set."""
    can_admin: bool
    grants: list[Grant] = field(default_factory=list)
    everyone: list[Access] = field(default_factory=list)
    members: list[MemberRow] = field(default_factory=list)
    teams: list[TeamRow] = field(default_factory=list)

    @property
    def what(self) -> str:
        """``space “Guide”`` / ``collection “Product docs”``."""
        return f"{self.target.kind} “{self.title}”"

    def grant_of(self, kind: HolderKind, holder_id: str) -> Grant | None:
        return next((g for g in self.grants if g.kind == kind and g.id == holder_id), None)

    def access_of(self, user_id: str) -> Access | None:
        return next((a for a in self.everyone if a.user_id == user_id), None)


@dataclass
class _Level:
    """One item of the target's lineage: its title, default level and grants."""

    title: str
    default: str | None
    users: dict[str, str]
    teams: dict[str, str]


def ids(kind: TargetKind, item_id: str) -> tuple[str | None, str | None]:
    """(space id, collection id): what the permission operations take (one of them)."""
    return (item_id, None) if kind == "space" else (None, item_id)


async def _item(client: AsyncGitBook, kind: TargetKind, item_id: str) -> Space | Collection:
    if kind == "space":
        return await client.spaces.get(item_id)
    return await client.collections.get(item_id)


async def _grants(
    client: AsyncGitBook, kind: TargetKind, item_id: str
) -> tuple[list[PermissionEntry], list[TeamGrant]]:
    space, coll = ids(kind, item_id)
    users, teams = await asyncio.gather(
        client.permissions.list_users(space_id=space, collection_id=coll, limit=1000).to_list(),
        client.permissions.list_teams(space_id=space, collection_id=coll, limit=1000).to_list(),
    )
    return users, teams


def _level(
    title: str, default: object, users: list[PermissionEntry], teams: list[TeamGrant]
) -> _Level:
    return _Level(
        title=title,
        default=str(default) if default is not None else None,
        users={e.user.id: str(e.permission or "read") for e in users if e.user is not None},
        teams={g.team.id: str(g.permission or "read") for g in teams if g.team is not None},
    )


def _inherited(levels: list[_Level], kind: TargetKind) -> tuple[str, int]:
    """What members get without a grant, and how many lineage levels count for them (the
    server stops climbing at the first default level set)."""
    for depth, level in enumerate(levels):
        if level.default is not None:
            where = f"set on this {kind}" if depth == 0 else f"from collection “{level.title}”"
            return f"members get {level.default} ({where})", depth + 1
    return "members get their organization role (organization default)", len(levels)


def _sources(
    user: str,
    org_role: str | None,
    levels: list[_Level],
    member_depth: int,
    teams_of: dict[str, list[TeamRow]],
    public: bool,
) -> list[tuple[str, str]]:
    """(role, where) of everything that gives ``user`` access, as the server adds it up."""
    if org_role == "admin":
        return [("admin", "organization admin")]
    found: list[tuple[str, str]] = []
    depth = member_depth if org_role is not None else len(levels)
    for index, level in enumerate(levels[:depth]):
        on = "" if index == 0 else f"collection “{level.title}”: "
        if user in level.users:
            found.append((level.users[user], f"{on}direct" if on else "direct"))
        for team in teams_of.get(user, []):
            if team.id in level.teams:
                found.append((level.teams[team.id], f"{on}team {team.title}"))
    if org_role is not None:
        default = next((lv.default for lv in levels[:depth] if lv.default is not None), org_role)
        found.append((default, "organization default"))
    if public and not found:
        found.append(("read", "public link"))
    found.sort(key=lambda f: -role_rank(f[0]))
    return found


def _via(role: str, where: str) -> str:
    return where if where == "organization admin" else f"{where} ({role})"


async def load_permissions(
    client: AsyncGitBook, org_id: str, target: Target, page_title: str = ""
) -> PermissionsData:
    """The target, the collections above it, their grants, the members and teams, and
    everyone with access (the aggregate operation) with where it comes from."""
    item = await _item(client, target.kind, target.id)
    chain: list[Collection] = []
    parent = item.parent
    while parent and parent not in {c.id for c in chain} and len(chain) < 16:
        chain.append(await client.collections.get(parent))
        parent = chain[-1].parent
    kinds: list[tuple[TargetKind, str]] = [(target.kind, item.id)]
    kinds += [("collection", c.id) for c in chain]
    space, coll = ids(target.kind, item.id)
    found, aggregate, members, teams = await asyncio.gather(
        asyncio.gather(*(_grants(client, k, i) for k, i in kinds)),
        client.permissions.aggregate(space_id=space, collection_id=coll, limit=1000).to_list(),
        load_members(client, org_id),
        load_teams(client, org_id),
    )
    levels = [
        _level(clean_text(x.title or x.id), x.defaultLevel, users, tgrants)
        for x, (users, tgrants) in zip([item, *chain], found, strict=True)
    ]
    inherited, member_depth = _inherited(levels, target.kind)
    by_id = {m.id: m for m in members}
    team_by_id = {t.id: t for t in teams}
    teams_of: dict[str, list[TeamRow]] = {}
    for team in teams:
        for member in team.member_ids or ():
            teams_of.setdefault(member, []).append(team)
    public = isinstance(item, Space) and str(item.visibility) in ("public", "unlisted")
    data = PermissionsData(
        target=target,
        title=levels[0].title,
        page_title=page_title,
        chain=[lv.title for lv in levels[1:]],
        inherited=inherited,
        can_admin=bool(item.permissions and item.permissions.admin),
        members=members,
        teams=teams,
    )
    for entry in found[0][0]:
        if entry.user is None:
            continue
        row = by_id.get(entry.user.id)
        name = row.name if row else clean_text(entry.user.displayName or entry.user.id)
        email = row.email if row else clean_text(entry.user.email or "")
        data.grants.append(Grant("user", entry.user.id, name, email, str(entry.permission)))
    for tgrant in found[0][1]:
        if tgrant.team is None:
            continue
        team_row = team_by_id.get(tgrant.team.id)
        title = team_row.title if team_row else clean_text(tgrant.team.title or tgrant.team.id)
        size = f"{team_row.members} members" if team_row else "team"
        data.grants.append(Grant("team", tgrant.team.id, title, size, str(tgrant.permission)))
    data.grants.sort(key=lambda g: (g.kind, g.name.lower()))
    for entry in aggregate:
        if entry.user is None:
            continue
        user = entry.user
        row = by_id.get(user.id)
        org_role = row.role if row is not None and not row.disabled else None
        sources = _sources(user.id, org_role, levels, member_depth, teams_of, public)
        data.everyone.append(
            Access(
                user_id=user.id,
                name=row.name if row else clean_text(user.displayName or user.id),
                email=row.email if row else clean_text(user.email or ""),
                role=str(entry.permission),
                via=tuple(_via(role, where) for role, where in sources),
            )
        )
    data.everyone.sort(key=lambda a: (-role_rank(a.role), a.name.lower()))
    return data


# -- wording ----------------------------------------------------------------------------------
def resolve_holder(text: str, data: PermissionsData) -> tuple[Holder | None, str]:
    """The member (by email or name) or team (by title) ``text`` names, or why none."""
    needle = text.strip().lower()
    if not needle:
        return None, "Type a member's email or name, or a team's title"
    teams = [t for t in data.teams if t.title.lower() == needle]
    people = [m for m in data.members if needle in (m.email.lower(), m.name.lower())]
    if not teams and not people:
        teams = [t for t in data.teams if needle in t.title.lower()]
        people = [m for m in data.members if needle in m.hay]
    found = [Holder("team", t.id, t.title) for t in teams]
    found += [Holder("user", m.id, m.name) for m in people if not m.disabled]
    if len(found) == 1:
        return found[0], ""
    if not found:
        return None, f"No member or team matches “{clean_text(text.strip())}”"
    shown = ", ".join(h.name for h in found[:4]) + (", …" if len(found) > 4 else "")
    return None, f"{len(found)} match ({shown}): type more of it"


def grant_effect(data: PermissionsData, holder: Holder, role: str, before: str | None) -> str:
    """What granting ``role`` to ``holder`` does, in one sentence."""
    who = holder.name if holder.kind == "user" else f"The members of team {holder.name}"
    if before is None:
        return f"{who} get{'s' if holder.kind == 'user' else ''} {role} on {data.what}."
    verb = "raises" if role_rank(role) > role_rank(before) else "lowers"
    return f"This {verb} {holder.name}'s grant on {data.what} from {before} to {role}."


def removal_effect(data: PermissionsData, grant: Grant) -> str:
    """What removing ``grant`` takes away: who loses access, and who keeps it another way."""
    if grant.kind == "user":
        people = [grant.id]
    else:
        team = next((t for t in data.teams if t.id == grant.id), None)
        people = list(team.member_ids or ()) if team is not None else []
    lose: list[Access] = []
    keep: list[Access] = []
    source = "direct" if grant.kind == "user" else f"team {grant.name}"
    for user in people:
        access = data.access_of(user)
        if access is None:
            continue
        others = [v for v in access.via if not v.startswith(f"{source} (")]
        (keep if others else lose).append(access)
    what = "direct" if grant.kind == "user" else "team"
    parts = [f"The {what} {grant.role} grant of {grant.name} on {data.what} goes."]
    if lose:
        names = ", ".join(a.name for a in lose)
        parts.append(f"{names} lose{'s' if len(lose) == 1 else ''} access to {data.what}.")
    for access in keep:
        others = [v for v in access.via if not v.startswith(f"{source} (")]
        parts.append(f"{access.name} keeps access through {others[0]}.")
    return " ".join(parts)


async def page_title(client: AsyncGitBook, target: Target) -> str:
    """The title of the page the question was asked about ("" when there is none)."""
    if target.page_id is None:
        return ""
    page = await client.content.get_page(target.id, target.page_id, read="prefer-cache")
    return clean_text(page.title or page.id)


async def send_grant(
    client: AsyncGitBook, target: Target, holder: Holder, role: str, *, new: bool
) -> None:
    """Grant ``holder`` ``role`` on ``target`` (``new``), or change the role they have."""
    perms, (space, coll) = client.permissions, ids(target.kind, target.id)
    if new and holder.kind == "user":
        await perms.invite(role=role, users=[holder.id], space_id=space, collection_id=coll)
    elif new:
        await perms.invite(role=role, teams=[holder.id], space_id=space, collection_id=coll)
    elif holder.kind == "user":
        await perms.update_user(holder.id, role=role, space_id=space, collection_id=coll)
    else:
        await perms.update_team(holder.id, role=role, space_id=space, collection_id=coll)


async def remove_grant(client: AsyncGitBook, target: Target, grant: Grant) -> None:
    """Take ``grant`` (a user's or a team's direct grant) off ``target``."""
    perms, (space, coll) = client.permissions, ids(target.kind, target.id)
    if grant.kind == "user":
        await perms.remove_user(grant.id, space_id=space, collection_id=coll)
    else:
        await perms.remove_team(grant.id, space_id=space, collection_id=coll)
