"""A minimal PDF writer (stdlib only): titled sections of plain text on A4 pages.

Text uses the standard Helvetica fonts with WinAnsi encoding (characters outside it become
``?``); content streams are uncompressed so the text stays searchable in the file.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

PAGE_WIDTH, PAGE_HEIGHT = 595, 842  # A4 in points
MARGIN = 56
BODY_SIZE, BODY_LEADING = 10.5, 14.0
WRAP = 92  # characters per body line at 10.5pt Helvetica on A4


@dataclass(frozen=True)
class Section:
    title: str
    text: str
    level: int = 0  # nesting depth of the page, for heading size


@dataclass(frozen=True)
class _Line:
    text: str
    font: str  # F1 regular, F2 bold
    size: float
    leading: float


def _escape(text: str) -> bytes:
    raw = text.encode("cp1252", errors="replace")
    raw = bytes(b if b >= 32 or b == 9 else 32 for b in raw)
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _heading(text: str, size: float) -> list[_Line]:
    wrap = max(20, int(WRAP * BODY_SIZE / size))
    return [_Line(part, "F2", size, size * 1.35) for part in textwrap.wrap(text, wrap) or [""]]


def _body_lines(text: str) -> list[_Line]:
    lines: list[_Line] = []
    in_code = False
    for raw in text.splitlines():
        stripped = raw.rstrip()
        if stripped.lstrip().startswith("```"):
            in_code = not in_code
            continue
        heading = None if in_code else re.match(r"^(#{1,6})\s+(.*)$", stripped)
        if heading:
            size = max(BODY_SIZE + 1, 15 - len(heading.group(1)))
            lines.append(_Line("", "F1", BODY_SIZE, BODY_LEADING / 2))
            lines.extend(_heading(heading.group(2).strip("# "), size))
            continue
        if not stripped:
            lines.append(_Line("", "F1", BODY_SIZE, BODY_LEADING))
            continue
        indent = len(stripped) - len(stripped.lstrip())
        wrapped = textwrap.wrap(
            stripped.strip(),
            max(20, WRAP - indent),
            initial_indent=" " * indent,
            subsequent_indent=" " * (indent + 2),
            break_long_words=True,
        )
        lines.extend(_Line(part, "F1", BODY_SIZE, BODY_LEADING) for part in wrapped)
    return lines


def _paginate(lines: list[_Line]) -> list[list[_Line]]:
    pages: list[list[_Line]] = [[]]
    used = 0.0
    available = PAGE_HEIGHT - 2 * MARGIN
    for line in lines:
        if used + line.leading > available and pages[-1]:
            pages.append([])
            used = 0.0
        if not pages[-1] and not line.text:
            continue  # no blank lines at the top of a page
        pages[-1].append(line)
        used += line.leading
    return pages


def _content_stream(lines: list[_Line]) -> bytes:
    out = [b"BT"]
    y: float = PAGE_HEIGHT - MARGIN
    for line in lines:
        y -= line.leading
        out.append(
            b"/%s %.1f Tf 1 0 0 1 %d %.1f Tm (%s) Tj"
            % (line.font.encode(), line.size, MARGIN, y, _escape(line.text))
        )
    out.append(b"ET")
    return b"\n".join(out)


def render_pdf(sections: list[Section], *, title: str = "") -> bytes:
    """A PDF document: every section starts with its title in bold, then its text."""
    lines: list[_Line] = []
    if title:
        lines.extend(_heading(title, 20))
        lines.append(_Line("", "F1", BODY_SIZE, BODY_LEADING))
    for section in sections:
        if lines:
            lines.append(_Line("", "F1", BODY_SIZE, BODY_LEADING))
        lines.extend(_heading(section.title, max(12.0, 17 - 2 * section.level)))
        lines.append(_Line("", "F1", BODY_SIZE, BODY_LEADING / 2))
        lines.extend(_body_lines(section.text))
    pages = _paginate(lines) if lines else [[]]

    objects: list[bytes] = []  # object n is objects[n - 1]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(b"")  # pages tree, filled in below
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    )
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
    )
    page_refs = []
    for page_lines in pages:
        stream = _content_stream(page_lines)
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        content_ref = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] "
            b"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents %d 0 R >>"
            % (PAGE_WIDTH, PAGE_HEIGHT, content_ref)
        )
        page_refs.append(len(objects))
    kids = b" ".join(b"%d 0 R" % ref for ref in page_refs)
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(page_refs))
    objects.append(b"<< /Title (%s) /Producer (gitbook-tui local server) >>" % _escape(title))
    info_ref = len(objects)

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref_at = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        info_ref,
        xref_at,
    )
    return bytes(out)
