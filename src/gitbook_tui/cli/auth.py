"""``gitbook-tui auth login|status|logout``: stored API tokens per profile."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..api import auth
    from ..models import User

__all__ = ["run_auth"]


def _read_token(given: str | None) -> str:
    if given is not None:
        return given
    if sys.stdin is not None and sys.stdin.isatty():
        import getpass

        return getpass.getpass("GitBook API token: ")
    return sys.stdin.readline() if sys.stdin is not None else ""


def run_auth(args: argparse.Namespace) -> int:
    import asyncio

    from ..api import auth
    from ..api.config import DEFAULT_API_URL, config_path
    from ..api.errors import APIConnectionError, AuthenticationError, GitBookError

    if args.auth_command == "login":
        api_url = args.api_url or DEFAULT_API_URL
        token = _read_token(args.token).strip()
        if not token:
            print("gitbook-tui auth login: no token given", file=sys.stderr)
            return 1
        try:
            result = asyncio.run(auth.login(token, api_url=api_url, profile=args.profile))
        except AuthenticationError as exc:
            print(
                f"gitbook-tui auth login: {api_url} rejected the token ({exc.message}); "
                "nothing was stored",
                file=sys.stderr,
            )
            return 1
        except APIConnectionError as exc:
            print(f"gitbook-tui auth login: cannot reach {api_url}: {exc}", file=sys.stderr)
            return 1
        except (GitBookError, ValueError) as exc:
            print(f"gitbook-tui auth login: {exc}; nothing was stored", file=sys.stderr)
            return 1
        if result.stored_in == "config":
            print(
                "gitbook-tui auth login: warning: no usable OS keyring; the token is stored "
                f"in {result.config_file} (readable only by you)",
                file=sys.stderr,
            )
        where = "the OS keyring" if result.stored_in == "keyring" else str(result.config_file)
        print(
            f"Logged in to {result.api_url} as {auth.describe_user(result.user)} "
            f"(profile '{result.profile}'); token stored in {where}."
        )
        return 0
    if args.auth_command == "status":
        env = asyncio.run(auth.env_status())
        profiles = asyncio.run(auth.status())
        if env is not None:
            print("GITBOOK_TOKEN is set: it overrides the stored tokens.")
            _print_status(env, auth.describe_user)
        if not profiles:
            print(f"No stored profiles in {config_path()}. Run 'gitbook-tui auth login'.")
        for profile in profiles:
            _print_status(profile, auth.describe_user)
        ok = all(p.ok for p in profiles) and (env is None or env.ok)
        return 0 if ok and (profiles or env is not None) else 1
    removed = auth.logout(args.profile)
    if not removed:
        print(f"gitbook-tui auth logout: no stored token for profile '{args.profile}'")
        return 1
    places = " and ".join(
        "the OS keyring" if r == "keyring" else "the config file" for r in removed
    )
    print(f"Logged out of profile '{args.profile}' (token removed from {places}).")
    return 0


def _print_status(profile: auth.ProfileStatus, describe: Callable[[User], str]) -> None:
    where = {"keyring": "OS keyring", "config": "config file", None: "none"}[profile.stored_in]
    if profile.name == "GITBOOK_TOKEN":
        where = "environment"
    default = " (default)" if profile.is_default else ""
    print(f"{profile.name}{default}")
    print(f"  API URL: {profile.api_url}")
    print(f"  token:   {where}")
    if profile.user is not None:
        print(f"  user:    {describe(profile.user)}")
    else:
        print(f"  error:   {profile.error}")
