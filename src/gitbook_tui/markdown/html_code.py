"""``<pre>`` code as GitBook writes it (language class, ``data-title``, line numbers, full
width, highlighted lines in ``<strong>``/``<mark>``) → a code block."""

from __future__ import annotations

from .html_tree import Element
from .model import CodeBlock

_TRUE = frozenset({"", "true", "yes", "1"})


def code_block(element: Element) -> CodeBlock:
    """A ``<pre>`` element as a code block: language, title, line numbers, full width and
    highlighted lines as GitBook writes them."""
    code = element.find("code")
    language = _language(element.classes) or (_language(code.classes) if code else None)
    parts: list[str] = []
    marked: list[tuple[int, int]] = []  # character ranges inside <strong>/<mark>
    _code_text(
        code if code is not None and _only_child(element, code) else element,
        parts,
        marked,
        False,
    )
    text = "".join(parts)
    if text.endswith("\n"):
        text = text[:-1]
    highlighted: set[int] = set()
    for start, end in marked:
        chunk = text[start:end].rstrip("\n")
        if chunk:
            first = text.count("\n", 0, start) + 1
            highlighted.update(range(first, first + chunk.count("\n") + 1))
    numbers = element.get("data-line-numbers")
    return CodeBlock(
        text,
        language,
        (element.get("data-title") or "").strip() or None,
        numbers is not None and numbers.strip().lower() in _TRUE,
        (element.get("data-full-width") or "").strip().lower() == "true",
        frozenset(highlighted),
    )


def _language(classes: list[str]) -> str | None:
    for name in classes:
        for prefix in ("language-", "lang-"):
            if name.startswith(prefix) and len(name) > len(prefix):
                return name[len(prefix) :]
    return None


def _only_child(parent: Element, child: Element) -> bool:
    """Whether ``child`` holds all of ``parent``'s text (``<pre><code>…</code></pre>``)."""
    return all(
        node is child or (isinstance(node, str) and not node.strip()) for node in parent.children
    )


def _code_text(
    node: Element, parts: list[str], marked: list[tuple[int, int]], inside: bool
) -> None:
    """The text of code, as written; ranges inside ``<strong>``/``<mark>`` (GitBook's
    highlighted lines) go to ``marked``."""
    for child in node.children:
        if isinstance(child, str):
            if inside:
                start = sum(len(p) for p in parts)
                marked.append((start, start + len(child)))
            parts.append(child)
        elif child.tag == "br":
            parts.append("\n")
        else:
            _code_text(child, parts, marked, inside or child.tag in ("strong", "mark", "b"))
