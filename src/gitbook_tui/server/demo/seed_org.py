"""Demo replay steps run last: sites, link and email invites, translations, integrations,
specs, locks."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ..core.url_guard import trusting
from .seed_base import DEMO_DIR, SeederBase


@contextmanager
def _serve_folder(folder: Path) -> Iterator[str]:
    """A loopback HTTP server for ``folder`` (OpenAPI sources are fetched over HTTP)."""
    handler = partial(_QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # a short poll: shutdown() waits for the loop to look (0.5 s by default)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


class OrgSeeder(SeederBase):
    """Sets up the organization-wide parts of the demo once its spaces exist."""

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
            for installation in integration.get("installations", []):
                install: dict[str, Any] = {"organization": self.org}
                if installation.get("spaces"):
                    install["space_selection"] = "selected"
                made = await self.call(
                    self.admin,
                    "POST",
                    f"/integrations/{integration['name']}/installations",
                    json=install,
                )
                for space_key in installation.get("spaces", []):
                    await self.call(
                        self.admin,
                        "POST",
                        f"/integrations/{integration['name']}/installations/{made['id']}/spaces",
                        json={"space": self.spaces[space_key]},
                    )
        specs = self.data.get("openapiSpecs", [])
        if specs:
            with (
                _serve_folder(DEMO_DIR) as origin,
                trusting(self.app.state.server, allow_hosts=[origin.removeprefix("http://")]),
            ):
                for spec in specs:
                    versions = spec.get("versions", [])
                    await self.call(
                        self.admin,
                        "POST",
                        f"/orgs/{self.org}/openapi",
                        json={"slug": spec["slug"], "source": {"url": f"{origin}/{versions[0]}"}},
                    )
                    # the failed update last: the spec shows its error over the last version
                    later = versions[1:] + [spec[k] for k in ("failedUpdate",) if spec.get(k)]
                    for url in later:
                        await self.call(
                            self.admin,
                            "PUT",
                            f"/orgs/{self.org}/openapi/{spec['slug']}",
                            json={"source": {"url": f"{origin}/{url}"}},
                        )

    async def _email_invites(self, invite: dict[str, Any]) -> None:
        """Pending members invited by email (one batch asked for SSO, which the organization
        does not enforce: its addresses come back refused for SSO)."""
        body = {"emails": invite["emails"], "role": invite["role"], "sso": invite.get("sso", False)}
        await self.call(self.admin, "POST", f"/orgs/{self.org}/invites", json=body)

    async def _lock_spaces(self) -> None:
        for space in self.data["spaces"]:
            if space.get("editMode") == "locked":
                await self.call(
                    self.admin,
                    "PATCH",
                    f"/spaces/{self.spaces[space['key']]}",
                    json={"editMode": "locked"},
                )
