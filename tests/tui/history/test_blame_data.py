"""Blame without widgets: the line alignment walked back step by step, and the walk through a
space's revisions with its cache."""

from __future__ import annotations

from collections.abc import Callable

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.tui.history.blame_data import BlameCache, BlameWalk
from gitbook_tui.tui.history.blame_lines import LineBlame, source_blocks
from support.history_world import EDITS

Clients = Callable[..., AsyncGitBook]


def test_source_blocks_keep_fences_whole_and_headings_alone() -> None:
    text = "# Title\nIntro line one\nline two\n\n```py\na\n\nb\n```\n\n## Next\n- item\n"
    lines = text.split("\n")
    assert source_blocks(lines) == [(0, 1), (1, 3), (4, 9), (10, 11), (11, 12)]


def test_each_block_dates_from_the_step_that_last_changed_it() -> None:
    newest = "# Guide\n\nAlpha v3.\n\nBeta.\n\nGamma new.\n"
    blame = LineBlame(newest)
    assert len(blame.blocks) == 4 and blame.open == 4
    # step 0: the newest revision reworded Alpha and added Gamma
    assert blame.step("# Guide\n\nAlpha v2.\n\nBeta.\n") == [1, 3]
    # step 1: Beta changed one revision earlier
    assert blame.step("# Guide\n\nAlpha v1.\n\nBeta old.\n") == [2]
    assert blame.finish() == [0]  # the title dates from the oldest text
    assert blame.origin == [2, 0, 1, 0] and blame.open == 0


def test_lines_removed_from_inside_a_block_change_it() -> None:
    blame = LineBlame("- one\n- three\n\nOther.\n")
    assert blame.step("- one\n- two\n- three\n\nOther.\n") == [0]
    assert blame.origin[1] is None


def test_a_moved_block_keeps_its_date() -> None:
    blame = LineBlame("B.\n\nA.\n")
    assert blame.step("A.\n\nB.\n") in ([0], [1])  # one of the two moved in the alignment
    assert blame.open == 1


async def test_the_walk_blames_intro_over_its_direct_edits(connect: Clients, story: dict) -> None:
    client = connect("alice")
    revision = (await client.spaces.get(story["space"])).revision
    assert revision is not None
    walk = BlameWalk(client, story["space"], story["pages"]["Intro"], revision)
    while not walk.done:
        await walk.advance(0.05)
    assert walk.title == "Intro" and walk.blame is not None
    first, second = (walk.entry_of(b) for b in range(len(walk.blame.blocks)))
    assert first is not None and second is not None
    # the first paragraph changed with the last direct edit; the second came with "Seed"
    assert first.kind == "edits" and first is walk.entries[0]
    assert second.cr_number is not None and "Seed" in second.what
    assert walk.ending == "created"
    assert walk.walked >= EDITS + 2  # the hostile merge on top, every edit, the seed
    assert len(walk.entries) == EDITS + 1  # each edit of Intro, then the seed


async def test_a_second_blame_of_a_page_reuses_the_walk(connect: Clients, story: dict) -> None:
    client = connect("alice")
    cache = BlameCache(size=1)
    revision = (await client.spaces.get(story["space"])).revision or ""
    walk = cache.walk(client, story["space"], story["pages"]["Setup"], revision)
    await walk.advance(0.05)
    assert cache.walk(client, story["space"], story["pages"]["Setup"], revision) is walk
    other = cache.walk(client, story["space"], story["pages"]["Intro"], revision)
    assert other is not walk  # the cache keeps one: Setup's walk is dropped
    assert cache.walk(client, story["space"], story["pages"]["Setup"], revision) is not walk
