"""Stored credentials: log in (checked token kept in the OS keyring or config), status, log out."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import httpx

from ..models import User
from .client import AsyncGitBook
from .config import (
    DEFAULT_API_URL,
    KEYRING_SERVICE,
    config_path,
    load_config,
    save_config,
    stored_profiles,
)
from .errors import GitBookError

TokenStore = Literal["keyring", "config"]
DEFAULT_PROFILE = "default"
_PROBE_USER = "gitbook-tui-keyring-probe"

__all__ = [
    "DEFAULT_PROFILE",
    "LoginResult",
    "ProfileStatus",
    "TokenStore",
    "describe_user",
    "env_status",
    "fetch_user",
    "keyring_usable",
    "login",
    "logout",
    "status",
]


# -- the OS keyring ---------------------------------------------------------------------
def keyring_usable() -> bool:
    """A real keyring backend (not the fail/null one) where a set/get round-trip works."""
    try:
        import keyring
        from keyring.backends import fail, null

        backend = keyring.get_keyring()
        if isinstance(backend, fail.Keyring | null.Keyring):
            return False
        probe = secrets.token_hex(8)
        backend.set_password(KEYRING_SERVICE, _PROBE_USER, probe)
        try:
            return backend.get_password(KEYRING_SERVICE, _PROBE_USER) == probe
        finally:
            backend.delete_password(KEYRING_SERVICE, _PROBE_USER)
    except Exception:
        return False


def _keyring_get(profile: str) -> str | None:
    try:
        import keyring

        return keyring.get_password(KEYRING_SERVICE, profile)
    except Exception:
        return None


def _keyring_set(profile: str, token: str) -> bool:
    try:
        import keyring

        keyring.set_password(KEYRING_SERVICE, profile, token)
        return keyring.get_password(KEYRING_SERVICE, profile) == token
    except Exception:
        return False


def _keyring_delete(profile: str) -> bool:
    try:
        import keyring

        if keyring.get_password(KEYRING_SERVICE, profile) is None:
            return False
        keyring.delete_password(KEYRING_SERVICE, profile)
        return True
    except Exception:
        return False


# -- checking a token -------------------------------------------------------------------
async def fetch_user(
    api_url: str, token: str, *, transport: httpx.AsyncBaseTransport | None = None
) -> User:
    """``GET /user`` with ``token``: who it belongs to (raises a :class:`GitBookError`)."""
    client = AsyncGitBook(token, base_url=api_url, transport=transport)
    try:
        return await client.users.me(read="network")
    finally:
        await client.close()


def describe_user(user: User) -> str:
    name = user.displayName or user.email or user.id
    return f"{name} <{user.email}>" if user.email and user.displayName else name


# -- login / status / logout -----------------------------------------------------------
@dataclass(frozen=True)
class LoginResult:
    profile: str
    api_url: str
    user: User
    stored_in: TokenStore
    config_file: Path


async def login(
    token: str,
    *,
    api_url: str = DEFAULT_API_URL,
    profile: str = DEFAULT_PROFILE,
    config_file: Path | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> LoginResult:
    """Check ``token`` against ``api_url``, then store it (keyring, else the 0600 config
    file) with the profile's URL. Nothing is stored when the check fails."""
    token = token.strip()
    api_url = api_url.rstrip("/")
    if not token:
        raise ValueError("the token is empty")
    user = await fetch_user(api_url, token, transport=transport)
    data = load_config(config_file)
    profiles = stored_profiles(data)
    entry: dict[str, Any] = dict(profiles.get(profile, {}))
    entry["api_url"] = api_url
    where: TokenStore
    if keyring_usable() and _keyring_set(profile, token):
        entry.pop("token", None)
        where = "keyring"
    else:
        entry["token"] = token
        where = "config"
    profiles[profile] = entry
    data["profiles"] = profiles
    data.setdefault("default_profile", profile)
    path = save_config(data, config_file)
    return LoginResult(profile, api_url, user, where, path)


@dataclass(frozen=True)
class ProfileStatus:
    name: str
    api_url: str
    stored_in: TokenStore | None
    user: User | None = None
    error: str | None = None
    is_default: bool = False

    @property
    def ok(self) -> bool:
        return self.user is not None


async def _check(
    name: str,
    api_url: str,
    token: str | None,
    stored_in: TokenStore | None,
    is_default: bool,
    transport: httpx.AsyncBaseTransport | None,
) -> ProfileStatus:
    if not token:
        return ProfileStatus(name, api_url, None, error="no token stored", is_default=is_default)
    try:
        user = await fetch_user(api_url, token, transport=transport)
    except GitBookError as exc:
        return ProfileStatus(name, api_url, stored_in, error=str(exc), is_default=is_default)
    return ProfileStatus(name, api_url, stored_in, user=user, is_default=is_default)


async def status(
    *,
    config_file: Path | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> list[ProfileStatus]:
    """Every stored profile: its URL, where its token is, and whose token it is."""
    data = load_config(config_file)
    default = str(data.get("default_profile") or DEFAULT_PROFILE)
    results = []
    for name, raw in sorted(stored_profiles(data).items()):
        api_url = str(raw.get("api_url") or DEFAULT_API_URL).rstrip("/")
        from_keyring = _keyring_get(name)
        token = from_keyring or (str(raw["token"]) if raw.get("token") else None)
        where: TokenStore | None = "keyring" if from_keyring else ("config" if token else None)
        results.append(await _check(name, api_url, token, where, name == default, transport))
    return results


async def env_status(
    *,
    config_file: Path | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> ProfileStatus | None:
    """The ``GITBOOK_TOKEN`` environment token (which overrides stored ones), if set."""
    token = os.environ.get("GITBOOK_TOKEN")
    if not token:
        return None
    data = load_config(config_file)
    default = str(data.get("default_profile") or DEFAULT_PROFILE)
    stored_url = stored_profiles(data).get(default, {}).get("api_url") or DEFAULT_API_URL
    api_url = str(os.environ.get("GITBOOK_API_URL") or stored_url).rstrip("/")
    return await _check("GITBOOK_TOKEN", api_url, token, None, False, transport)


def logout(profile: str = DEFAULT_PROFILE, *, config_file: Path | None = None) -> list[str]:
    """Remove the profile's token from the keyring and the config file (and the profile
    itself); where a token was removed from (empty when there was none)."""
    removed: list[str] = []
    if _keyring_delete(profile):
        removed.append("keyring")
    path = config_file or config_path()
    data = load_config(path)
    profiles = stored_profiles(data)
    if profile in profiles:
        if profiles.pop(profile).get("token"):
            removed.append("config")
        data["profiles"] = profiles
        if data.get("default_profile") == profile:
            data.pop("default_profile")
        save_config(data, path)
    return removed
