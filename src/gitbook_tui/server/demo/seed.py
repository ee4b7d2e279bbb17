"""Seeding the demo workspace: replays ``workspace.json`` through the server's own API."""

from __future__ import annotations

import asyncio
import json
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from ..bootstrap import add_member, create_org, create_user
from ..clock import Clock
from ..context import issue_token
from ..storage import Storage
from . import generated

DEMO_DIR = Path(__file__).parent
DEMO_ID_SEED = 2026
Event = tuple[float, int, Callable[[], Awaitable[None]]]


class SeedError(RuntimeError):
    """A demo step the server refused (a bug in the demo data or the server)."""


def demo_token(user_key: str) -> str:
    """Every demo user has a fixed token, so one can act as any of them."""
    return f"demo-{user_key}"


@contextmanager
def _serve_folder(folder: Path) -> Iterator[str]:
    """A loopback HTTP server for ``folder`` (OpenAPI sources are fetched over HTTP)."""
    handler = partial(_QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


def _with_description(markdown: str, description: str | None) -> str:
    """The page text with ``description`` in its front matter (one block, never two)."""
    if not description:
        return markdown
    if markdown.startswith("---\n"):
        head, sep, rest = markdown[4:].partition("\n---\n")
        if sep:
            kept = [line for line in head.splitlines() if not line.startswith("description:")]
            return "---\n" + "\n".join([f"description: {description}", *kept]) + "\n---\n" + rest
    return f"---\ndescription: {description}\n---\n\n{markdown}"


def _write_gitsync_folder(root: Path, pages: list[dict[str, Any]]) -> None:
    """Write generated pages as a Git Sync folder (SUMMARY.md + one file per page)."""
    root.mkdir(parents=True, exist_ok=True)
    lines = ["# Table of contents", ""]
    files: list[str] = []

    def walk(nodes: list[dict[str, Any]], prefix: str, depth: int) -> None:
        for node in nodes:
            children = node.get("pages") or []
            rel = f"{prefix}{node['slug']}/README.md" if children else f"{prefix}{node['slug']}.md"
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_with_description(node["markdown"], node.get("description")), "utf-8")
            files.append(rel)
            lines.append(f"{'  ' * depth}* [{node['title']}]({rel})")
            walk(children, f"{prefix}{node['slug']}/", depth + 1)

    walk(pages, "", 0)
    (root / "SUMMARY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / ".gitbook.yaml").write_text(
        f"root: ./\nstructure:\n  readme: {files[0]}\n  summary: SUMMARY.md\n"
    )


