"""Deterministic large demo content: a 1 MB reference page, a 2,000-page knowledge base and
a changelog that is one large ``{% updates %}`` block (benchmarks and tests)."""

from __future__ import annotations

from .knowledge_base import knowledge_base_pages
from .reference_page import large_reference_page

__all__ = ["knowledge_base_pages", "large_changelog_page", "large_reference_page"]


def large_changelog_page(releases: int = 68) -> str:
    """One ``{% updates %}`` block of ~190 KB: an update holding ``releases`` open
    ``<details>``, each with a list, an HTML table and code (like a real changelog)."""
    parts = ['# Changelog\n\n{% updates %}\n{% update date="2026-01-01" %}\n']
    for release in range(releases):
        items = "\n".join(
            f"* Fixed issue #{release * 40 + k} in the broker's retention path "
            "when segments roll over during compaction."
            for k in range(30)
        )
        rows = "".join(
            f"<tr><td><code>mod{k}</code></td><td>fix</td><td>Area {k}</td></tr>" for k in range(6)
        )
        parts.append(
            f"<details open>\n\n<summary>Release 3.{release}.0</summary>\n\n{items}\n\n"
            f"<table><thead><tr><th>Component</th><th>Kind</th><th>Area</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>\n\n"
            f"```bash\ntide upgrade --to 3.{release}.0\n```\n\n</details>\n\n"
        )
    parts.append("{% endupdate %}\n{% endupdates %}\n")
    return "".join(parts)
