"""HTML → markdown conversion for importing a single web page."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin

# -- HTML to markdown -----------------------------------------------------------------------------

_SKIP = {
    "script", "style", "noscript", "template", "svg", "head", "iframe", "canvas", "button", "nav",
}  # fmt: skip
_BLOCKS = {
    "p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "figure",
    "figcaption", "dl", "dt", "dd", "form", "fieldset", "address", "details", "summary", "body",
}  # fmt: skip


class _HtmlToMarkdown(HTMLParser):
    def __init__(self, base_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.base_url = base_url
        self.blocks: list[tuple[str, bool]] = []  # (markdown, joined to the previous item)
        self.inline: list[list[str]] = [[]]
        self.hrefs: list[str | None] = []
        self.skip = 0
        self.in_title = False
        self.title = ""
        self.h1: str | None = None
        self.heading: int | None = None
        self.pre: list[str] | None = None
        self.pre_lang = ""
        self.lists: list[list[Any]] = []  # [kind, counter]
        self.item_open = False
        self.list_ended = False
        self.last_item = False
        self.quote = 0
        self.table: list[list[str]] | None = None
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    # inline text ---------------------------------------------------------------------
    def _text(self) -> str:
        text = "".join(self.inline[-1])
        return re.sub(
            r"[ \t\r\f\v]*\n[ \t\r\f\v]*", "\n", re.sub(r"[ \t\r\f\v]+", " ", text)
        ).strip()

    def _flush(self) -> None:
        text = self._text()
        self.inline[-1] = []
        if not text:
            return
        if self.lists and self.item_open:
            kind, counter = self.lists[-1]
            indent = "  " * (len(self.lists) - 1)
            marker = f"{counter}." if kind == "ol" else "*"
            text = text.replace("\n", "\n" + indent + "  ")
            self._emit(f"{indent}{marker} {text}", item=True)
            self.item_open = False
        else:
            self._emit(text)

    def _emit(self, text: str, *, item: bool = False) -> None:
        joined = item and self.last_item and not self.list_ended
        self.list_ended, self.last_item = False, item
        if self.quote:
            text = "\n".join("> " * self.quote + line if line else ">" for line in text.split("\n"))
        self.blocks.append((text, joined))

    def _add(self, text: str) -> None:
        if self.cell is not None:
            self.cell.append(text)
        else:
            self.inline[-1].append(text)

    # parser callbacks ------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {k: v or "" for k, v in attrs}
        if tag == "title":
            self.in_title = True
            return
        if tag in _SKIP:
            self.skip += 1
            return
        if self.skip:
            return
        if self.pre is not None:
            if tag == "code" and not self.pre_lang:
                self.pre_lang = _language(attr.get("class", ""))
            return
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._flush()
            self.heading = int(tag[1])
        elif tag in _BLOCKS:
            self._flush()
        elif tag == "br":
            self._add("\n")
        elif tag == "hr":
            self._flush()
            self._emit("---")
        elif tag in ("ul", "ol"):
            self._flush()
            self.lists.append([tag, 0])
        elif tag == "li":
            self._flush()
            if self.lists:
                self.lists[-1][1] += 1
            self.item_open = True
        elif tag == "blockquote":
            self._flush()
            self.quote += 1
        elif tag == "pre":
            self._flush()
            self.pre = []
            self.pre_lang = _language(attr.get("class", ""))
        elif tag == "a":
            href = attr.get("href")
            self.hrefs.append(urljoin(self.base_url, href) if href else None)
            self.inline.append([])
        elif tag in ("strong", "b"):
            self._add("**")
        elif tag in ("em", "i"):
            self._add("_")
        elif tag == "code":
            self._add("`")
        elif tag == "img":
            src = attr.get("src")
            if src:
                self._add(f"![{attr.get('alt', '')}]({urljoin(self.base_url, src)})")
        elif tag == "table":
            self._flush()
            self.table = []
        elif tag == "tr" and self.table is not None:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
            return
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if self.skip:
            return
        if self.pre is not None:
            if tag == "pre":
                code = "".join(self.pre).strip("\n")
                self.pre = None
                self._emit(f"```{self.pre_lang}\n{code}\n```")
            return
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self.heading is not None:
            text = self._text().replace("\n", " ")
            self.inline[-1] = []
            if text:
                if self.heading == 1 and self.h1 is None:
                    self.h1 = text
                self._emit("#" * self.heading + " " + text)
            self.heading = None
        elif tag in _BLOCKS or tag == "li":
            self._flush()
        elif tag in ("ul", "ol"):
            self._flush()
            if self.lists:
                self.lists.pop()
            self.list_ended = not self.lists
        elif tag == "blockquote":
            self._flush()
            self.quote = max(0, self.quote - 1)
        elif tag == "a" and len(self.inline) > 1:
            text = self._text().replace("\n", " ")
            self.inline.pop()
            href = self.hrefs.pop() if self.hrefs else None
            self._add(f"[{text}]({href})" if href and text else text)
        elif tag in ("strong", "b"):
            self._add("**")
        elif tag in ("em", "i"):
            self._add("_")
        elif tag == "code":
            self._add("`")
        elif tag in ("td", "th") and self.row is not None and self.cell is not None:
            cell = re.sub(r"\s+", " ", "".join(self.cell)).strip().replace("|", "\\|")
            self.row.append(cell)
            self.cell = None
        elif tag == "tr" and self.table is not None and self.row is not None:
            if self.row:
                self.table.append(self.row)
            self.row = None
        elif tag == "table" and self.table is not None:
            rows, self.table = self.table, None
            if rows:
                width = max(len(r) for r in rows)
                rows = [r + [""] * (width - len(r)) for r in rows]
                lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
                lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
                self._emit("\n".join(lines))

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title += data
            return
        if self.skip:
            return
        if self.pre is not None:
            self.pre.append(data)
            return
        self._add(data)

    def markdown(self) -> str:
        self._flush()
        parts: list[str] = []
        for text, joined in self.blocks:
            if parts:
                parts.append("\n" if joined else "\n\n")
            parts.append(text)
        return "".join(parts).strip() + "\n"


def _language(classes: str) -> str:
    match = re.search(r"(?:language|lang)-([\w+#-]+)", classes)
    return match.group(1) if match else ""


def html_to_markdown(html: str, *, base_url: str = "") -> tuple[str | None, str]:
    """``(title, markdown)`` of an HTML page. The title is the first ``<h1>`` (removed from
    the body) or else ``<title>``."""
    parser = _HtmlToMarkdown(base_url)
    parser.feed(html)
    parser.close()
    markdown = parser.markdown()
    title = parser.h1 or re.sub(r"\s+", " ", parser.title).strip() or None
    if parser.h1:
        # the first <h1> is the page title: it is not repeated in the body
        blocks = [text for text, _ in parser.blocks]
        heading = "# " + parser.h1
        if heading in blocks:
            del parser.blocks[blocks.index(heading)]
            markdown = parser.markdown()
    return title, markdown
