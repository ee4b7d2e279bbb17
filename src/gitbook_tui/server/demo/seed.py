"""Seeding the demo workspace: replays ``workspace.json`` through the server's own API."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from fastapi import FastAPI

from ...markdown.front_matter import FrontMatterError, read_front_matter
from ..bootstrap import add_member, create_org, create_user
from ..core.clock import iso
from ..core.context import issue_token
from ..core.storage import Storage
from ..importers.gitsync import FolderSource, SimpleCtx, Source, apply_tree, build_tree
from ..org_admin.views import check_members
from . import generated
from .seed_base import DEMO_DIR, DEMO_ID_SEED, SeedError, demo_token
from .seed_comments_extra import schedule_extra_comments
from .seed_history import FIRST_DAY, GUIDE, EarlyGuide, seed_guide_history
from .seed_org import OrgSeeder
from .seed_reviews_extra import seed_review_extras
from .seed_sites_extra import seed_sites_extra
from .seed_threads import ThreadSeeder

__all__ = ["DemoSeeder", "demo_token", "seed_demo_if_empty", "seed_phase"]

SEED_PHASE = "demo_seed"
"""Meta key: how far the demo is seeded (missing in demos seeded before the two phases)."""
SEED_STATE = "demo_seed_state"
PHASE_STRUCTURE = "structure"
PHASE_DONE = "done"


def _with_description(markdown: str, description: str | None) -> str:
    """The page text with ``description`` in its front matter (one block, never two)."""
    if not description:
        return markdown
    line = f"description: {description}"
    try:
        plain = read_front_matter(line) == {"description": description}
    except FrontMatterError:
        plain = False
    if not plain:  # "a: b" and the like are not a plain YAML scalar: quoted (JSON is YAML)
        line = f"description: {json.dumps(description, ensure_ascii=False)}"
    if markdown.startswith("---\n"):
        head, sep, rest = markdown[4:].partition("\n---\n")
        if sep:
            kept = [old for old in head.splitlines() if not old.startswith("description:")]
            return "---\n" + "\n".join([line, *kept]) + "\n---\n" + rest
    return f"---\n{line}\n---\n\n{markdown}"


def gitsync_files(pages: list[dict[str, Any]]) -> dict[str, bytes]:
    """Generated pages as the files of a Git Sync folder (SUMMARY.md + one file per page)."""
    lines = ["# Table of contents", ""]
    files: dict[str, bytes] = {}

    def walk(nodes: list[dict[str, Any]], prefix: str, depth: int) -> None:
        for node in nodes:
            children = node.get("pages") or []
            rel = f"{prefix}{node['slug']}/README.md" if children else f"{prefix}{node['slug']}.md"
            text = _with_description(node["markdown"], node.get("description"))
            files[rel] = text.encode("utf-8")
            lines.append(f"{'  ' * depth}* [{node['title']}]({rel})")
            walk(children, f"{prefix}{node['slug']}/", depth + 1)

    walk(pages, "", 0)
    first = next(iter(files))
    files["SUMMARY.md"] = ("\n".join(lines) + "\n").encode("utf-8")
    files[".gitbook.yaml"] = (
        f"root: ./\nstructure:\n  readme: {first}\n  summary: SUMMARY.md\n".encode()
    )
    return files


@dataclass
class _MemoryFolder:
    """A Git Sync folder held in memory (the generated spaces: no files written and read)."""

    files: dict[str, bytes]

    def read(self, rel: str) -> bytes | None:
        return self.files.get(rel)

    def assets(self, folder: str) -> list[str]:
        return []

    def describe(self, rel: str) -> str:
        return f"generated:{rel}"


def _generated_folder(name: str) -> _MemoryFolder:
    """A generated space's pages as a Git Sync folder in memory."""
    if name == "large_reference_page":
        pages = [
            {
                "title": "Configuration and metrics reference",
                "slug": "reference",
                "markdown": generated.large_reference_page(),
                "description": "Every setting and metric, generated from the source.",
                "pages": [],
            }
        ]
    else:
        pages = getattr(generated, name)()
    return _MemoryFolder(gitsync_files(pages))


