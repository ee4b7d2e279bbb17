"""The private Textual and Rich names the app relies on, each behind one function here.

Textual is pinned; when an upgrade renames or drops one of these, only this module
changes, and ``tests/tui/test_textual_compat.py`` names the internal that went missing.
:data:`INTERNALS` lists them all (the test probes each one).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from typing import Any

from rich.style import Style
from textual import _wait
from textual._compositor import LayoutUpdate
from textual._styles_cache import StylesCache
from textual.app import App, ReturnType
from textual.binding import BindingsMap
from textual.css.model import RuleSet
from textual.css.query import NoMatches
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer, OptionList, Tree
from textual.widgets._footer import FooterKey
from textual.widgets.tree import TreeDataType, TreeNode
from textual.worker import NoActiveWorker, WorkerFailed, get_current_worker

__all__ = [
    "INTERNALS",
    "BatchingTree",
    "FooterKey",
    "WorkerSafeApp",
    "app_keymap",
    "check_action_state",
    "composed_screen",
    "drawn_only_on_demand",
    "footer_bindings_ready",
    "guard_option_list_paging",
    "is_leaving",
    "modal_binding_chain",
    "node_bindings",
    "quicken_pilot_waits",
    "reshow_footer_key",
    "restyled_top_screen_only",
    "share_parsed_css",
    "style_has_meta",
    "tree_children",
    "tree_invalidate",
    "tree_node_registry",
]

INTERNALS: tuple[str, ...] = (
    "textual.widgets.Tree._invalidate",
    "textual.widgets.Tree._clear_line_cache",
    "textual.widgets.Tree._tree_nodes",
    "textual.widgets.tree.TreeNode._children",
    "textual.screen.Screen._modal_binding_chain",
    "textual.app.App._keymap",
    "textual.app.App._check_action_state",
    "textual.dom.DOMNode._bindings",
    "textual.widgets._footer.FooterKey",
    "textual.widgets.Footer._bindings_ready",
    "textual.widgets._footer.FooterKey._disabled",
    "rich.style.Style._meta",
    "textual.widgets.OptionList._move_page",
    "textual.dom.DOMNode._pruning",
    "textual.app.App._handle_exception",
    "textual.message_pump.MessagePump._closing",
    "textual.message_pump.MessagePump._closed",
    "textual.screen.Screen._compositor",
    "textual._compositor.LayoutUpdate",
    "textual.app.App._background_screens",
    "textual.app.App._css_update_count",
    "textual.screen.Screen._css_update_count",
    "textual.screen.Screen._refresh_layout",
    "textual.screen.Screen._compositor_refresh",
    "textual.screen.Screen._dirty_widgets",
    "textual.app.App._update_mouse_over",
    "textual.css.stylesheet.Stylesheet._parse_rules",
    "textual.css.stylesheet.Stylesheet._variables",
    "textual._wait.SLEEP_GRANULARITY",
    "textual._wait.SLEEP_IDLE",
)
"""Every private name used through this module."""


# -- Tree ------------------------------------------------------------------------------------
class BatchingTree(Tree[TreeDataType]):
    """A Tree whose node changes inside :meth:`batch_nodes` invalidate it once, at the end.

    ``TreeNode.add`` and ``remove`` call ``Tree._invalidate`` (a whole-tree refresh) each
    time; inside a batch only the line cache is cleared, and the full invalidation runs
    once when the outermost batch ends."""

    _batch_depth = 0
    _batch_invalid = False

    @contextmanager
    def batch_nodes(self) -> Iterator[None]:
        """Nodes added or removed inside invalidate the tree once, at the end."""
        self._batch_depth += 1
        try:
            yield
        finally:
            self._batch_depth -= 1
            if not self._batch_depth and self._batch_invalid:
                self._batch_invalid = False
                super()._invalidate()

    def _invalidate(self) -> None:
        if self._batch_depth:
            if not self._batch_invalid:
                self._batch_invalid = True
                self._clear_line_cache()
            return
        super()._invalidate()


def tree_invalidate(tree: Tree[Any]) -> None:
    """Tell ``tree`` its nodes changed (what ``TreeNode.add``/``remove`` do; batched in a
    :class:`BatchingTree`)."""
    tree._invalidate()


def tree_children(node: TreeNode[TreeDataType]) -> list[TreeNode[TreeDataType]]:
    """The node's own list of children (``node.children`` is a read-only copy): removing
    from it drops children without a refresh each; call :func:`tree_invalidate` after."""
    return node._children


def tree_node_registry(tree: Tree[TreeDataType]) -> dict[Any, TreeNode[TreeDataType]]:
    """The tree's nodes by id (what ``get_node_by_id`` reads); removed nodes must leave it."""
    return tree._tree_nodes


