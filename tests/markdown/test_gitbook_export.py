"""A GitBook Git Sync export (tests/fixtures/gitbook-export, written in GitBook's conventions)
imported through the real Git Sync import and rendered at 80 and 120 columns."""

from __future__ import annotations

import posixpath
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.markdown import Document, expand_includes, include_paths, parse
from gitbook_tui.markdown.includes import include_key
from gitbook_tui.server.importers.sources import FolderSource
from gitbook_tui.server.importers.tree import Tree, build_tree
from gitbook_tui.tui.render.layout import DocumentLayout

EXPORT = Path(__file__).resolve().parents[1] / "fixtures" / "gitbook-export"
RAW_HTML_RE = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(\s[^<>]*)?/?>")


def _walk(nodes: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for node in nodes:
        yield node
        yield from _walk(node.get("pages", []))


@pytest.fixture(scope="module")
def tree() -> Tree:
    counter = iter(range(1_000_000))
    return build_tree(FolderSource(EXPORT), new_id=lambda: f"id{next(counter)}")


def _pages(tree: Tree) -> dict[str, dict[str, Any]]:
    return {node["title"]: node for node in _walk(tree.pages)}


def render(tree: Tree, node: dict[str, Any], width: int) -> list[str]:
    """A page as the browser shows it: includes expanded, links titled from the tree."""
    document = parse(node.get("markdown", ""))
    contents = {
        include_key(r["git"]["path"]): (r["title"], parse(r["markdown"])) for r in tree.reusable
    }
    document = expand_includes(
        document, {key: contents.get(key) for key in include_paths(document)}
    )
    titles = {n["git"]["path"]: n["title"] for n in _walk(tree.pages) if n.get("git")}
    base = posixpath.dirname(node["git"]["path"])

    def title_of(href: str) -> str | None:
        return titles.get(posixpath.normpath(posixpath.join(base, href.split("#", 1)[0])))

    layout = DocumentLayout(document, width, titles=title_of)
    return [text.rstrip() for _block, _line, text in layout.lines()]


# -- the import --------------------------------------------------------------------------------


def test_summary_anchors_escapes_and_computed_entries(tree: Tree) -> None:
    shape = [(n["type"], n["title"], n.get("slug")) for n in tree.pages]
    assert shape == [
        ("document", "Acme Relay", "acme-relay"),
        ("group", "Get Started", "get-started"),
        ("group", "Reference", "reference"),
    ]
    reference = [(n["type"], n["title"]) for n in tree.pages[2]["pages"]]
    assert reference == [
        ("document", "ERROR_001"),
        ("document", "Broken front matter"),
        ("computed", "OpenAPI reference: relay-api"),
        ("document", "Changelog"),
        ("link", "Status page"),
    ]
    pages = _pages(tree)
    error = pages["ERROR_001"]
    assert error["git"]["path"] == "errors/error_001.md"
    assert "data folder is full" in error["markdown"]
    computed = pages["OpenAPI reference: relay-api"]["computed"]
    assert computed["type"] == "builtin:openapi"
    assert computed["dependencies"]["spec"]["ref"] == {"kind": "openapi", "spec": "relay-api"}
    assert not any("```" in n["title"] for n in _walk(tree.pages))


def test_descriptions_in_every_yaml_scalar_style(tree: Tree) -> None:
    pages = _pages(tree)
    assert pages["Acme Relay"]["description"] == (
        "Everything you need to run Acme Relay in production: install it, configure it "
        "and keep it healthy."
    )
    assert (
        pages["Quickstart"]["description"] == "Install Relay, start it,\nand send a first message."
    )
    assert pages["Configuration"]["description"] == (
        "Every setting of relay.yaml, with its type and default."
    )
    assert pages["Writing pages"]["description"] == "Blocks a page can hold."
    assert pages["Writing pages"]["icon"] == "pen"
    assert pages["Acme Relay"]["layout"]["tableOfContents"] is True
    assert not any(str(n.get("description")).startswith((">", "|")) for n in _walk(tree.pages))


def test_bad_front_matter_keeps_the_page_with_a_warning(tree: Tree) -> None:
    page = _pages(tree)["Broken front matter"]
    assert page["description"] is None
    assert any("broken-front-matter.md: front matter not read" in w for w in tree.warnings)
    text = "\n".join(render(tree, page, 80))
    assert "⚠ The page's front matter could not be read: line 2" in text
    assert "The body is still shown." in text


def test_includes_are_reusable_contents(tree: Tree) -> None:
    assert [(r["title"], r["git"]["path"]) for r in tree.reusable] == [
        ("Support hint", ".gitbook/includes/support-hint.md")
    ]
    assert ".gitbook/includes/does-not-exist.md" in tree.missing


def test_image_dimensions_of_webp_and_avif(tree: Tree) -> None:
    from gitbook_tui.server.core.assets import image_dimensions

    files = {meta["name"]: data for meta, data in tree.files}
    assert image_dimensions(files["cover.webp"]) == {"width": 1280, "height": 720}
    assert image_dimensions(files["diagram.avif"]) == {"width": 1920, "height": 1080}
    assert image_dimensions(b"RIFF\x00\x00") is None


def test_an_oversize_asset_is_skipped_with_a_warning(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    shutil.copytree(EXPORT, folder)
    (folder / ".gitbook/assets/huge.bin").write_bytes(b"\0" * 4096)
    tree = build_tree(FolderSource(folder, max_bytes=2048))
    names = {meta["name"] for meta, _data in tree.files}
    assert "huge.bin" not in names and "cover.webp" in names
    assert any(w.startswith("skipped .gitbook/assets/huge.bin: larger than") for w in tree.warnings)
    assert tree.found == tree.imported + len(tree.missing) + 1


# -- rendering -----------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [80, 120])
def test_no_raw_html_or_tags_on_screen(tree: Tree, width: int) -> None:
    for node in _walk(tree.pages):
        if node["type"] != "document":
            continue
        lines = render(tree, node, width)
        text = "\n".join(lines)
        assert "{%" not in text, node["title"]
        assert RAW_HTML_RE.search(text) is None, (node["title"], RAW_HTML_RE.search(text))
        assert all(len(line) <= width for line in lines), node["title"]


def _cells(line: str) -> list[str]:
    """The cells of one drawn table row, stripped."""
    return [cell.strip() for cell in line.strip("│").split("│")]


def test_html_table_cells_in_columns(tree: Tree) -> None:
    lines = render(tree, _pages(tree)["Configuration"], 80)
    header = next(line for line in lines if "Setting" in line)
    assert _cells(header) == ["Setting", "Type", "Default", "Description"]
    port = next(line for line in lines if "│ port" in line)
    assert _cells(port) == ["port", "integer", "8080", "Port to listen on."]
    # the <br> starts a new line in the same cell; a list in a cell keeps its bullets
    assert any(line.endswith("│ Use 0 for any free port.                      │") for line in lines)
    assert any("│ • cert: certificate file" in line for line in lines)
    assert any("│ • key: private key file" in line for line in lines)


def test_pre_code_keeps_indentation_title_and_numbers(tree: Tree) -> None:
    lines = render(tree, _pages(tree)["Configuration"], 80)
    title = next(line for line in lines if "relay.yaml" in line and "yaml" in line.split()[-1])
    assert title.split() == ["relay.yaml", "yaml"]
    assert "1 │  server:" in lines
    assert "3 │ ▌  data: ./data" in lines  # highlighted line
    assert "5 │      cert: /etc/relay/cert.pem" in lines


def test_card_table_titles_and_targets(tree: Tree) -> None:
    text = "\n".join(render(tree, _pages(tree)["Acme Relay"], 80))
    assert "│ Quickstart " in text and "│ → Quickstart " in text
    assert "│ → ERROR_001 " in text  # the target page's title, not error_001.md
    assert "cover: cover.webp" in text
    assert "quickstart.md" not in text


def test_quickstart_include_stepper_mention_and_content_ref(tree: Tree) -> None:
    lines = render(tree, _pages(tree)["Quickstart"], 80)
    text = "\n".join(lines)
    assert lines[0] == "⤷ Included from Support hint"
    assert "Stuck? Write to support@example.com" in text
    assert "1 ▸ Install the package" in lines  # a bold first line is the step's title
    assert "2 ▸ Start the server" in lines
    assert "       --port 8080 \\" in lines  # the last step's code, indentation kept
    assert "Next: read Configuration." in lines
    assert "│ → Configuration" in text
    assert "⚠ Missing reusable content: ../.gitbook/includes/does-not-exist.md" in text


def test_tags_math_icons_and_buttons(tree: Tree) -> None:
    text = "\n".join(render(tree, _pages(tree)["Writing pages"], 80))
    assert "▶ github-files · github-code-block" in text
    assert "https://github.com/acme/relay/blob/main/examples/send.py" in text
    assert "‹prompt›" in text and "description: Summarise this page in three bullet points" in text
    assert " Open the console " in text and "[github] ✓" in text
    assert "E = mc^2" in text and "∑ Math" in text
    assert "\\int_{-\\infty}" in text


def test_conditions_show_their_labels(tree: Tree) -> None:
    lines = render(tree, _pages(tree)["Configuration"], 120)
    assert '◇ if visitor.claims.unsigned.plan == "enterprise"' in lines
    assert "◇ else" in lines
    assert "┊ Cluster size is limited to 3 nodes." in lines


def test_changelog_updates_hold_every_release(tree: Tree) -> None:
    document: Document = parse(_pages(tree)["Changelog"]["markdown"])
    text = "\n".join(render(tree, _pages(tree)["Changelog"], 120))
    assert len(document.blocks) == 1
    assert text.count("▸ Relay 1.") == 24
