"""Every private Textual/Rich name behind ``tui/textual_compat.py`` still exists and still
behaves as the app assumes; a failure names the internal a Textual (or Rich) upgrade broke."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

import pytest
from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap
from textual.widgets import Footer, Static, Tree
from textual.worker import WorkerFailed, WorkerState

from gitbook_tui.tui import textual_compat as compat
from support.waits import until


class Probe(App[None]):
    BINDINGS = [Binding("x", "noop", "No-op", id="probe.noop")]

    def compose(self) -> ComposeResult:
        yield compat.BatchingTree[str]("root", id="tree")
        yield Footer()

    def action_noop(self) -> None:
        pass


def _tree() -> compat.BatchingTree[str]:
    tree = compat.BatchingTree[str]("root")
    tree.root.add_leaf("a")
    return tree


def tree_invalidate() -> None:
    tree = _tree()
    updates = tree._updates
    compat.tree_invalidate(tree)
    assert tree._updates == updates + 1


def tree_clear_line_cache() -> None:
    tree = _tree()
    assert callable(Tree._clear_line_cache)
    with tree.batch_nodes():
        tree.root.add_leaf("b")  # cleared the cache, did not invalidate yet
    assert [c.label.plain for c in tree.root.children] == ["a", "b"]


def tree_nodes() -> None:
    tree = _tree()
    registry = compat.tree_node_registry(tree)
    assert isinstance(registry, dict)
    child = tree.root.children[0]
    assert registry[child.id] is child


def tree_node_children() -> None:
    tree = _tree()
    children = compat.tree_children(tree.root)
    assert isinstance(children, list) and children == list(tree.root.children)
    children.clear()
    assert not tree.root.children  # the node's own list, not a copy


async def _in_app(check: Callable[[Probe], None]) -> None:
    app = Probe()
    async with app.run_test() as pilot:
        footer = app.query_one(Footer)
        await until(pilot, lambda: footer.children, "the footer to compose its keys")
        check(app)


def modal_binding_chain(app: Probe) -> None:
    chain = compat.modal_binding_chain(app.screen)
    assert chain and all(isinstance(b, BindingsMap) for _node, b in chain)
    assert any(node is app for node, _ in chain)


def keymap(app: Probe) -> None:
    assert isinstance(compat.app_keymap(app), dict)


def check_action_state(app: Probe) -> None:
    assert compat.check_action_state(app, "noop", app) is True


def dom_bindings(app: Probe) -> None:
    bindings = compat.node_bindings(app)
    assert isinstance(bindings, BindingsMap) and "x" in bindings.key_to_bindings


def footer_key(app: Probe) -> None:
    assert isinstance(compat.footer_bindings_ready(app.query_one(Footer)), bool)
    assert compat.FooterKey.__name__ == "FooterKey"
    assert app.query(compat.FooterKey)  # what Footer composes its keys of


def footer_key_disabled(app: Probe) -> None:
    key = app.query(compat.FooterKey).first()
    compat.reshow_footer_key(key, "y", "y", "Other", "app.bell", disabled=True, tooltip="")
    assert key._disabled is True and key.has_class("-disabled")
    assert key.description == "Other" and key.action == "app.bell"


def footer_bindings_ready(app: Probe) -> None:
    assert compat.footer_bindings_ready(app.query_one(Footer)) is True


def style_meta() -> None:
    assert compat.style_has_meta(Style.from_meta({"k": 1}))
    assert not compat.style_has_meta(Style(bold=True))


def option_list_move_page() -> None:
    from textual.widgets import OptionList

    assert callable(compat._ORIGINAL_MOVE_PAGE)
    assert OptionList._move_page.__name__ in ("_move_page", "_guarded_move_page")


def leaving(app: Probe) -> None:
    tree = app.query_one(compat.BatchingTree)
    assert isinstance(tree._pruning, bool) and isinstance(tree._closing, bool)
    assert isinstance(tree._closed, bool)
    assert not compat.is_leaving(tree)


def handle_exception() -> None:
    """A worker's failure reaches the app through ``App._handle_exception``, the method
    :class:`compat.WorkerSafeApp` overrides (the tests below run it)."""
    from textual.worker import Worker

    assert callable(vars(App)["_handle_exception"])
    assert "_handle_exception" in inspect.getsource(Worker._run)


def composed(app: Probe) -> None:
    rows = compat.composed_screen(app)
    assert len(rows) == app.size.height and all(r.cell_length == app.size.width for r in rows)
    assert any(s.style is not None and s.style.color is not None for r in rows for s in r)


def drawn_on_demand(app: Probe) -> None:
    screen, tree = app.screen, app.query_one("#tree")
    compositor = screen._compositor
    drawn: list[object] = []
    render_update = compositor.render_update

    def counted(*args: Any, **kwargs: Any) -> Any:
        drawn.append(args)
        return render_update(*args, **kwargs)

    compositor.render_update = counted  # type: ignore[method-assign]
    try:
        with compat.drawn_only_on_demand(app):
            screen._dirty_widgets.add(tree)
            screen._compositor_refresh()
            assert not drawn and not screen._dirty_widgets  # not drawn, nothing left to draw
            assert compat.composed_screen(app)  # drawn when read
        drawn.clear()
        screen._dirty_widgets.add(tree)
        screen._compositor_refresh()
        assert drawn  # drawn for the terminal again
    finally:
        del compositor.render_update


def restyled_top_only(app: Probe) -> None:
    screen = app.screen
    assert callable(screen._refresh_layout)
    with compat.restyled_top_screen_only(app):
        app._css_update_count += 1  # (what a theme switch does before its refresh)
        app.refresh_css()
        assert screen._css_update_count == app._css_update_count
    assert all(s._css_update_count == app._css_update_count for s in app.screen_stack)


def shared_css() -> None:
    from textual.css.stylesheet import Stylesheet

    compat.share_parsed_css()
    css = "Probe { color: $probe-colour; }"
    first, second = (Stylesheet(variables={"probe-colour": "red"}) for _ in range(2))
    for sheet in (first, second):
        sheet.add_source(css, read_from=("probe", ""))
        sheet.parse()
    assert first.rules[0] is second.rules[0]  # parsed once, shared
    blue = Stylesheet(variables={"probe-colour": "blue"})
    blue.add_source(css, read_from=("probe", ""))
    blue.parse()
    assert blue.rules[0] is not first.rules[0]  # other variables: parsed again
    assert blue.rules[0].styles.color != first.rules[0].styles.color


def pilot_waits() -> None:
    from textual import _wait

    before = (_wait.SLEEP_GRANULARITY, _wait.SLEEP_IDLE)
    compat.quicken_pilot_waits(0.005, 0.0005)
    assert (_wait.SLEEP_GRANULARITY, _wait.SLEEP_IDLE) == (0.005, 0.0005)
    _wait.SLEEP_GRANULARITY, _wait.SLEEP_IDLE = before


PROBES: dict[str, Callable[..., Any]] = {
    "textual.widgets.Tree._invalidate": tree_invalidate,
    "textual.widgets.Tree._clear_line_cache": tree_clear_line_cache,
    "textual.widgets.Tree._tree_nodes": tree_nodes,
    "textual.widgets.tree.TreeNode._children": tree_node_children,
    "textual.screen.Screen._modal_binding_chain": modal_binding_chain,
    "textual.app.App._keymap": keymap,
    "textual.app.App._check_action_state": check_action_state,
    "textual.dom.DOMNode._bindings": dom_bindings,
    "textual.widgets._footer.FooterKey": footer_key,
    "textual.widgets.Footer._bindings_ready": footer_bindings_ready,
    "textual.widgets._footer.FooterKey._disabled": footer_key_disabled,
    "rich.style.Style._meta": style_meta,
    "textual.widgets.OptionList._move_page": option_list_move_page,
    "textual.dom.DOMNode._pruning": leaving,
    "textual.app.App._handle_exception": handle_exception,
    "textual.message_pump.MessagePump._closing": leaving,
    "textual.message_pump.MessagePump._closed": leaving,
    "textual.screen.Screen._compositor": composed,
    "textual._compositor.LayoutUpdate": composed,
    "textual.app.App._background_screens": composed,
    "textual.screen.Screen._compositor_refresh": drawn_on_demand,
    "textual.screen.Screen._dirty_widgets": drawn_on_demand,
    "textual.app.App._update_mouse_over": drawn_on_demand,
    "textual.app.App._css_update_count": restyled_top_only,
    "textual.screen.Screen._css_update_count": restyled_top_only,
    "textual.screen.Screen._refresh_layout": restyled_top_only,
    "textual.css.stylesheet.Stylesheet._parse_rules": shared_css,
    "textual.css.stylesheet.Stylesheet._variables": shared_css,
    "textual._wait.SLEEP_GRANULARITY": pilot_waits,
    "textual._wait.SLEEP_IDLE": pilot_waits,
}
IN_APP = {
    modal_binding_chain,
    keymap,
    check_action_state,
    dom_bindings,
    footer_key,
    footer_bindings_ready,
    footer_key_disabled,
    leaving,
    composed,
    drawn_on_demand,
    restyled_top_only,
}


def test_every_internal_has_a_probe() -> None:
    assert set(PROBES) == set(compat.INTERNALS)


@pytest.mark.parametrize("internal", compat.INTERNALS)
async def test_internal_still_works(internal: str) -> None:
    probe = PROBES[internal]
    try:
        if probe in IN_APP:
            await _in_app(probe)
        else:
            probe()
    except (AttributeError, ImportError, AssertionError, TypeError, KeyError) as exc:
        pytest.fail(
            f"Textual/Rich internal {internal} is gone or changed ({exc!r}): "
            "update gitbook_tui/tui/textual_compat.py for this version",
            pytrace=False,
        )


async def test_palette_pageup_at_a_tiny_terminal_does_not_crash() -> None:
    """Textual's OptionList._move_page raised KeyError here (palette + pageup at 12×4)."""
    compat.guard_option_list_paging()
    app = App[None]()
    async with app.run_test(size=(12, 4)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press("down", "pageup", "pagedown", "pageup", "pagedown")
        await pilot.pause()
        assert app.is_running
    assert app.return_code in (None, 0)


class SafeProbe(compat.WorkerSafeApp[None]):
    def compose(self) -> ComposeResult:
        yield Static("here", id="here")


def _filling(widget: Static, answer: asyncio.Event) -> Callable[[], Any]:
    """A worker body that awaits ``answer`` (the server), then fills a widget it looks up."""

    async def fill() -> None:
        await answer.wait()
        widget.query_one("#result", Static).update("answer")

    return fill


async def test_a_late_answer_for_a_closed_widget_does_not_take_the_app_down() -> None:
    """The worker of a widget no longer in the app (its screen was closed while it awaited)
    fails to find what it would fill: logged, the app runs on."""
    app = SafeProbe()
    async with app.run_test() as pilot:
        answer = asyncio.Event()
        closed = Static()  # (not attached: as a widget whose screen is being removed)
        worker = closed.run_worker(_filling(closed, answer), exit_on_error=True)
        answer.set()
        await until(pilot, lambda: worker.is_finished, "the worker to end")
        assert worker.state == WorkerState.ERROR
        await pilot.pause()
        assert app.is_running and app.query_one("#here").is_attached


async def test_any_other_worker_failure_still_ends_the_app() -> None:
    """The same failure in a widget still shown is a bug: the app ends with it."""
    app = SafeProbe()
    with pytest.raises(WorkerFailed):
        async with app.run_test() as pilot:
            answer = asyncio.Event()
            shown = app.query_one("#here", Static)
            shown.run_worker(_filling(shown, answer), exit_on_error=True)
            answer.set()
            await until(pilot, lambda: not app.is_running, "the app to end")