class DemoSeeder(ThreadSeeder, OrgSeeder):
    """Replays the demo workspace oldest event first, each at its own time, in two phases:
    :meth:`seed_structure` (people, teams, collections, every space and the written pages:
    what the app's first screen needs) and :meth:`seed_extras` (the generated spaces'
    pages, threads, change requests, sites and the organization's extras). Each phase
    draws ids from its own fixed seed, so the demo is the same however it was seeded."""

    async def run(self) -> None:
        """Both phases, one after the other."""
        await self.seed_structure()
        await self.seed_extras()

    async def seed_structure(self) -> None:
        self.storage.reseed_ids(DEMO_ID_SEED)
        try:
            start = max([s.get("createdDaysAgo", 90) for s in self.data["spaces"]] + [90]) + 5
            self.at(start)
            self._people()
            await self._structure(start)
            for space in self.data["spaces"]:
                self.schedule(space.get("createdDaysAgo", 60), partial(self._space, space))
            await self._replay()
            with self.storage.transaction() as tx:
                tx.set_meta(SEED_STATE, json.dumps(self._state()))
                tx.set_meta(SEED_PHASE, PHASE_STRUCTURE)
        finally:
            await self._finish()

    async def seed_extras(self) -> None:
        if not self.org:  # a new seeder (another process, a later run): phase 1's ids
            self.load_state()
        self.storage.reseed_ids(DEMO_ID_SEED + 1)
        try:
            for space in self.data["spaces"]:
                if space.get("generated"):
                    days = space.get("createdDaysAgo", 60)
                    self.schedule(days, partial(self._fill_generated, space))
            for comment in self.data.get("comments", []):
                self._schedule_comment(comment, "/spaces/{space}/comments", comment["space"])
            schedule_extra_comments(self)
            self.schedule(FIRST_DAY, partial(seed_guide_history, self))
            for cr in self.data.get("changeRequests", []):
                self._schedule_change_request(cr)
            self.schedule(2, self._sites)
            self.schedule(1.5, partial(seed_review_extras, self))
            self.schedule(1.9, partial(seed_sites_extra, self))
            self.schedule(2, self._org_extras)
            for invite in self.data.get("emailInvites", []):
                self.schedule(invite.get("daysAgo", 2), partial(self._email_invites, invite))
            self.schedule(1, self._lock_spaces)
            await self._replay()
            with self.storage.transaction() as tx:
                tx.set_meta(SEED_STATE, "{}")
                tx.set_meta(SEED_PHASE, PHASE_DONE)
        finally:
            await self._finish()

    async def _replay(self) -> None:
        events, self._events = sorted(self._events, key=lambda e: (e[0], e[1])), []
        for days, _, action in events:
            self.at(-days)
            await action()

    async def _finish(self) -> None:
        self._events = []
        self.clock.set(None)
        self.storage.reseed_ids(None)

    def _state(self) -> dict[str, Any]:
        """What phase 2 needs of phase 1 (kept in the database between the two)."""
        names = ("org", "users", "teams", "collections", "spaces", "pages")
        return {"now": self.now.isoformat(), **{name: getattr(self, name) for name in names}}

    def load_state(self) -> None:
        """Phase 1's ids, as it left them in the database."""
        with self.storage.read() as tx:
            state = json.loads(tx.meta(SEED_STATE) or "{}")
        if not state:
            raise SeedError("the demo's first phase left no state: seed a new database")
        self.now = datetime.fromisoformat(state.pop("now"))
        for name, value in state.items():
            setattr(self, name, value)

    def _people(self) -> None:
        org_data = self.data["organization"]
        with self.storage.transaction() as tx:
            org = create_org(
                tx,
                self.storage,
                self.clock,
                org_data["title"],
                hostname=org_data.get("hostname"),
                emailDomains=org_data.get("emailDomains", []),
                defaultRole=org_data.get("defaultRole", "read"),
            )
            self.org = org["id"]
            for person in self.data["users"]:
                user = create_user(
                    tx, self.storage, self.clock, person["displayName"], person["email"]
                )
                self.users[person["key"]] = user["id"]
                issue_token(tx, user["id"], demo_token(person["key"]))
                add_member(tx, self.clock, self.org, user["id"], person.get("orgRole", "read"))
            tx.set_meta("owner", self.users[self.admin])
            tx.set_meta("demo_org", self.org)

    async def _structure(self, start: float) -> None:
        # Teams straight into storage, as the team operation stores them: going through the
        # API here would make the server build every route module before it first answers
        # (the teams' module is the last one), for three records.
        with self.storage.transaction() as tx:
            for team in self.data.get("teams", []):
                record = {
                    "id": self.storage.new_id(),
                    "organization": self.org,
                    "title": team["title"],
                    "members": check_members(
                        tx, self.org, [self.users[m] for m in team.get("members", [])]
                    ),
                    "createdAt": iso(self.clock.now()),
                    "createdBy": self.users[self.admin],
                }
                tx.put("team", record["id"], record, scope=self.org)
                self.teams[team["key"]] = record["id"]
        pending = list(self.data.get("collections", []))
        while pending:
            progressed = False
            for coll in list(pending):
                parent = coll.get("parent")
                if parent and parent not in self.collections:
                    continue
                body: dict[str, Any] = {"title": coll["title"]}
                if parent:
                    body["parent"] = self.collections[parent]
                created = await self.call(
                    self.admin, "POST", f"/orgs/{self.org}/collections", json=body
                )
                self.collections[coll["key"]] = created["id"]
                patch = {
                    k: coll[k] for k in ("description", "defaultLevel") if coll.get(k) is not None
                }
                if patch:
                    await self.call(
                        self.admin, "PATCH", f"/collections/{created['id']}", json=patch
                    )
                for grant in coll.get("teamGrants", []):  # reaches every space inside
                    await self.call(
                        self.admin,
                        "POST",
                        f"/collections/{created['id']}/permissions",
                        json={"role": grant["role"], "teams": [self.teams[grant["team"]]]},
                    )
                pending.remove(coll)
                progressed = True
            if not progressed:
                raise SeedError(f"collections with unknown parents: {[c['key'] for c in pending]}")

    async def _space(self, space: dict[str, Any]) -> None:
        body: dict[str, Any] = {"title": space["title"], "emoji": space.get("emoji")}
        if space.get("collection"):
            body["parent"] = self.collections[space["collection"]]
        if space.get("visibility"):
            body["visibility"] = space["visibility"]
        created = await self.call(self.admin, "POST", f"/orgs/{self.org}/spaces", json=body)
        space_id = self.spaces[space["key"]] = created["id"]
        for grant in space.get("grants", []):
            await self.call(
                self.admin,
                "POST",
                f"/spaces/{space_id}/permissions",
                json={"role": grant["role"], "users": [self.users[grant["user"]]]},
            )
        for grant in space.get("teamGrants", []):
            await self.call(
                self.admin,
                "POST",
                f"/spaces/{space_id}/permissions",
                json={"role": grant["role"], "teams": [self.teams[grant["team"]]]},
            )
        if space.get("folder"):
            # The guide's first import is its early version: its history grows it into
            # today's text (phase 2, :mod:`.seed_history`).
            folder = (
                EarlyGuide()
                if space["key"] == GUIDE
                else FolderSource(DEMO_DIR / "spaces" / space["folder"])
            )
            self.pages[space["key"]] = self._import(space_id, folder)
        # (a generated space's pages come in phase 2: see _fill_generated)

    async def _fill_generated(self, space: dict[str, Any]) -> None:
        space_id = self.spaces[space["key"]]
        self.pages[space["key"]] = self._import(space_id, _generated_folder(space["generated"]))

    def _import(self, space_id: str, source: Source) -> dict[str, str]:
        """What the import operation does with a Git Sync folder (read it into a tree, store
        it as the space's new revision), as the admin, in-process: the demo's own folders
        need no file:// permission, the generated ones no ~2,000 files written first, and
        the server no import route built before it first answers. Returns each page's
        source path (``git.path``) with its page id."""
        ctx = SimpleCtx(self.storage, self.clock, self.users[self.admin])
        with self.storage.transaction() as tx:
            space = tx.get("space", space_id)
            if space is None:
                raise SeedError(f"space {space_id} is gone")
            tree = build_tree(source, new_id=ctx.new_id, now=ctx.now())
            apply_tree(tx, ctx, space, tree)
        found: dict[str, str] = {}

        def walk(nodes: list[dict[str, Any]]) -> None:
            for node in nodes:
                git_path = (node.get("git") or {}).get("path")
                if git_path:
                    found[git_path] = node["id"]
                walk(node.get("pages", []))

        walk(tree.pages)
        return found


def seed_phase(storage: Storage) -> str | None:
    """``None``: nothing seeded (a new database, or not a demo one); ``"structure"``: phase 1
    done, the extras missing; ``"done"``: the whole demo."""
    with storage.read() as tx:
        phase = tx.meta(SEED_PHASE)
        if phase is not None:
            return phase
        if tx.meta("demo_org") is not None or tx.meta("owner") is not None:
            return PHASE_DONE  # seeded in one go by an older version, or not a demo: as is
    return None


def seed_demo_if_empty(app: FastAPI) -> bool:
    """Seed the demo workspace through ``app`` into a database that has none yet (or finish
    one whose second phase is missing); True if it seeded. (``runner`` seeds a new demo
    database with each phase in one transaction: :class:`.phases.DemoSeeding`.)"""
    phase = seed_phase(app.state.server.storage)
    if phase == PHASE_DONE:
        return False
    seeder = DemoSeeder(app)
    asyncio.run(seeder.run() if phase is None else seeder.seed_extras())
    return True