class DemoSeeder:
    """Replays the demo workspace oldest event first, each at its own time."""

    def __init__(self, app: FastAPI, workspace: dict[str, Any] | None = None) -> None:
        self.app = app
        self.storage: Storage = app.state.server.storage
        self.clock: Clock = app.state.server.clock
        self.data = workspace or json.loads((DEMO_DIR / "workspace.json").read_text("utf-8"))
        self.now = self.clock.now()
        self.org = ""
        self.users: dict[str, str] = {}
        self.teams: dict[str, str] = {}
        self.collections: dict[str, str] = {}
        self.spaces: dict[str, str] = {}
        self.pages: dict[str, dict[str, str]] = {}
        self.crs: dict[str, str] = {}
        self.comments: dict[str, str] = {}
        self._clients: dict[str, httpx.AsyncClient] = {}
        self._events: list[Event] = []

    # -- plumbing -----------------------------------------------------------------------
    def at(self, days_ago: float) -> None:
        self.clock.set(self.now - timedelta(days=float(days_ago)))

    def client(self, user_key: str) -> httpx.AsyncClient:
        if user_key not in self._clients:
            self._clients[user_key] = httpx.AsyncClient(
                transport=httpx.ASGITransport(app=self.app),
                base_url="http://demo.local/v1",
                headers={"Authorization": f"Bearer {demo_token(user_key)}"},
                timeout=120,
            )
        return self._clients[user_key]

    async def call(self, user: str, method: str, path: str, **kwargs: Any) -> Any:
        response = await self.client(user).request(method, path, **kwargs)
        if response.status_code >= 400:
            raise SeedError(
                f"{method} {path} as {user}: {response.status_code} {response.text[:300]}"
            )
        return response.json() if response.content else None

    def schedule(self, days_ago: float, action: Callable[[], Awaitable[None]]) -> None:
        self._events.append((-float(days_ago), len(self._events), action))

    @property
    def admin(self) -> str:
        return next(u["key"] for u in self.data["users"] if u.get("orgRole") == "admin")

    # -- the run ------------------------------------------------------------------------
    async def run(self) -> None:
        self.storage.reseed_ids(DEMO_ID_SEED)
        try:
            start = max([s.get("createdDaysAgo", 90) for s in self.data["spaces"]] + [90]) + 5
            self.at(start)
            self._people()
            await self._structure(start)
            for space in self.data["spaces"]:
                self.schedule(space.get("createdDaysAgo", 60), partial(self._space, space))
            for comment in self.data.get("comments", []):
                self._schedule_comment(comment, "/spaces/{space}/comments", comment["space"])
            for cr in self.data.get("changeRequests", []):
                self._schedule_change_request(cr)
            self.schedule(2, self._sites)
            self.schedule(2, self._org_extras)
            self.schedule(1, self._lock_spaces)
            self._events.sort(key=lambda e: (e[0], e[1]))
            for days, _, action in self._events:
                self.at(-days)
                await action()
        finally:
            self.clock.set(None)
            self.storage.reseed_ids(None)
            for c in self._clients.values():
                await c.aclose()

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
        for team in self.data.get("teams", []):
            created = await self.call(
                self.admin,
                "PUT",
                f"/orgs/{self.org}/teams",
                json={
                    "title": team["title"],
                    "members": [self.users[m] for m in team.get("members", [])],
                },
            )
            self.teams[team["key"]] = created["id"]
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
            await self._import_folder(space_id, DEMO_DIR / "spaces" / space["folder"])
        elif space.get("generated"):
            await self._import_generated(space_id, space["generated"])
        self.pages[space["key"]] = await self._page_paths(space_id)

    async def _import_folder(self, space_id: str, folder: Path) -> None:
        await self.call(
            self.admin,
            "POST",
            f"/spaces/{space_id}/content/import",
            json={"url": folder.resolve().as_uri(), "source": "github"},
        )

    async def _import_generated(self, space_id: str, name: str) -> None:
        if name == "large_reference_page":
            text = generated.large_reference_page()
            pages = [
                {
                    "title": "Configuration and metrics reference",
                    "slug": "reference",
                    "markdown": text,
                    "description": "Every setting and metric, generated from the source.",
                    "pages": [],
                }
            ]
        else:
            pages = getattr(generated, name)()
        with tempfile.TemporaryDirectory(prefix="gitbook-tui-demo-") as tmp:
            _write_gitsync_folder(Path(tmp), pages)
            await self._import_folder(space_id, Path(tmp))

    async def _page_paths(self, space_id: str) -> dict[str, str]:
        """Map each page's source file path (``git.path``) to its page id."""
        tree = await self.call(self.admin, "GET", f"/spaces/{space_id}/content/pages")
        found: dict[str, str] = {}

        def walk(nodes: list[dict[str, Any]]) -> None:
            for node in nodes:
                git_path = (node.get("git") or {}).get("path")
                if git_path:
                    found[git_path] = node["id"]
                walk(node.get("pages", []))

        walk(tree["pages"])
        return found

    def page_id(self, space_key: str, path: str) -> str:
        try:
            return self.pages[space_key][path]
        except KeyError:
            raise SeedError(f"demo page '{path}' not found in space '{space_key}'") from None

    # -- comments -----------------------------------------------------------------------
    def _schedule_comment(
        self, comment: dict[str, Any], base: str, space_key: str, cr_key: str | None = None
    ) -> None:
        key = comment.get("key") or f"c{len(self.comments)}-{id(comment)}"

        def thread_path() -> str:
            path = base.format(space=self.spaces[space_key])
            if cr_key is not None:
                path = (
                    f"/spaces/{self.spaces[space_key]}/change-requests/{self.crs[cr_key]}/comments"
                )
            return path

        async def post() -> None:
            body: dict[str, Any] = {"body": {"markdown": comment["body"]}}
            if comment.get("page"):
                body["page"] = self.page_id(space_key, comment["page"])
            created = await self.call(comment["author"], "POST", thread_path(), json=body)
            self.comments[key] = created["id"]
            for reaction in comment.get("reactions", []):
                for user in reaction["users"]:
                    await self.call(
                        user,
                        "PUT",
                        f"{thread_path()}/{created['id']}",
                        json={"addedReactions": [reaction["emoji"]]},
                    )

        self.schedule(comment["daysAgo"], post)
        last = comment["daysAgo"]
        for reply in comment.get("replies", []):
            last = min(last, reply.get("daysAgo", last))

            async def post_reply(reply: dict[str, Any] = reply) -> None:
                await self.call(
                    reply["author"],
                    "POST",
                    f"{thread_path()}/{self.comments[key]}/replies",
                    json={"body": {"markdown": reply["body"]}},
                )

            self.schedule(reply.get("daysAgo", comment["daysAgo"]), post_reply)
        if comment.get("resolvedBy"):

            async def resolve() -> None:
                await self.call(
                    comment["resolvedBy"],
                    "PUT",
                    f"{thread_path()}/{self.comments[key]}",
                    json={"resolved": True},
                )

            self.schedule(max(0.0, last - 0.2), resolve)

    # -- change requests ----------------------------------------------------------------
    def _cr_path(self, cr: dict[str, Any]) -> str:
        return f"/spaces/{self.spaces[cr['space']]}/change-requests/{self.crs[cr['key']]}"

    def _changes(self, space_key: str, edits: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Demo edits as the API's change-request content changes (markdown documents)."""
        changes: list[dict[str, Any]] = []
        for edit in edits:
            if "page" in edit:
                changes.append(
                    {
                        "operation": "update_page",
                        "page": self.page_id(space_key, edit["page"]),
                        "document": {"markdown": edit["markdown"]},
                    }
                )
            elif "newPage" in edit:
                new = edit["newPage"]
                change: dict[str, Any] = {
                    "operation": "insert_page",
                    "title": new["title"],
                    "document": {"markdown": new["markdown"]},
                }
                if new.get("parent"):
                    change["into"] = self.page_id(space_key, new["parent"])
                changes.append(change)
            elif "deletePage" in edit:
                changes.append(
                    {
                        "operation": "delete_page",
                        "page": self.page_id(space_key, edit["deletePage"]),
                    }
                )
        return changes

    def _schedule_change_request(self, cr: dict[str, Any]) -> None:
        created_at = cr["createdDaysAgo"]

        async def create() -> None:
            space_id = self.spaces[cr["space"]]
            made = await self.call(
                cr["author"],
                "POST",
                f"/spaces/{space_id}/change-requests",
                json={"subject": cr["subject"]},
            )
            self.crs[cr["key"]] = made["id"]
            changes = self._changes(cr["space"], cr.get("edits", []))
            if changes:
                await self.call(
                    cr["author"], "POST", f"{self._cr_path(cr)}/content", json={"changes": changes}
                )
            if (
                cr["status"] != "draft"
                and made.get("status") != cr["status"]
                and cr["status"] in ("open", "archived", "merged")
            ):
                await self.call(cr["author"], "PATCH", self._cr_path(cr), json={"status": "open"})
            if cr.get("requestedReviewers"):
                await self.call(
                    cr["author"],
                    "POST",
                    f"{self._cr_path(cr)}/requested-reviewers",
                    json={"users": [self.users[u] for u in cr["requestedReviewers"]]},
                )

        self.schedule(created_at, create)
        latest = created_at
        for review in cr.get("reviews", []):
            latest = min(latest, review["daysAgo"])

            async def post_review(review: dict[str, Any] = review) -> None:
                body: dict[str, Any] = {"status": review["status"]}
                if review.get("comment"):
                    body["comment"] = {"markdown": review["comment"]}
                await self.call(review["author"], "POST", f"{self._cr_path(cr)}/reviews", json=body)

            self.schedule(review["daysAgo"], post_review)
        for comment in cr.get("comments", []):
            latest = min(latest, comment["daysAgo"])
            self._schedule_comment(comment, "", cr["space"], cr_key=cr["key"])
        for index, edit in enumerate(cr.get("mainEditsAfter", [])):

            async def main_edit(edit: dict[str, Any] = edit, index: int = index) -> None:
                author = edit.get("author", self.admin)
                space_id = self.spaces[cr["space"]]
                made = await self.call(
                    author,
                    "POST",
                    f"/spaces/{space_id}/change-requests",
                    json={
                        "subject": edit.get("subject")
                        or f"Update {edit['page'].rsplit('/', 1)[-1]}"
                    },
                )
                path = f"/spaces/{space_id}/change-requests/{made['id']}"
                changes = self._changes(cr["space"], [edit])
                await self.call(author, "POST", f"{path}/content", json={"changes": changes})
                await self.call(author, "PATCH", path, json={"status": "open"})
                await self.call(author, "POST", f"{path}/merge")

            self.schedule(edit["daysAgo"], main_edit)
        if cr["status"] in ("merged", "archived"):

            async def finish() -> None:
                if cr["status"] == "merged":
                    await self.call(self.admin, "POST", f"{self._cr_path(cr)}/merge")
                else:
                    await self.call(
                        cr["author"], "PATCH", self._cr_path(cr), json={"status": "archived"}
                    )

            self.schedule(max(0.0, latest - 0.3), finish)

    # -- sites and the rest -------------------------------------------------------------
    async def _sites(self) -> None:
        for site in self.data.get("sites", []):
            made = await self.call(
                self.admin,
                "POST",
                f"/orgs/{self.org}/sites",
                json={"title": site["title"], "visibility": site.get("visibility", "public")},
            )
            base = f"/orgs/{self.org}/sites/{made['id']}"
            if site.get("basename"):
                await self.call(self.admin, "PATCH", base, json={"basename": site["basename"]})
            sections: dict[str, str] = {}
            for section in site.get("sections", []):
                spaces = [self.spaces[s] for s in section.get("spaces", [])]
                body: dict[str, Any] = {"title": section["title"], "spaceId": spaces[0]}
                if section.get("icon"):
                    body["icon"] = section["icon"]
                created = await self.call(self.admin, "POST", f"{base}/sections", json=body)
                sections[section["title"]] = created["id"]
                if section.get("description"):
                    await self.call(
                        self.admin,
                        "PATCH",
                        f"{base}/sections/{created['id']}",
                        json={"description": section["description"]},
                    )
                for space_id in spaces[1:]:
                    await self.call(
                        self.admin,
                        "POST",
                        f"{base}/site-spaces",
                        json={"spaceId": space_id, "sectionId": created["id"]},
                    )
            for space_key in site.get("spaces", []):
                await self.call(
                    self.admin,
                    "POST",
                    f"{base}/site-spaces",
                    json={"spaceId": self.spaces[space_key]},
                )
            for redirect in site.get("redirects", []):
                await self.call(
                    self.admin,
                    "POST",
                    f"{base}/redirects",
                    json={
                        "source": redirect["source"],
                        "destination": {
                            "kind": "site-section",
                            "siteSectionId": sections[redirect["section"]],
                        },
                    },
                )
            if site.get("published"):
                await self.call(self.admin, "POST", f"{base}/publish")

    async def _org_extras(self) -> None:
        for invite in self.data.get("linkInvites", []):
            await self.call(
                self.admin, "POST", f"/orgs/{self.org}/link-invites", json={"role": invite["role"]}
            )
        for settings in self.data.get("translations", []):
            made = await self.call(
                self.admin,
                "POST",
                f"/orgs/{self.org}/translations",
                json={"title": settings["title"]},
            )
            if settings.get("languages"):
                await self.call(
                    self.admin,
                    "PUT",
                    f"/orgs/{self.org}/translations/{made['id']}",
                    json={"title": settings["title"], "languages": settings["languages"]},
                )
        for integration in self.data.get("integrations", []):
            body = {k: v for k, v in integration.items() if k not in ("name", "installations")}
            body["organization"] = self.org
            await self.call(self.admin, "POST", f"/integrations/{integration['name']}", json=body)
            for _ in integration.get("installations", []):
                await self.call(
                    self.admin,
                    "POST",
                    f"/integrations/{integration['name']}/installations",
                    json={"organization": self.org},
                )
        specs = self.data.get("openapiSpecs", [])
        if specs:
            with _serve_folder(DEMO_DIR) as origin:
                for spec in specs:
                    versions = spec.get("versions", [])
                    await self.call(
                        self.admin,
                        "POST",
                        f"/orgs/{self.org}/openapi",
                        json={"slug": spec["slug"], "source": {"url": f"{origin}/{versions[0]}"}},
                    )
                    for later in versions[1:]:
                        await self.call(
                            self.admin,
                            "PUT",
                            f"/orgs/{self.org}/openapi/{spec['slug']}",
                            json={"source": {"url": f"{origin}/{later}"}},
                        )

    async def _lock_spaces(self) -> None:
        for space in self.data["spaces"]:
            if space.get("editMode") == "locked":
                await self.call(
                    self.admin,
                    "PATCH",
                    f"/spaces/{self.spaces[space['key']]}",
                    json={"editMode": "locked"},
                )


def seed_demo_if_empty(app: FastAPI) -> bool:
    """Seed the demo workspace into a database that has none yet; True if it seeded."""
    storage: Storage = app.state.server.storage
    with storage.read() as tx:
        if tx.meta("demo_org") is not None or tx.meta("owner") is not None:
            return False
    asyncio.run(DemoSeeder(app).run())
    return True