# -- bindings ---------------------------------------------------------------------------------
def modal_binding_chain(screen: Screen[Any]) -> list[tuple[DOMNode, BindingsMap]]:
    """Textual's binding chain of ``screen`` (keymap applied, keys a focused input takes
    as text left out), from the focused widget up to the app."""
    return screen._modal_binding_chain


def app_keymap(app: App[Any]) -> Mapping[str, str]:
    """The user's keymap (binding id -> keys) the app applies."""
    return app._keymap


def node_bindings(node: DOMNode) -> BindingsMap:
    """The bindings ``node`` declares (before the keymap)."""
    return node._bindings


def check_action_state(app: App[Any], action: str, node: DOMNode) -> bool | None:
    """Whether ``action`` would run from ``node`` now (``check_action``: None = disabled)."""
    return app._check_action_state(action, node)


def footer_bindings_ready(footer: Footer) -> bool:
    """Whether the footer has had the screen's bindings yet (it composes nothing before)."""
    return bool(footer._bindings_ready)


def reshow_footer_key(
    key: FooterKey,
    key_name: str,
    key_display: str,
    description: str,
    action: str,
    *,
    disabled: bool,
    tooltip: str,
) -> None:
    """Make a mounted ``FooterKey`` show another binding, as a new one made with these
    arguments would (a footer whose hints change keeps its keys instead of remounting)."""
    key.key = key_name
    key.key_display = key_display
    key.description = description
    key.action = action
    key._disabled = disabled  # what a click checks (it rings the bell instead of the key)
    key.set_class(disabled, "-disabled")
    key.tooltip = tooltip or None
    key.refresh(layout=True)


# -- lifecycle --------------------------------------------------------------------------------
def is_leaving(node: DOMNode) -> bool:
    """Whether ``node`` is being removed (its screen was switched away or popped, or the
    app is closing): its children may already be gone, so a query would fail. Code that
    resumes after an ``await`` in a handler checks this before touching the DOM."""
    return bool(node._pruning or node._closing or node._closed or not node.is_attached)


def failed_for_leaving(error: BaseException) -> bool:
    """Whether ``error`` is a worker failing to find a widget of its own node while that
    node is being removed: its screen was closed while the worker awaited the server, and
    Textual cancels the worker only once the screen's last child is gone."""
    if not isinstance(error, WorkerFailed) or not isinstance(error.error, NoMatches):
        return False
    try:
        node = get_current_worker().node
    except NoActiveWorker:
        return False
    return isinstance(node, DOMNode) and is_leaving(node)


class WorkerSafeApp(App[ReturnType]):
    """An app a late answer cannot take down: a worker whose screen was closed before the
    server answered (``escape`` while a view loads) fails to find the widgets it would
    fill; that is logged, not the app's crash. Any other failure still is."""

    def _handle_exception(self, error: Exception) -> None:
        if failed_for_leaving(error):
            self.log.worker("its screen closed before it finished:", repr(error))
            return
        super()._handle_exception(error)


# -- OptionList -------------------------------------------------------------------------------
_ORIGINAL_MOVE_PAGE = OptionList._move_page


