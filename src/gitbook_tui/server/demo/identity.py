"""Who the demo's users are: their fixed tokens (light: no server import, so the app can
name the demo account before the server has even been imported)."""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["DEMO_DIR", "demo_admin_token", "demo_token"]

DEMO_DIR = Path(__file__).parent


def demo_token(user_key: str) -> str:
    """Every demo user has a fixed token, so one can act as any of them."""
    return f"demo-{user_key}"


def demo_admin_token() -> str:
    """The token of the demo's organization admin (the user the demo app signs in as)."""
    data = json.loads((DEMO_DIR / "workspace.json").read_text("utf-8"))
    return demo_token(next(u["key"] for u in data["users"] if u.get("orgRole") == "admin"))
