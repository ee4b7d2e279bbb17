"""HintFooter keeps its keys while what it shows stays the same (focus moves between widgets
with the same hints, binding refreshes that change nothing) and shows the new hints, the
new dimming, the new width's fit as soon as they change."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from gitbook_tui.tui.common.hint_footer import HintFooter
from gitbook_tui.tui.textual_compat import FooterKey
from support.waits import until


class _Row(Static, can_focus=True):
    """One of several focusable rows sharing their keys (as list rows or panes do)."""

    BINDINGS = [
        Binding("o", "bell", "Open", id="row.open"),
        Binding("d", "delete", "Delete", id="row.delete"),
    ]

    deletable = True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "delete" and not self.deletable else True

    def action_delete(self) -> None:
        self.app.bell()


class _Search(Static, can_focus=True):
    BINDINGS = [Binding("slash", "bell", "Find", id="search.find")]


class _Rows(App[None]):
    def compose(self) -> ComposeResult:
        for n in range(4):
            yield _Row(f"row {n}", id=f"row-{n}")
        yield _Search("search", id="search")
        yield HintFooter(compact=True)


def _keys(app: App[None]) -> list[FooterKey]:
    return list(app.screen.query_one(HintFooter).query(FooterKey))


def _shown(app: App[None]) -> list[tuple[str, bool]]:
    return [(key.description, key.has_class("-disabled")) for key in _keys(app)]


def _descriptions(app: App[None]) -> list[str]:
    return [key.description for key in _keys(app)]


async def test_focus_moves_that_keep_the_hints_keep_the_footer_keys() -> None:
    app = _Rows()
    async with app.run_test(size=(80, 10)) as pilot:
        app.set_focus(app.query_one("#row-0"))
        await until(pilot, lambda: ("Open", False) in _shown(app), "the rows' hints")
        before = _keys(app)
        for n in (1, 2, 3, 0, 2, 1, 3):  # seven moves, the same hints every time
            app.set_focus(app.query_one(f"#row-{n}"))
            await pilot.pause()
        app.screen.refresh_bindings()  # a refresh that changes nothing
        await pilot.pause()
        after = _keys(app)
        assert len(after) == len(before) > 0
        assert all(a is b for a, b in zip(after, before, strict=True))  # not recomposed


async def test_a_move_to_other_hints_shows_them() -> None:
    app = _Rows()
    async with app.run_test(size=(80, 10)) as pilot:
        app.set_focus(app.query_one("#row-0"))
        await until(pilot, lambda: ("Open", False) in _shown(app), "the rows' hints")
        app.set_focus(app.query_one("#search"))
        await until(pilot, lambda: _descriptions(app) == ["Find", "palette"], "Find alone")
        app.set_focus(app.query_one("#row-3"))
        await until(
            pilot, lambda: _descriptions(app) == ["Open", "Delete", "palette"], "the rows' again"
        )


async def test_a_binding_refresh_that_dims_a_key_dims_it() -> None:
    app = _Rows()
    async with app.run_test(size=(80, 10)) as pilot:
        row = app.query_one("#row-0", _Row)
        app.set_focus(row)
        await until(pilot, lambda: ("Delete", False) in _shown(app), "Delete shown")
        row.deletable = False
        row.refresh_bindings()
        await until(pilot, lambda: ("Delete", True) in _shown(app), "Delete dimmed")
        row.deletable = True
        row.refresh_bindings()
        await until(pilot, lambda: ("Delete", False) in _shown(app), "Delete undimmed")


async def test_a_narrower_footer_shows_fewer_keys_and_compact_keys_stay_compact() -> None:
    app = _Rows()
    async with app.run_test(size=(80, 10)) as pilot:
        app.set_focus(app.query_one("#row-0"))
        await until(pilot, lambda: ("Delete", False) in _shown(app), "Delete shown")
        assert all(key.has_class("-compact") and key.compact for key in _keys(app))
        await pilot.resize_terminal(22, 10)  # the palette key (12) and Open (7)
        await until(pilot, lambda: ("Delete", False) not in _shown(app), "Delete left out")
        assert ("Open", False) in _shown(app)
        footer = app.screen.query_one(HintFooter)
        footer.compact = False
        await pilot.pause()
        assert not any(key.has_class("-compact") or key.compact for key in _keys(app))