def _guarded_move_page(self: OptionList, direction: Any) -> None:
    # Lines not laid out yet (no room to lay them out: a terminal of 12×4): the
    # highlight stays where it is.
    with suppress(KeyError, IndexError):
        _ORIGINAL_MOVE_PAGE(self, direction)


def guard_option_list_paging() -> None:
    """Make ``pageup``/``pagedown`` in every OptionList (the command palette's included)
    safe: Textual's ``OptionList._move_page`` raises ``KeyError`` when its lines have not
    been laid out (palette + pageup at 12×4 took the app down). Idempotent."""
    OptionList._move_page = _guarded_move_page  # type: ignore[method-assign]


# -- Rich -------------------------------------------------------------------------------------
def style_has_meta(style: Style) -> bool:
    """Whether ``style`` carries meta (cheap: ``Style.meta`` unpickles it each time)."""
    return bool(style._meta)


# -- the composed screen ----------------------------------------------------------------------
def composed_screen(app: App[Any], *, screens_below: bool = True) -> list[Strip]:
    """The rows of the screen as the terminal gets them (what ``export_screenshot`` draws):
    every widget composed, screens under a modal blended in, the app's line filters applied
    (ANSI colours made truecolor, ``dim`` turned into a colour).

    ``screens_below=False`` leaves the screens under a modal out (its translucent
    background is drawn as a plain tint instead): the cells of the modal's own widgets are
    the same either way (a widget's colours blend with its ancestors' backgrounds, never
    with what is drawn under it), and composing the screens below — a full render of each,
    then tinted cell by cell — cost more than the modal itself."""
    stack = app._background_screens if screens_below else [app.screen]
    update = app.screen._compositor.render_update(full=True, screen_stack=stack)
    assert isinstance(update, LayoutUpdate)
    return [Strip.join(line) for line in update.strips]


@contextmanager
def drawn_only_on_demand(app: App[Any]) -> Iterator[None]:
    """Inside, the app's top screen keeps its layout and styles up to date but does not
    render its updates for the terminal (a headless app's terminal shows nothing): the
    screen is drawn only when read with :func:`composed_screen`. Textual renders the whole
    screen for every refresh (the faded screens under a modal included): a theme switch
    drew it ~10 times, most of a contrast sweep's CPU. Widgets marked dirty inside are
    redrawn on the first refresh after."""
    screen = app.screen
    draw = screen._compositor_refresh
    undrawn = True

    def refresh_undrawn() -> None:
        # (a refresh Textual scheduled inside may run after: drawn then)
        if not undrawn or screen is not app.screen:
            draw()
            return
        # what a drawn refresh clears: the regions are redrawn by a full composition
        screen._dirty_widgets.clear()
        app._update_mouse_over(screen)

    screen._compositor_refresh = refresh_undrawn  # type: ignore[method-assign]
    try:
        yield
    finally:
        undrawn = False
        del screen._compositor_refresh
        screen.refresh()


_ORIGINAL_WIDGET_REFRESH = Widget.refresh


