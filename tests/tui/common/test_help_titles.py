"""Help (`?`) titles its groups with words a user knows, never a Python class name (QA #11)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

from textual.dom import DOMNode
from textual.widgets import Static

import gitbook_tui.tui
from gitbook_tui.tui.common.help_screen import HelpScreen, class_title
from support import review_world
from support.waits import until_screen
from support.worlds import World

CAMEL = re.compile(r"[a-z][A-Z]")


def _our_classes_with_bindings() -> list[type]:
    found: list[type] = []
    for module in pkgutil.walk_packages(gitbook_tui.tui.__path__, "gitbook_tui.tui."):
        loaded = importlib.import_module(module.name)
        for value in vars(loaded).values():
            if (
                isinstance(value, type)
                and issubclass(value, DOMNode)
                and value.__module__ == loaded.__name__
                and "BINDINGS" in value.__dict__
            ):
                found.append(value)
    return found


def test_every_group_title_is_words() -> None:
    classes = _our_classes_with_bindings()
    assert len(classes) > 20
    for cls in classes:
        title = class_title(cls)
        assert not CAMEL.search(title), (cls.__name__, title)
    from gitbook_tui.tui.comments.thread_list import ThreadList
    from gitbook_tui.tui.render.diff_view import DiffView
    from gitbook_tui.tui.review.change_request_review_screen import ChangeRequestReviewScreen
    from gitbook_tui.tui.sites.structure_pane import StructurePane

    assert class_title(DiffView) == "Diff"
    assert class_title(ChangeRequestReviewScreen) == "Review"
    assert class_title(ThreadList) == "Threads" and class_title(StructurePane) == "Structure"


async def test_review_pane_help_groups(world: World, desk: dict, tmp_path: Path) -> None:
    app = review_world.make_app(world, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await review_world.open_review(app, pilot, "Update partition sizing")
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)
        await pilot.pause()
        titles = [str(s.render()) for s in app.screen.query(Static).filter(".help-group")]
        assert "Review" in titles and "Everywhere" in titles, titles
        assert not any(CAMEL.search(t) for t in titles), titles
