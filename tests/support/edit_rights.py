"""Who may not suggest an edit on the review desk (``support.review_world.desk``): a
reader, or an admin on a locked space — the app signed in as either."""

from __future__ import annotations

from pathlib import Path

from gitbook_tui.tui.app import GitBookApp
from support.review_world import make_app
from support.worlds import World

REFUSALS = {"rhea": "needs edit rights", "locked": "is locked"}
"""What the app says when each of them presses e."""


def app_as(world: World, tmp_path: Path, desk: dict, who: str) -> GitBookApp:
    """The desk's app signed in as ``who``; ``"locked"`` is alice (an admin) with the
    desk's space locked first."""
    if who == "locked":
        r = world.client().patch(f"/spaces/{desk['space']['id']}", json={"editMode": "locked"})
        assert r.status_code == 200, r.text
    return make_app(world, tmp_path, "alice" if who == "locked" else who)
