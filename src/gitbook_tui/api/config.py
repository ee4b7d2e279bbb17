"""Configuration file and profiles: where the server is and which token to use."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w
from platformdirs import user_config_dir

DEFAULT_API_URL = "https://api.gitbook.com/v1"
KEYRING_SERVICE = "gitbook-tui"


def config_path() -> Path:
    return Path(user_config_dir("gitbook-tui", appauthor=False)) / "config.toml"


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
    """Write the config file with owner-only permissions (it may hold a token)."""
    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        tomli_w.dump(data, handle)
    os.chmod(path, 0o600)
    return path


def profile_from_config(name: str | None = None, path: Path | None = None) -> Profile:
    data = load_config(path)
    name = name or data.get("default_profile") or "default"
    raw = data.get("profiles", {}).get(name, {})
    return Profile(
        name=name,
        api_url=str(raw.get("api_url") or DEFAULT_API_URL),
        token=raw.get("token"),
    )


def keyring_token(profile: str) -> str | None:
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
    stored profile (token from the OS keyring, else the config file)."""
    stored = profile_from_config(profile, config_file)
    url = base_url or os.environ.get("GITBOOK_API_URL") or stored.api_url
    tok = token or os.environ.get("GITBOOK_TOKEN") or keyring_token(stored.name) or stored.token
    return url.rstrip("/"), tok
