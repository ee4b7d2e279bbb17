"""Smaller items of the navigation model: outline preselects the heading being read, the
footer follows modal screens, the CLI (open '', --version, --help), keymap id warnings,
the demo's state kept per demo."""

from __future__ import annotations

import pytest

from gitbook_tui.cli import build_parser, main
from gitbook_tui.tui.app import DEMO_ACCOUNT, GitBookApp
from gitbook_tui.tui.browse.outline_screen import OutlineScreen
from gitbook_tui.tui.common.config import TuiConfig
from gitbook_tui.tui.common.hint_footer import HintFooter
from gitbook_tui.tui.common.keymap import unknown_keymap_ids
from gitbook_tui.tui.common.state import StateStore
from gitbook_tui.tui.textual_compat import FooterKey
from support import tree_world
from support.notes import notes_of
from support.tree_world import Transport, app_on, browser_ready, make_client, open_page
from support.waits import footers_current, until, until_screen

SECTIONS = "# Top\n\n" + "\n\n".join(
    f"## Section {n}\n\n" + "\n\n".join(f"Text {n}.{k}" for k in range(12)) for n in range(6)
)


@pytest.fixture
def sections(world, workspace):
    page = tree_world.page
    tree_world.add_pages(world, workspace["notes"], [page("Sections", SECTIONS)])
    return workspace


def footer_texts(screen) -> list[str]:
    footer = screen.query_one(HintFooter)
    return [f"{k.key_display} {k.description}" for k in footer.query(FooterKey)]


async def test_outline_preselects_the_heading_being_read_and_footers_follow(
    world, sections, tmp_path
):
    app = app_on(world, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = await open_page(pilot, app, sections["notes"], "Sections")
        assert browser.header.breadcrumb.text.endswith("Notes / Sections")
        assert browser.viewer.scroll_to_anchor("section-3")
        await pilot.press("j")  # a line into section 3
        await pilot.press("t")
        await until_screen(pilot, OutlineScreen)
        await pilot.pause()
        listing = app.screen.query_one("#outline-list")
        assert listing.highlighted_option is not None
        assert "Section 3" in str(listing.highlighted_option.prompt)
        # the footer is the outline's, not the browser's
        await until(
            pilot,
            lambda: footers_current(app) and any("Close" in t for t in footer_texts(app.screen)),
            "the outline's footer drawn",
        )
        texts = footer_texts(app.screen)
        assert any("Close" in t for t in texts), texts
        assert not any("Outline" in t or "Filter" in t for t in texts), texts
        await pilot.press("escape")
        await pilot.press("question_mark")
        await until(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
        await until(
            pilot,
            lambda: footers_current(app) and any("All keys" in t for t in footer_texts(app.screen)),
            "the help's footer drawn",
        )


def test_cli_open_empty_target_version_and_help(capsys) -> None:
    assert main(["open", ""]) == 2
    assert "give a space id" in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["--version"])
    assert done.value.code == 0
    assert "gitbook-tui 0.1.0" in capsys.readouterr().out
    text = build_parser().format_help()
    assert "GITBOOK_TOKEN" in text and "GITBOOK_API_URL" in text and "config.toml" in text


async def test_mistyped_keymap_id_is_warned(world, workspace, tmp_path):
    assert unknown_keymap_ids({"tree.down": "n", "tree.dwon": "x"}) == ["tree.dwon"]
    app = app_on(world, tmp_path, keymap={"tree.dwon": "n", "tree.down": "n"})
    seen = notes_of(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: browser_ready(app))
        await until(pilot, lambda: any("tree.dwon" in s for s in seen))
        assert not any("tree.down," in s or s.endswith("tree.down") for s in seen)


async def test_demo_state_is_kept_per_demo_not_per_port(world, tmp_path):
    app = GitBookApp(
        make_client(Transport(world.app)),
        demo=True,
        config=TuiConfig(),
        state_store=StateStore(tmp_path / "state.json"),
    )
    assert app.account == DEMO_ACCOUNT
    plain = app_on(world, tmp_path)
    assert plain.account != DEMO_ACCOUNT


def test_search_snippets_leave_out_front_matter() -> None:
    from gitbook_tui.server.content.search_index import split_sections

    markdown = (
        "---\ndescription: The summary\nicon: book\n---\n\nFirst words.\n\n## Next\n\nMore.\n"
    )
    sections = split_sections(markdown, "Page")
    intro = sections[0][2]
    assert "description" not in intro and "icon:" not in intro
    assert "First words." in intro
    assert [s[0] for s in sections] == ["", "next"]
    # a rule later in a page is not front matter
    assert "after" in split_sections("Text\n\n---\n\nafter\n", "P")[0][2]


async def test_footer_keys_of_earlier_screens_are_freed(world, workspace, tmp_path):
    """Every view switch composes the footer anew; the keys it replaced are not kept alive
    (Textual's data binding kept each one, ~19 per switch, for the life of the app)."""
    import gc

    app = app_on(world, tmp_path)

    def live_keys() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, FooterKey))

    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: browser_ready(app))
        for key in "3131":  # each view made once
            await pilot.press(key)
            await pilot.pause()
        before = live_keys()
        for _ in range(5):
            for key in "31":
                await pilot.press(key)
                await pilot.pause()
        assert live_keys() <= before + 5  # (a footer mid-recompose), not 10 switches' worth
