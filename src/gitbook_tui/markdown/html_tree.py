"""A small element tree of an HTML fragment, built with the standard library's HTML parser."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

__all__ = ["Element", "Node", "parse_fragment", "parse_tag", "text_of"]

_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
_DROPPED = frozenset({"script", "style", "template", "head", "noscript"})
# Opening one of these closes an open element of the listed kinds first (as browsers do).
_CLOSES: dict[str, frozenset[str]] = {
    "p": frozenset({"p"}),
    "li": frozenset({"li"}),
    "tr": frozenset({"tr", "td", "th"}),
    "td": frozenset({"td", "th"}),
    "th": frozenset({"td", "th"}),
    "thead": frozenset({"tr", "td", "th", "tbody"}),
    "tbody": frozenset({"tr", "td", "th", "thead"}),
    "tfoot": frozenset({"tr", "td", "th", "tbody"}),
    "dt": frozenset({"dt", "dd"}),
    "dd": frozenset({"dt", "dd"}),
}
_BLOCK_STARTS = frozenset(
    {"table", "pre", "ul", "ol", "div", "blockquote", "figure", "h1", "h2", "h3", "h4", "h5"}
    | {"h6", "hr", "details", "section", "dl"}
)
# A list, table or row ends these searches for an element to close: "li" inside a nested
# list never closes the outer list's item.
_SCOPES: dict[str, frozenset[str]] = {
    "li": frozenset({"ul", "ol"}),
    "tr": frozenset({"table"}),
    "td": frozenset({"tr", "table"}),
    "th": frozenset({"tr", "table"}),
    "thead": frozenset({"table"}),
    "tbody": frozenset({"table"}),
    "tfoot": frozenset({"table"}),
    "p": frozenset({"td", "th", "li", "blockquote", "div", "figure", "details"}),
}
_MAX_DEPTH = 200
"""Deeper elements are flattened into their parent (hostile input cannot recurse us out)."""


@dataclass(slots=True)
class Element:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    def has(self, name: str) -> bool:
        return name in self.attrs

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def elements(self) -> Iterator[Element]:
        """Child elements (text skipped)."""
        for child in self.children:
            if isinstance(child, Element):
                yield child

    def find_all(self, tag: str) -> Iterator[Element]:
        """Descendant elements named ``tag``, in document order (not below a match)."""
        stack: list[Iterator[Node]] = [iter(self.children)]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
            elif isinstance(child, Element):
                if child.tag == tag:
                    yield child
                else:
                    stack.append(iter(child.children))

    def find(self, tag: str) -> Element | None:
        return next(self.find_all(tag), None)


Node = Element | str


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root")
        self.stack: list[Element] = [self.root]
        self.dropping = 0
        # How many elements of each name are open: most tags close nothing, and knowing
        # that without scanning the stack keeps hostile nesting linear.
        self.open: dict[str, int] = {}

    def _push(self, element: Element) -> None:
        self.stack.append(element)
        self.open[element.tag] = self.open.get(element.tag, 0) + 1

    def _pop_to(self, index: int) -> None:
        for element in self.stack[index:]:
            self.open[element.tag] -= 1
        del self.stack[index:]

    def _close_implied(self, tag: str) -> None:
        closes = _CLOSES.get(tag)
        if tag in _BLOCK_STARTS:
            closes = (closes or frozenset()) | {"p"}
        if not closes or not any(self.open.get(name) for name in closes):
            return
        scope = _SCOPES.get(tag, frozenset())
        for index in range(len(self.stack) - 1, 0, -1):
            name = self.stack[index].tag
            if name in closes:
                self._pop_to(index)
                return
            if name in scope:
                return

    def parse_marked_section(self, i: int, report: bool = True) -> int:
        """``<![CDATA[…]]>`` and the like; anything else after ``<![`` is a bogus comment
        up to the next ``>``, as browsers read it (the standard library's parser before
        Python 3.13 raises on ``<![{``, which would lose the whole fragment)."""
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:
            return self.parse_bogus_comment(i, report)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED:
            self.dropping += 1
            return
        if self.dropping:
            return
        self._close_implied(tag)
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(element)
        if tag not in _VOID and len(self.stack) < _MAX_DEPTH:
            self._push(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED or self.dropping:
            return
        self._close_implied(tag)
        self.stack[-1].children.append(Element(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED:
            self.dropping = max(0, self.dropping - 1)
            return
        if self.dropping or not self.open.get(tag):
            return  # a stray end tag: ignored, as browsers do
        for index in range(len(self.stack) - 1, 0, -1):
            if self.stack[index].tag == tag:
                self._pop_to(index)
                return

    def handle_data(self, data: str) -> None:
        if self.dropping or not data:
            return
        children = self.stack[-1].children
        if children and isinstance(children[-1], str):
            children[-1] += data
        else:
            children.append(data)


def parse_fragment(html: str) -> Element:
    """The element tree of ``html`` under a ``#root`` element. Never raises: unclosed and
    misnested tags are closed the way browsers do; comments, scripts and styles are left out."""
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def parse_tag(tag: str) -> Element | None:
    """The element of one start tag such as ``<a href="x" data-mention>`` (else ``None``)."""
    root = parse_fragment(tag)
    return next(root.elements(), None)


def text_of(node: Node) -> str:
    """All the text under ``node``, as written (no whitespace folding)."""
    if isinstance(node, str):
        return node
    parts: list[str] = []
    stack: list[Iterator[Node]] = [iter(node.children)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
        elif isinstance(child, str):
            parts.append(child)
        elif child.tag == "br":
            parts.append("\n")
        else:
            stack.append(iter(child.children))
    return "".join(parts)
