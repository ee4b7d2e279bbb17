"""GitBook-flavoured markdown parsed into a block model.

Each name is imported from its module when first used (``__getattr__``): the parser and
its markdown-it plugins cost time to import, and the app's first screen needs only
``clean_text`` (sanitising titles), not the parser.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .front_matter import FrontMatterError, read_front_matter, split_front_matter
    from .includes import expand_includes, include_paths
    from .model import (
        Block,
        Card,
        Cards,
        CodeBlock,
        Columns,
        Conditional,
        ContentRef,
        Details,
        Document,
        EmbedCard,
        Figure,
        FileBlock,
        Footnotes,
        Heading,
        Hint,
        HtmlBlock,
        Image,
        Include,
        ListBlock,
        ListItem,
        MathBlock,
        Notice,
        OpenAPICard,
        Paragraph,
        Quote,
        Rule,
        Span,
        Step,
        Stepper,
        Tab,
        Table,
        Tabs,
        UnknownBlock,
        Update,
        Updates,
        plain_text,
        walk,
    )
    from .parser import parse
    from .sanitize import clean_text

__all__ = [
    "Block",
    "Card",
    "Cards",
    "CodeBlock",
    "Columns",
    "Conditional",
    "ContentRef",
    "Details",
    "Document",
    "EmbedCard",
    "Figure",
    "FileBlock",
    "Footnotes",
    "FrontMatterError",
    "Heading",
    "Hint",
    "HtmlBlock",
    "Image",
    "Include",
    "ListBlock",
    "ListItem",
    "MathBlock",
    "Notice",
    "OpenAPICard",
    "Paragraph",
    "Quote",
    "Rule",
    "Span",
    "Step",
    "Stepper",
    "Tab",
    "Table",
    "Tabs",
    "UnknownBlock",
    "Update",
    "Updates",
    "clean_text",
    "expand_includes",
    "include_paths",
    "parse",
    "plain_text",
    "read_front_matter",
    "split_front_matter",
    "walk",
]

_MODULE_OF: dict[str, str] = {
    "Block": "model",
    "Card": "model",
    "Cards": "model",
    "CodeBlock": "model",
    "Columns": "model",
    "Conditional": "model",
    "ContentRef": "model",
    "Details": "model",
    "Document": "model",
    "EmbedCard": "model",
    "Figure": "model",
    "FileBlock": "model",
    "Footnotes": "model",
    "FrontMatterError": "front_matter",
    "Heading": "model",
    "Hint": "model",
    "HtmlBlock": "model",
    "Image": "model",
    "Include": "model",
    "ListBlock": "model",
    "ListItem": "model",
    "MathBlock": "model",
    "Notice": "model",
    "OpenAPICard": "model",
    "Paragraph": "model",
    "Quote": "model",
    "Rule": "model",
    "Span": "model",
    "Step": "model",
    "Stepper": "model",
    "Tab": "model",
    "Table": "model",
    "Tabs": "model",
    "UnknownBlock": "model",
    "Update": "model",
    "Updates": "model",
    "clean_text": "sanitize",
    "expand_includes": "includes",
    "include_paths": "includes",
    "parse": "parser",
    "plain_text": "model",
    "read_front_matter": "front_matter",
    "split_front_matter": "front_matter",
    "walk": "model",
}
"""Where each name of ``__all__`` is defined (the module, in this package)."""


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
