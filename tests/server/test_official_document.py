"""Page markdown as GitBook's official JSON document: node types, nesting, references."""

from __future__ import annotations

from typing import Any

from gitbook_tui.server.content.official_document import to_document, to_markdown
from support.markdown_samples import COLUMNS
from support.official_schema import schema_errors

EVERY_BLOCK = (
    """# Title

Some **bold** and [a link](https://example.com) and `code`.

1. one
2. two
   ```py
   nested()
   ```

- [x] done
- [ ] todo

| Name | Value |
| :--- | ----: |
| a | **1** |

{% hint style="warning" %}
Careful.

```bash
rm -rf /
```
{% endhint %}

{% tabs %}
{% tab title="First" %}
Tab text.

| a | b |
| - | - |
| 1 | 2 |
{% endtab %}
{% endtabs %}

{% stepper %}
{% step %}
### Install
Run it.
{% endstep %}
{% endstepper %}

"""
    + COLUMNS
    + """{% updates format="full" %}
{% update date="2026-01-15" %}
## Released
Notes.
{% endupdate %}
{% endupdates %}

{% code title="app.py" lineNumbers="true" %}
```python
print("hi")
```
{% endcode %}

{% embed url="https://example.com/video" %}

{% openapi src="https://example.com/openapi.yaml" path="/pets" method="get" %}
[openapi.yaml](https://example.com/openapi.yaml)
{% endopenapi %}

<details>
<summary>More</summary>

Hidden text.
</details>

![An image](https://example.com/a.png)

> A quote

<div>raw html</div>

---
"""
)


def _walk(node: Any) -> list[dict[str, Any]]:
    out = []
    if isinstance(node, dict):
        if node.get("object") in ("block", "inline"):
            out.append(node)
        for key in ("nodes", "fragments"):
            for child in node.get(key, []):
                out += _walk(child)
    return out


def test_every_block_converts_to_a_valid_official_document() -> None:
    document = to_document(EVERY_BLOCK)
    assert schema_errors("components/schemas/JSONDocument", document) == []
    types = {n["type"] for n in _walk(document)}
    assert {
        "heading-1", "paragraph", "link", "list-ordered", "list-item", "list-tasks", "code",
        "code-line", "table", "hint", "tabs", "tabs-item", "stepper", "stepper-step",
        "columns", "column", "updates", "update", "embed", "swagger", "expandable", "images",
        "image", "blockquote", "divider",
    } <= types  # fmt: skip
    assert not types & {"html", "openapi", "text"}
    assert all("isVoid" in n for n in _walk(document))


def test_tables_code_and_links_carry_the_official_data() -> None:
    nodes = _walk(to_document(EVERY_BLOCK))
    table = next(n for n in nodes if n["type"] == "table")
    assert table["data"]["view"]["type"] == "grid" and len(table["data"]["records"]) == 1
    [record] = table["data"]["records"].values()
    fragment_ids = {f["fragment"] for f in table["fragments"]}
    assert set(record["values"].values()) <= fragment_ids
    assert [d["textAlignment"] for d in table["data"]["definition"].values()] == ["left", "right"]
    code = next(n for n in nodes if n["type"] == "code" and n["data"].get("title"))
    assert code["data"] == {"syntax": "python", "title": "app.py", "lineNumbers": True}
    link = next(n for n in nodes if n["type"] == "link")
    assert link["data"]["ref"] == {"kind": "url", "url": "https://example.com"}
    update = next(n for n in nodes if n["type"] == "update")
    assert update["data"]["date"] == "2026-01-15T00:00:00.000Z"


def test_children_a_parent_cannot_hold_keep_their_text() -> None:
    hint = next(n for n in _walk(to_document(EVERY_BLOCK)) if n["type"] == "hint")
    # the official hint holds no code: the command stays, as code-marked text
    texts = [leaf for n in _walk(hint) for t in n.get("nodes", []) for leaf in t.get("leaves", [])]
    assert any(leaf["text"] == "rm -rf /" and leaf["marks"] for leaf in texts)


def test_links_resolve_through_the_resolver() -> None:
    def resolve(target: str) -> dict[str, Any] | None:
        return {"kind": "page", "page": "p1"} if target == "other.md" else None

    nodes = _walk(to_document("See [other](other.md).", resolve))
    assert next(n for n in nodes if n["type"] == "link")["data"]["ref"] == {
        "kind": "page",
        "page": "p1",
    }


def test_documents_back_to_markdown() -> None:
    markdown = to_markdown(
        to_document("# Hi\n\nSome **bold** [x](https://x.example)\n\n- a\n- b\n")
    )
    assert markdown == "# Hi\n\nSome **bold** [x](https://x.example)\n\n- a\n- b"
