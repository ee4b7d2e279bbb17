"""HintFooter: a footer with a few hints chosen for the focused widget, as many as fit.

Textual's footer lists every ``show=True`` binding in the binding chain and cuts off what
does not fit (at 80 columns the help key and half of a hint fall off). This one shows, for
the focused widget (or the nearest of its containers listed in :data:`HINTS`), the
bindings named there by id, most useful first, as many as the width allows (in order:
a less useful hint never takes the place of a more useful one that does not fit); ``? Help``
(:data:`PINNED`) is kept whenever it is active and the command-palette key stays docked
on the right. Elsewhere it falls back to the ``show=True`` bindings. Every binding, shown
here or not, is listed by the help screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, NamedTuple

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.dom import DOMNode
from textual.widgets import Footer

from ..textual_compat import FooterKey, footer_bindings_ready, is_leaving, reshow_footer_key
from .denial import denial_of
from .pane_group import RevealsPanes

__all__ = ["HINTS", "PINNED", "HintFooter", "ShownKey"]

HINTS: dict[str, tuple[str, ...]] = {
    # by widget id, then by class name; most useful first
    "WorkspaceTree": (
        "tree.open",
        "tree.filter",
        "app.search",
        "app.outline",
        "browser.switch_focus",
        "browser.back",
        "tree.toggle_hidden",
        "browser.open_link",
        "tree.retry",
        "app.quit",
    ),
    "PageViewer": (
        "page_viewer.next_item",
        "page_viewer.find",
        "page_viewer.close_find",  # only while the find bar shows
        "app.outline",
        "page_viewer.activate",
        "browser.back",
        "app.search",
        "browser.suggest_edit",  # dimmed where the space may not be edited
        "browser.switch_focus",
        "browser.toggle_tree",
        "browser.open_link",
        "app.quit",
    ),
    "ThreadList": (
        "threads.open",  # reveals the thread pane (hidden below 100 columns)
        "comments.compose",
        "comments.status",
        "comments.author",
        "comments.scope",
        "comments.resolve",
        "comments.react",
        "comments.open_page",
        "comments.filter",
        "app.quit",
    ),
    "ThreadPane": (
        "comments.compose",
        "comments.back",  # reveals the thread list (hidden below 100 columns)
        "thread.open_page",
        "comments.react",
        "comments.resolve",
        "comments.edit",
        "comments.delete",
        "comments.next",
    ),
    "Composer": ("composer.send", "composer.hide", "composer.editor"),
    "tree-filter": ("tree_filter.next", "tree_filter.open", "tree_filter.clear"),
    "find-input": ("find_bar.close", "browser.switch_focus"),
    "history-log": (
        "history.open",
        "history.filter",
        "history.mark",
        "history.blame",
        "history.page_at",
        "history.change_request",
        "history.back",
    ),
    "revision-pages": (
        "revision.switch",
        "revision.blame",
        "revision.page_at",
        "revision.change_request",
        "revision.back",
    ),
    "revision-diff": (
        "diff.next",
        "revision.next_page",
        "diff.mode",
        "revision.blame",
        "revision.page_at",
        "revision.back",
    ),
    "blame-view": ("blame.open", "blame.page_at", "blame.down", "blame.back"),
}
"""Binding ids the footer shows for a focused widget (its id or class name)."""

PINNED: tuple[str, ...] = ("app.help", "dialog.help")

"""Shown (after the hints) whenever active, before any hint that would not fit with them."""


_PALETTE = "-command-palette"  # the class of the palette key (Textual's footer docks it right)


def _first_by_id(bindings: Iterable[ActiveBinding]) -> dict[str, ActiveBinding]:
    found: dict[str, ActiveBinding] = {}
    for active in bindings:
        binding_id = active.binding.id
        if binding_id and binding_id not in found:
            found[binding_id] = active
    return found


class ShownKey(NamedTuple):
    """One key the footer shows: what its :class:`FooterKey` is made from."""

    key: str
    key_display: str
    description: str
    action: str
    disabled: bool
    tooltip: str
    classes: str = ""

    @property
    def labels(self) -> tuple[str, str, str, str]:
        """What a :class:`FooterKey` takes first: key, its display, description, action."""
        return self.key, self.key_display, self.description, self.action


class HintFooter(Footer):
    """A :class:`Footer` showing the hints of :data:`HINTS` that fit (see the module)."""

    HINTS: ClassVar[dict[str, tuple[str, ...]]] = HINTS
    PINNED: ClassVar[tuple[str, ...]] = PINNED

    _composed_width = 0
    _composed_keys: tuple[ShownKey, ...] = ()

    def hint_ids(self) -> tuple[str, ...] | None:
        """The ids listed for the focused widget or its nearest listed container."""
        focused = self.screen.focused
        nodes: list[DOMNode] = list(focused.ancestors_with_self) if focused is not None else []
        for node in nodes:
            if node.id and node.id in self.HINTS:
                return self.HINTS[node.id]
            for cls in type(node).__mro__:
                if cls.__name__ in self.HINTS:
                    return self.HINTS[cls.__name__]
        return None

    def chosen(
        self, width: int, bindings: Mapping[str, ActiveBinding] | None = None
    ) -> list[ActiveBinding]:
        """The bindings to show in ``width`` columns (besides the palette key), of
        ``bindings`` (the screen's active bindings; reading them walks the binding chain)."""
        if bindings is None:
            bindings = self.screen.active_bindings
        active = list(bindings.values())
        palette = self.app.COMMAND_PALETTE_BINDING
        by_id = _first_by_id(active)
        ids = self.hint_ids()
        kept = self.PINNED
        if isinstance(self.screen, RevealsPanes):  # a hidden pane's key is never left out
            kept = (*self.screen.reveal_binding_ids(), *kept)
        if ids is None:  # the show=True bindings, one key per action (as Textual's footer)
            by_action: dict[str, ActiveBinding] = {}
            for a in active:
                if a.binding.show and a.binding.key != palette and a.binding.id not in kept:
                    by_action.setdefault(a.binding.action, a)
            wanted = list(by_action.values())
        else:
            wanted = [by_id[i] for i in ids if i in by_id and i not in kept]
        pinned = [by_id[i] for i in kept if i in by_id]
        budget = width - sum(self._width(a.binding) for a in pinned)
        palette_binding = self._palette_binding(bindings)
        if palette_binding is not None:
            budget -= self._width(palette_binding.binding) + 1
        shown: list[ActiveBinding] = []
        for candidate in wanted:  # in order, up to the first that does not fit
            cost = self._width(candidate.binding)
            if cost > budget:
                break
            shown.append(candidate)
            budget -= cost
        return shown + pinned

    def _palette_binding(self, bindings: Mapping[str, ActiveBinding]) -> ActiveBinding | None:
        """The palette key docked on the right, while it opens the palette: a widget that
        takes ``ctrl+p`` for itself (a filter's "previous match") has it shown among its
        own hints, never in the palette's place."""
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return None
        active = bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if active is None or not active.binding.action.endswith("command_palette"):
            return None
        return active

    def _width(self, binding: Binding) -> int:
        """Columns a key takes: ``key description`` and a gap (compact) or padding."""
        key = cell_len(self.app.get_key_display(binding))
        text = cell_len(binding.description)
        return key + text + (2 if self.compact else 3) + (0 if text else -1)

    def shown_keys(self) -> tuple[ShownKey, ...]:
        """The keys the footer shows now, in order (the palette key last, when docked)."""
        if not footer_bindings_ready(self):
            return ()
        bindings = self.screen.active_bindings
        keys: list[ShownKey] = []
        width = self.size.width or self.app.size.width
        for node, binding, enabled, tooltip in self.chosen(width, bindings):
            reason = denial_of(node, binding.action)  # denied: dimmed, says why when pressed
            keys.append(self._shown(binding, not enabled or reason is not None, reason or tooltip))
        active = self._palette_binding(bindings)
        if active is not None:
            _node, binding, enabled, _tooltip = active
            tooltip = binding.tooltip or binding.description
            keys.append(self._shown(binding, not enabled, tooltip, classes=_PALETTE))
        return tuple(keys)

    def _shown(self, binding: Binding, disabled: bool, tooltip: str, classes: str = "") -> ShownKey:
        display = self.app.get_key_display(binding)
        return ShownKey(
            binding.key, display, binding.description, binding.action, disabled, tooltip, classes
        )

    def shows_current_keys(self) -> bool:
        """Whether the keys drawn are those the screen's bindings ask for now: a binding
        refresh reaches the footer only after the next repaint (tests wait for this)."""
        if not self.is_attached or is_leaving(self) or not footer_bindings_ready(self):
            return True
        return not self.app.app_focus or self.shown_keys() == self._composed_keys

    def compose(self) -> ComposeResult:
        if not footer_bindings_ready(self):
            return
        self._composed_width = self.size.width or self.app.size.width
        self._composed_keys = self.shown_keys()
        yield from map(self._footer_key, self._composed_keys)

    def _footer_key(self, shown: ShownKey) -> FooterKey:
        key = FooterKey(
            *shown.labels,
            disabled=shown.disabled,
            tooltip=shown.tooltip,
            # the class its ``compact`` gives it, from the start: set later, it restyles
            # the key (a whole stylesheet pass) before it is even mounted
            classes=f"{shown.classes} -compact" if self.compact else shown.classes,
        )
        # set, not data_bind: Textual keeps every bound key of every recompose (its
        # watcher list is pruned only when ``compact`` changes), a leak per view switch;
        # set_reactive: its watcher would only set the class given above
        key.set_reactive(FooterKey.compact, self.compact)
        return key

    async def recompose(self) -> None:
        """Show the keys wanted now, changing only what changed: Textual's footer recomposes
        on every binding refresh (each focus move, each reactive declared with
        ``bindings=True``), remounting and restyling every key, though the hints mostly
        stay the same; when they change, the keys already mounted show the new ones."""
        if not self.is_attached or is_leaving(self):
            return
        wanted = self.shown_keys()
        if wanted == self._composed_keys:
            return
        if not self._composed_keys:  # nothing to reuse
            await super().recompose()
            return
        self._composed_width = self.size.width or self.app.size.width
        self._composed_keys = wanted
        await self._reshow(wanted)

    async def _reshow(self, wanted: tuple[ShownKey, ...]) -> None:
        """Make the mounted keys show ``wanted``: each hint in the place of the one before,
        keys added or removed at the end of the line, the palette key kept docked."""
        mounted = list(self.query_children(FooterKey))
        old_palette = [k for k in mounted if k.has_class(_PALETTE)]
        old_hints = [k for k in mounted if not k.has_class(_PALETTE)]
        new_palette = [k for k in wanted if _PALETTE in k.classes.split()]
        new_hints = [k for k in wanted if _PALETTE not in k.classes.split()]
        async with self.batch():
            for key, shown in zip(old_hints, new_hints, strict=False):
                self._reshow_key(key, shown)
            for key, shown in zip(old_palette, new_palette, strict=False):
                self._reshow_key(key, shown)
            surplus = old_hints[len(new_hints) :] + old_palette[len(new_palette) :]
            if surplus:
                await self.remove_children(surplus)
            more_hints = [self._footer_key(k) for k in new_hints[len(old_hints) :]]
            if more_hints:
                before = old_palette[0] if old_palette and new_palette else None
                await self.mount_all(more_hints, before=before)
            more_palette = [self._footer_key(k) for k in new_palette[len(old_palette) :]]
            if more_palette:
                await self.mount_all(more_palette)

    def _reshow_key(self, key: FooterKey, shown: ShownKey) -> None:
        reshow_footer_key(key, *shown.labels, disabled=shown.disabled, tooltip=shown.tooltip)

    def watch_compact(self, compact: bool) -> None:
        for key in self.query(FooterKey):
            key.compact = compact

    def on_resize(self, event: events.Resize) -> None:
        if footer_bindings_ready(self) and event.size.width != self._composed_width:
            self.call_after_refresh(self.recompose)
