"""The demo's knowledge base: a deterministic tree of more than 2,000 support articles."""

from __future__ import annotations

import random
from typing import Any

from .knowledge_base_data import KB_CATEGORIES, KB_FIX_STEPS, KB_HOWTOS, KB_PROBLEMS, KB_PRODUCTS

_SEED = 20261123  # fixed, so the pages are the same on every run


def _kb_slug(text: str) -> str:
    chars = [c.lower() if c.isalnum() else "-" for c in text]
    slug = "".join(chars)
    while "--" in slug:
        slug = slug.replace("--", "-")
    return slug.strip("-")


def _fit(markdown: str, filler: list[str]) -> str:
    """Pad short pages with extra notes and trim long ones so each is 300-1500 UTF-8 bytes."""
    text = markdown
    i = 0
    while len(text.encode()) < 320 and i < len(filler):
        text += "\n" + filler[i] + "\n"
        i += 1
    encoded = text.encode()
    if len(encoded) > 1500:
        cut = encoded[:1450].decode("utf-8", errors="ignore")
        text = cut[: cut.rfind("\n")] + "\n\n_Truncated — see the full article in the console._\n"
    return text


def _error_article(
    rng: random.Random,
    cat_code: str,
    product: tuple[str, str],
    problem: tuple[str, str, str],
    number: int,
    related: list[tuple[str, str]],
) -> dict[str, Any]:
    code = f"TW-{cat_code}-{number:04d}"
    short, phrase, cause = problem
    title = f'{code}: {product[0]} reports "{phrase}"'
    picks = sorted(rng.sample(range(len(KB_FIX_STEPS) - 1), 3))
    steps = [KB_FIX_STEPS[i] for i in picks] + [KB_FIX_STEPS[-1]]
    md = [
        f"**Error code:** `{code}` · **Component:** {product[1]} · **Applies to:** {rng.choice(('3.3', '3.4'))} – 3.5",
        "",
        "## Symptoms",
        "",
        f"Requests from {product[0]} fail with `{phrase}` (internal code `E_{short}`), usually within a few "
        f"seconds of {rng.choice(('a deploy', 'a broker restart', 'a traffic spike', 'a config change', 'startup'))}.",
        "",
        "## Cause",
        "",
        f"In most cases {cause}.",
        "",
        "## Resolution",
        "",
    ]
    md += [f"{i}. " + s.format(code=f"E_{short}") for i, s in enumerate(steps, 1)]
    md += ["", "## Related articles", ""]
    md += [f"* [{t}]({s}.md)" for t, s in related]
    filler = [
        f"> Seen this on Tidewater Cloud? Include the cluster ID (for example `tw-c-{rng.randrange(16**6):06x}`) in your ticket.",
        "Last reviewed by the support team in November 2026.",
    ]
    description = None if number % 5 == 0 else f"{product[0]}: {phrase} — {cause}."
    if description is not None and len(description) > 200:
        description = description[:197] + "..."
    return {
        "title": title[:100],
        "slug": _kb_slug(code),
        "markdown": _fit("\n".join(md) + "\n", filler),
        "description": description,
        "pages": [],
    }


def _howto_article(
    rng: random.Random, product: tuple[str, str], howto: tuple[str, str, tuple[str, str, str], str]
) -> dict[str, Any]:
    title, slug, steps, command = howto
    lowered = title[0].lower() + title[1:]
    md = [
        f"This article shows how to **{lowered}** when you use {product[0]}.",
        "",
        "## Steps",
        "",
    ]
    md += [f"{i}. {step}" for i, step in enumerate(steps, 1)]
    md += [
        "",
        "```bash",
        command,
        "```",
        "",
        f"Applies to {product[1]} {rng.choice(('3.3', '3.4', '3.5'))} and later.",
    ]
    filler = [
        "If something here doesn't match what you see, tell us with the feedback button below."
    ]
    return {
        "title": f"{title} ({product[0]})"[:100],
        "slug": slug,
        "markdown": _fit("\n".join(md) + "\n", filler),
        "description": None
        if rng.random() < 0.15
        else f"How to {lowered} when using {product[0]}.",
        "pages": [],
    }


def knowledge_base_pages() -> list[dict[str, Any]]:
    """Return a deterministic page tree (categories → products → articles) of more than 2,000 pages."""
    rng = random.Random(_SEED)
    tree: list[dict[str, Any]] = []
    number = 1000
    for cat_title, cat_code, cat_blurb in KB_CATEGORIES:
        product_pages: list[dict[str, Any]] = []
        for product in KB_PRODUCTS:
            problems = list(KB_PROBLEMS)
            rng.shuffle(problems)
            codes = [f"TW-{cat_code}-{number + i:04d}" for i in range(len(problems))]
            titles = [
                f'{c}: {product[0]} reports "{p[1]}"' for c, p in zip(codes, problems, strict=True)
            ]
            children: list[dict[str, Any]] = []
            for i, problem in enumerate(problems):
                others = [j for j in range(len(problems)) if j != i]
                related = [(titles[j][:100], _kb_slug(codes[j])) for j in rng.sample(others, 3)]
                children.append(
                    _error_article(rng, cat_code, product, problem, number + i, related)
                )
            number += len(problems)
            howtos = rng.sample(KB_HOWTOS, len(KB_HOWTOS))
            children += [_howto_article(rng, product, h) for h in howtos]
            listing = "\n".join(f"* [{c['title']}]({c['slug']}.md)" for c in children[:6])
            md = (
                f"Articles about **{product[0]}** in the *{cat_title.lower()}* category: "
                f"{len(problems)} error codes and {len(howtos)} how-to guides.\n\n"
                f"## Most viewed\n\n{listing}\n\n"
                f"Use the search box for the others, or filter by error code prefix `TW-{cat_code}-`.\n"
            )
            product_pages.append(
                {
                    "title": product[0],
                    "slug": _kb_slug(product[0]),
                    "markdown": _fit(
                        md, ["Articles are reviewed every quarter by the support team."]
                    ),
                    "description": f"{cat_title}: articles for {product[0]}.",
                    "pages": children,
                }
            )
        cat_md = (
            f"{cat_blurb}\n\n"
            "## Pick your component\n\n"
            + "\n".join(f"* [{p['title']}]({p['slug']}/README.md)" for p in product_pages)
            + "\n\nCan't find your error? Run `tide cluster diagnose` — it links directly to the matching article.\n"
        )
        tree.append(
            {
                "title": cat_title,
                "slug": _kb_slug(cat_title),
                "markdown": _fit(
                    cat_md, ["Articles are reviewed every quarter by the support team."]
                ),
                "description": cat_blurb,
                "pages": product_pages,
            }
        )
    return tree
