"""BatchedTree: the Textual ``Tree`` of :class:`~.model.NodeData` the workspace tree
builds on, with inert labels and nodes added by the thousand without a cost per node.

* Labels are inert: Content is copied, a plain ``str`` is literal text (no markup).
* :meth:`BatchedTree.batch_nodes`: ``TreeNode.add`` (and ``remove``) invalidate the whole
  tree each time (a refresh of the widget per node); inside a batch the tree is
  invalidated once, at the end (:class:`...textual_compat.BatchingTree`).
* :meth:`BatchedTree.get_label_width` measures a label without rendering it: the Tree
  measures every line each time it lays them out.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Span, Text, TextType
from textual.content import Content
from textual.widgets.tree import TreeNode

from ....markdown.sanitize import clean_text
from ...common.text import cell_width
from ...common.theme_style import theme_style
from ...textual_compat import BatchingTree
from .model import NodeData, comment_badge, label_text, to_text

__all__ = ["MIN_TITLE", "BatchedTree"]

MIN_TITLE = 12
"""Fewest cells left for a label (its fold icon and emoji included) before a row's
comment count is left out instead."""


class BatchedTree(BatchingTree[NodeData]):
    """A Tree of NodeData with inert labels and batched node changes."""

    @property
    def selected_key(self) -> str | None:
        """The key of the node under the cursor (None on a status line)."""
        node = self.cursor_node
        if node is None or node.data is None or node.data.kind == "status":
            return None
        return node.data.key

    def _cursor_data(self) -> NodeData | None:
        node = self.cursor_node
        return node.data if node is not None else None

    # -- labels and lines ---------------------------------------------------------------------
    def process_label(self, label: TextType | Content) -> Text:  # type: ignore[override]
        """Labels are inert: Content is copied, a plain ``str`` is literal text (no markup)."""
        if isinstance(label, Content):
            text = to_text(label)
        elif isinstance(label, Text):
            text = label
        else:
            text = Text(clean_text(str(label)), no_wrap=True, end="")
        if "\n" not in text.plain:
            return text  # (a node's label is processed twice on the way in)
        lines = text.split()
        return lines[0] if lines else text

    def label_for(self, data: NodeData) -> Text:
        """The node's inert label as the Text the Tree draws (see :func:`.model.label_for`)."""
        text = label_text(data)
        if data.kind == "status" and data.status == "error":
            text.stylize(theme_style(self.app.theme_variables, "$text-error"))
        return text

    def recolour_errors(self, _theme: object = None) -> None:
        """Draw the "could not load" lines anew: their labels hold the theme's colour as a
        Rich style, which a theme switch does not reach by itself."""
        nodes = [self.root]
        while nodes:
            node = nodes.pop()
            nodes.extend(node.children)
            data = node.data
            if data is not None and data.kind == "status" and data.status == "error":
                node.set_label(self.label_for(data))

    def comment_count(self, data: NodeData) -> int | None:
        """Open comment threads shown on the row of ``data`` (None: unknown)."""
        return data.comments

    def render_label(self, node: TreeNode[NodeData], base_style: Style, style: Style) -> Text:
        """The label, cut to the pane with an ellipsis (``…``) when it does not fit; a count
        of open threads (dim, at the end; closer to the label when that makes it fit)
        stays and the label is cut before it, unless the pane is too narrow for both."""
        text = self._undimmed(super().render_label(node, base_style, style), node)
        depth = 0
        parent = node.parent
        while parent is not None:
            depth += 1
            parent = parent.parent
        indent = max(0, depth - (1 if not self.show_root else 0)) * self.guide_depth
        room = self.scrollable_content_region.width - indent
        data = node.data
        badges = comment_badge(self.comment_count(data)) if data is not None else ()
        if badges and room <= 0:
            text.append(badges[0], style=self._badge_style(node))
            return text
        for badge in badges:  # the whole label and the count; else a cut label, the count
            if text.cell_len + cell_width(badge) <= room:
                text.append(badge, style=self._badge_style(node))
                return text
        if badges and room - cell_width(badges[0]) >= MIN_TITLE:
            text.truncate(room - cell_width(badges[0]), overflow="ellipsis")
            text.append(badges[0], style=self._badge_style(node))
            return text
        if room > 0 and text.cell_len > room:
            text.truncate(room, overflow="ellipsis")
        return text

    def _badge_style(self, node: TreeNode[NodeData]) -> Style:
        """Dimmed text: the floored muted colour, or the cursor's own on the cursor row
        (where bold and the cursor already mark it; a muted colour would not read)."""
        if node is self.cursor_node:
            return Style()
        return Style.parse(theme_style(self.app.theme_variables, "$text-muted"))

    def _undimmed(self, text: Text, node: TreeNode[NodeData]) -> Text:
        """``text`` with its ``dim`` spans drawn in :meth:`_badge_style` instead (Textual's
        dim blends towards the background and falls below the contrast floor)."""
        if not any(_is_dim(span.style) for span in text.spans):
            return text
        muted = self._badge_style(node)
        text = text.copy()
        text.spans = [
            Span(span.start, span.end, _without_dim(span.style) + muted)
            if _is_dim(span.style)
            else span
            for span in text.spans
        ]
        return text

    def get_label_width(self, node: TreeNode[NodeData]) -> int:
        """What ``render_label`` would measure, without rendering."""
        label = node.label
        width = label.cell_len if isinstance(label, Text) else cell_width(str(label))
        if node.allow_expand:
            width += cell_width(self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE)
        data = node.data
        count = self.comment_count(data) if data is not None else None
        if count:
            width += cell_width(comment_badge(count)[0])
        return width


def _is_dim(style: str | Style) -> bool:
    return bool(Style.parse(style).dim) if isinstance(style, str) else bool(style.dim)


def _without_dim(style: str | Style) -> Style:
    return (Style.parse(style) if isinstance(style, str) else style) + Style(dim=False)
