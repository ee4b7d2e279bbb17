"""Configuration file and profiles: where the server is and which token to use."""

from __future__ import annotations

import os
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from ..folders import config_folder, private_dir

DEFAULT_API_URL = "https://api.gitbook.com/v1"
KEYRING_SERVICE = "gitbook-tui"


def config_path() -> Path:
    return config_folder() / "config.toml"


@dataclass
class Profile:
    name: str
    api_url: str = DEFAULT_API_URL
    token: str | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return f"Profile(name={self.name!r}, api_url={self.api_url!r})"


def load_config(path: Path | None = None) -> dict[str, Any]:
    path = path or config_path()
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
        return {}


def save_config(data: dict[str, Any], path: Path | None = None) -> Path:
    """Write the config file with owner-only permissions (it may hold a token).

    The new content goes to a 0600 temporary file that then replaces the old one, so the
    token is never readable by others, not even for a moment."""
    path = path or config_path()
    private_dir(path.parent, tighten=False)
    fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".toml", dir=path.parent)
    try:
        os.chmod(tmp, 0o600)
        with os.fdopen(fd, "wb") as handle:
            tomli_w.dump(data, handle)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def stored_profiles(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The ``[profiles.NAME]`` tables of a loaded config."""
    raw = data.get("profiles")
    if not isinstance(raw, dict):
        return {}
    return {str(k): v for k, v in raw.items() if isinstance(v, dict)}


def profile_from_config(name: str | None = None, path: Path | None = None) -> Profile:
    data = load_config(path)
    name = name or str(data.get("default_profile") or "default")
    raw = stored_profiles(data).get(name, {})
    token = raw.get("token")
    return Profile(
        name=name,
        api_url=str(raw.get("api_url") or DEFAULT_API_URL).rstrip("/"),
        token=str(token) if token else None,
    )


def keyring_token(profile: str) -> str | None:
    """The profile's token in the OS keyring (None when absent or no keyring works)."""
    try:
        import keyring

        return keyring.get_password(KEYRING_SERVICE, profile)
    except Exception:
        return None


def resolve(
    token: str | None = None,
    base_url: str | None = None,
    profile: str | None = None,
    config_file: Path | None = None,
) -> tuple[str, str | None]:
    """(base URL, token): explicit arguments, then GITBOOK_API_URL/GITBOOK_TOKEN, then the
    stored profile (token from the OS keyring, else the config file).

    A stored token is only sent to the server it was stored for: with another URL (from
    the arguments or the environment) and no token given, there is no token."""
    stored = profile_from_config(profile, config_file)
    url = (base_url or os.environ.get("GITBOOK_API_URL") or stored.api_url).rstrip("/")
    tok = token or os.environ.get("GITBOOK_TOKEN")
    if not tok and url == stored.api_url:
        tok = keyring_token(stored.name) or stored.token
    return url, tok
