"""``AsyncGitBook``: one async client with a namespace per resource family of the API."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

from ..cache import ResponseCache
from .base import BaseClient, ReadMode
from .change_requests import ChangeRequests
from .collections import Collections
from .comments import Comments
from .config import resolve
from .content import Content
from .installations import Installations
from .integrations import Integrations
from .openapi_specs import OpenAPISpecs
from .org_admin import OrgAdmin
from .organizations import Organizations, Users
from .permissions import Permissions
from .revisions import Revisions
from .sites import Sites
from .spaces import Spaces


class AsyncGitBook(BaseClient):
    """The workspace API client.

    The server and token come from the arguments, else ``GITBOOK_API_URL`` /
    ``GITBOOK_TOKEN``, else the stored profile. Pass ``transport`` to route requests
    elsewhere (``httpx.ASGITransport`` for an in-process server, ``httpx.MockTransport``
    in tests) and ``cache`` to keep answers in the persistent response cache.
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
            **extra,  # type: ignore[arg-type]
        )
        self.has_token = resolved_token is not None
        self.orgs = Organizations(self)
        self.users = Users(self)
        self.collections = Collections(self)
        self.spaces = Spaces(self)
        self.permissions = Permissions(self)
        self.content = Content(self)
        self.revisions = Revisions(self)
        self.comments = Comments(self)
        self.change_requests = ChangeRequests(self)
        self.sites = Sites(self)
        self.integrations = Integrations(self)
        self.installations = Installations(self)
        self.openapi = OpenAPISpecs(self)
        self.org_admin = OrgAdmin(self)
