"""``AsyncGitBook``: one async client with a namespace per resource family of the API."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from ..cache import ResponseCache
from .base import BaseClient, ReadMode
from .config import resolve

if TYPE_CHECKING:
    from .change_requests import ChangeRequests
    from .collections import Collections
    from .comments import Comments
    from .content import Content
    from .installations import Installations
    from .integrations import Integrations
    from .openapi_specs import OpenAPISpecs
    from .org_admin import OrgAdmin
    from .organizations import Organizations, Users
    from .permissions import Permissions
    from .resource import Resource
    from .revisions import Revisions
    from .sites import Sites
    from .spaces import Spaces


class AsyncGitBook(BaseClient):
    """The workspace API client.

    The server and token come from the arguments, else ``GITBOOK_API_URL`` /
    ``GITBOOK_TOKEN``, else the stored profile. Pass ``transport`` to route requests
    elsewhere (``httpx.ASGITransport`` for an in-process server, ``httpx.MockTransport``
    in tests) and ``cache`` to keep answers in the persistent response cache.
    ``account_server`` names the server in the account's fingerprint (its cache, drafts
    and remembered state) when its URL is not stable: the demo's port changes when taken.
    """

    def __init__(
        self,
        token: str | None = None,
        *,
        base_url: str | None = None,
        profile: str | None = None,
        config_file: Path | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: httpx.Timeout | float | None = None,
        max_retries: int = 2,
        cache: ResponseCache | None = None,
        read_mode: ReadMode = "network",
        sleep: Callable[[float], Awaitable[None]] | None = None,
        account_server: str | None = None,
    ) -> None:
        url, resolved_token = resolve(token, base_url, profile, config_file)
        extra = {"sleep": sleep} if sleep is not None else {}
        super().__init__(
            base_url=url,
            token=resolved_token,
            transport=transport,
            timeout=timeout,
            max_retries=max_retries,
            cache=cache,
            read_mode=read_mode,
            account_server=account_server,
            **extra,  # type: ignore[arg-type]
        )
        self.has_token = resolved_token is not None

    NAMESPACES = (
        "orgs",
        "users",
        "collections",
        "spaces",
        "permissions",
        "content",
        "revisions",
        "comments",
        "change_requests",
        "sites",
        "integrations",
        "installations",
        "openapi",
        "org_admin",
    )
    """The attributes naming a resource family (each imported when first used)."""

    def namespaces(self) -> dict[str, Resource]:
        """Every namespace by its attribute name (importing those not used yet)."""
        return {name: getattr(self, name) for name in self.NAMESPACES}

    # Each namespace (and its models) is imported when first used: a start that lists the
    # organizations and spaces builds none of the review, comment or site models.
    @cached_property
    def orgs(self) -> Organizations:
        from .organizations import Organizations

        return Organizations(self)

    @cached_property
    def users(self) -> Users:
        from .organizations import Users

        return Users(self)

    @cached_property
    def collections(self) -> Collections:
        from .collections import Collections

        return Collections(self)

    @cached_property
    def spaces(self) -> Spaces:
        from .spaces import Spaces

        return Spaces(self)

    @cached_property
    def permissions(self) -> Permissions:
        from .permissions import Permissions

        return Permissions(self)

    @cached_property
    def content(self) -> Content:
        from .content import Content

        return Content(self)

    @cached_property
    def revisions(self) -> Revisions:
        from .revisions import Revisions

        return Revisions(self)

    @cached_property
    def comments(self) -> Comments:
        from .comments import Comments

        return Comments(self)

    @cached_property
    def change_requests(self) -> ChangeRequests:
        from .change_requests import ChangeRequests

        return ChangeRequests(self)

    @cached_property
    def sites(self) -> Sites:
        from .sites import Sites

        return Sites(self)

    @cached_property
    def integrations(self) -> Integrations:
        from .integrations import Integrations

        return Integrations(self)

    @cached_property
    def installations(self) -> Installations:
        from .installations import Installations

        return Installations(self)

    @cached_property
    def openapi(self) -> OpenAPISpecs:
        from .openapi_specs import OpenAPISpecs

        return OpenAPISpecs(self)

    @cached_property
    def org_admin(self) -> OrgAdmin:
        from .org_admin import OrgAdmin

        return OrgAdmin(self)
