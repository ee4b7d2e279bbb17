"""Pages and random edits shared by the diff tests."""

from __future__ import annotations

import random
from pathlib import Path

import gitbook_tui
from gitbook_tui.server.demo.generated import large_reference_page

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(
    [
        *(Path(gitbook_tui.__file__).parent / "server/demo/spaces").rglob("*.md"),
        *(ROOT / "tests/fixtures").rglob("*.md"),
    ]
)

# Lines whose insertion changes how the blocks around them are read.
TRICKY_LINES = (
    "",
    "```",
    "~~~python",
    '{% hint style="info" %}',
    "{% endhint %}",
    "{% tabs %}",
    '{% tab title="Two" %}',
    "{% endtabs %}",
    "<details>",
    "</details>",
    "- a list item",
    "1. an ordered item",
    "    indented code",
    "> a quote",
    "| a | b |",
    "| --- | --- |",
    "===",
    "---",
    "# A heading",
    "<div>",
    "$$",
    "Plain words in review.",
)


def edit(text: str, seed: int, count: int) -> str:
    """``text`` with ``count`` random line edits (deterministic for ``seed``)."""
    rng = random.Random(seed)
    lines = text.split("\n")
    for _ in range(count):
        if not lines:
            break
        i = rng.randrange(len(lines))
        action = rng.randrange(5)
        if action == 0:
            words = lines[i].split(" ")
            words[rng.randrange(len(words))] = "reviewed"
            lines[i] = " ".join(words)
        elif action == 1:
            del lines[i]
        elif action == 2:
            lines.insert(i, rng.choice(TRICKY_LINES))
        elif action == 3:
            lines.insert(i, lines[rng.randrange(len(lines))])
        else:
            lines[i : i + 1] = [lines[i], "", "A paragraph added in review."]
    return "\n".join(lines)


# Every kind of block the parser knows, for edits that change how the text around is read.
MIXED_PAGE = """---
description: A page
---

# Title

Intro paragraph with **bold** and a [link](https://example.com).

Setext heading
==============

* item one
* item two

  continued item
* item three

1. first
2. second

| a | b |
| - | - |
| 1 | 2 |
| 3 | 4 |

a | b
--|--
5 | 6

```python
def f():

    return 1
```

    indented code

<div>
html block

</div>

<!-- a comment

spanning blank lines -->

{% hint style="warning" %}
Careful.

## Inside heading
{% endhint %}

{% tabs %}
{% tab title="One" %}
One body.
{% endtab %}
{% tab title="Two" %}
Two body.
{% endtab %}
{% endtabs %}

<details>

<summary>More</summary>

Hidden text.

</details>

> quote line
lazy continuation

$$
x^2
$$

![image](a.png)

`code` start paragraph.

_emph_ start.

Final paragraph.
"""


def scattered_edits(size: int, count: int) -> tuple[str, str]:
    """About ``size`` characters of the 1 MB demo page, and a copy with one word of ``count``
    paragraphs spread over it reworded ("revised0", "revised1"… in page order)."""
    text = large_reference_page()
    old = text[: text.index("\n\n", size) + 1]
    lines = old.split("\n")
    paragraphs = [i for i, line in enumerate(lines) if line[:1].isalpha() and " " in line]
    for k in range(count):
        i = paragraphs[(k + 1) * len(paragraphs) // (count + 1)]
        words = lines[i].split(" ")
        words[len(words) // 2] = f"revised{k}"
        lines[i] = " ".join(words)
    return old, "\n".join(lines)