@contextmanager
def _refreshes_merged() -> Iterator[None]:
    """Inside, a widget's plain refreshes (no regions, no recompose) are merged into one
    each, run on leaving. Restyling a node refreshes it for every property that changed,
    and a changed colour refreshes all its descendants too (they inherit it): a theme
    switch refreshed each widget ~30 times, each computing its dirty regions afresh.
    A refresh only marks the widget for the next paint, so one with the merged flags
    marks it the same."""
    pending: dict[Widget, tuple[bool, bool]] = {}

    def merged(
        self: Widget,
        *regions: Any,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Widget:
        if regions or recompose:
            return _ORIGINAL_WIDGET_REFRESH(
                self, *regions, repaint=repaint, layout=layout, recompose=recompose
            )
        was_repaint, was_layout = pending.get(self, (False, False))
        pending[self] = (was_repaint or repaint, was_layout or layout)
        return self

    Widget.refresh = merged  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        Widget.refresh = _ORIGINAL_WIDGET_REFRESH  # type: ignore[method-assign]
        for widget, (repaint, layout) in pending.items():
            widget.refresh(repaint=repaint, layout=layout)


@contextmanager
def restyled_top_screen_only(app: App[Any]) -> Iterator[None]:
    """Inside, a CSS refresh (what a theme switch runs) restyles the app and its top screen
    only; the screens below keep their styles until leaving, when one full refresh
    restyles every screen in the CSS then current. Textual restyles every screen on each
    refresh (the screens below twice: once as the app's children, once more as the stack's
    other screens), most of a theme switch's CPU when screens are stacked. For reading the
    top screen in several themes: a modal's screens below are then out of date, so compose
    it with ``composed_screen(app, screens_below=False)``."""
    refresh_every_screen = app.refresh_css

    def refresh_top_screen(animate: bool = True) -> None:
        stylesheet = app.stylesheet
        stylesheet.set_variables(app.get_css_variables())
        stylesheet.reparse()
        screen = app.screen
        with _refreshes_merged():
            stylesheet.update_nodes([app, *screen.walk_children(with_self=True)], animate=animate)
        if screen.is_mounted:
            screen._refresh_layout(app.size)
            screen._css_update_count = app._css_update_count

    app.refresh_css = refresh_top_screen  # type: ignore[method-assign]
    try:
        yield
    finally:
        del app.refresh_css
        refresh_every_screen(animate=False)


# -- parsed CSS shared between apps -----------------------------------------------------------
_ORIGINAL_PARSE_RULES = Stylesheet._parse_rules
_SHARED_RULES: dict[tuple[Any, ...], list[RuleSet]] = {}


def _shared_parse_rules(
    self: Stylesheet,
    css: str,
    read_from: Any,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    variables = frozenset(self._variables.items())
    key = (css, read_from, is_default_rules, tie_breaker, scope, variables)
    rules = _SHARED_RULES.get(key)
    if rules is None:
        rules = _ORIGINAL_PARSE_RULES(self, css, read_from, is_default_rules, tie_breaker, scope)
        _SHARED_RULES[key] = rules
    return rules


def share_parsed_css() -> None:
    """Parse each CSS source once per process for each set of theme variables, however many
    apps (or theme switches) ask: Textual parses every source afresh for each new app and
    on every theme change (a fresh ``Stylesheet`` each time), ~0.1 s a time. Textual itself
    reuses parsed rule sets between parses of one stylesheet, so they are read-only. For a
    process that starts many apps: the test suite. Idempotent."""
    Stylesheet._parse_rules = _shared_parse_rules  # type: ignore[method-assign]


# -- Pilot's idle waits -----------------------------------------------------------------------
def quicken_pilot_waits(granularity: float, idle: float) -> None:
    """Make Pilot's wait for an idle app (``pilot.pause()``, and twice after every key
    ``pilot.press`` sends) look every ``granularity`` seconds instead of Textual's 20 ms;
    idle means under ``idle`` seconds on the CPU in that interval (Textual: 1 ms). Each
    wait sleeps at least one interval, so at 20 ms a test pressing 900 keys slept 36 s
    doing nothing. Only Pilot (``App.run_test``) waits this way; the app never does."""
    _wait.SLEEP_GRANULARITY = granularity
    _wait.SLEEP_IDLE = idle


def forget_ended_apps_render_caches() -> None:
    """Empty the process-wide cache that keeps ended apps' widgets' drawn lines: Textual's
    ``StylesCache.get_inner_outer`` is an ``lru_cache`` on a method, so its keys hold up to
    1,024 widgets' ``StylesCache`` objects, each with the lines it drew. In a test process
    that runs one app after another they are tens of thousands of strips, walked again by
    every full garbage collection."""
    StylesCache.get_inner_outer.cache_clear()
