"""Pages' block model (``gitbook_tui.markdown``) as GitBook's JSON document (block/inline/text).

The official document model nests strictly: every block type allows only some children
(a list item holds paragraphs, lists, code, hints, quotes, math and tables; a hint no code;
a tab no table...). :func:`to_document` builds the official node for each block of the model
and fits the children into what their parent allows: a block that is not allowed where it
stands is degraded into allowed blocks that keep its text (its children spliced in, code as
code-marked paragraphs, a card as a link), so nothing written is lost.

Links, images and files are content references: ``resolve`` (when given) turns a relative
target into a page, anchor or file reference; anything else is a ``url`` reference.
"""

from .converter import Converter, to_document
from .markdown_of import to_markdown
from .nodes import Node, Resolver

__all__ = ["Converter", "Node", "Resolver", "to_document", "to_markdown"]
