"""The demo's 1 MB reference page: every configuration key, metric and error code, generated."""

from __future__ import annotations

import random

from .reference_data import (
    AREAS,
    ENUMS,
    HINT_TEXT,
    NAMESPACE_OVERRIDABLE,
    SINCE,
    SUFFIXES,
    WHY,
    Area,
    Suffix,
)
from .reference_metrics import METRIC_SUBSYSTEMS, errors_section, metrics_section

_SEED = 20261122  # fixed, so the page is the same on every run


def _size(rng: random.Random) -> str:
    return rng.choice(("64KiB", "256KiB", "1MiB", "4MiB", "16MiB", "64MiB", "256MiB", "1GiB"))


def _duration(rng: random.Random) -> str:
    return rng.choice(
        ("100ms", "250ms", "500ms", "2s", "5s", "10s", "30s", "60s", "5m", "15m", "1h")
    )


def _default_value(rng: random.Random, sfx: Suffix, key: str) -> tuple[str, str, str]:
    """Return (toml literal default, human range, example toml literal)."""
    kind = sfx.type_name
    if kind == "size":
        return f'"{_size(rng)}"', "`4KiB` – `4GiB`", f'"{_size(rng)}"'
    if kind == "duration":
        return f'"{_duration(rng)}"', "`10ms` – `24h`", f'"{_duration(rng)}"'
    if kind == "integer":
        count = rng.choice((1, 2, 4, 8, 16, 32, 64, 100, 500, 1000))
        return str(count), f"`0` – `{count * 64}`", str(count * rng.choice((2, 4)))
    if kind == "boolean":
        flag = rng.random() < 0.6
        return str(flag).lower(), "`true` / `false`", str(not flag).lower()
    if kind == "float":
        ratio = rng.choice((0.1, 0.25, 0.5, 0.75, 0.9))
        return str(ratio), "`0.0` – `1.0`", str(round(min(0.95, ratio + 0.1), 2))
    if kind == "enum":
        opts = rng.choice(ENUMS)
        return f'"{opts[0]}"', ", ".join(f"`{o}`" for o in opts), f'"{opts[1]}"'
    if kind == "rate":
        rate = rng.choice(("10MiB/s", "50MiB/s", "100MiB/s", "unlimited"))
        return f'"{rate}"', "`1MiB/s` – `unlimited`", '"80MiB/s"'
    name = key.rsplit(".", 1)[-1].removesuffix("_path")
    return f'"/var/lib/tided/{name}"', "any writable path", f'"/data/tided/{name}"'


def _config_section(rng: random.Random, area: Area, index: int) -> list[str]:
    out = [f"## {index}. {area.title} (`[{area.table}]`)", "", area.blurb, ""]
    combos = [(n, s) for n in area.nouns for s in SUFFIXES]
    rng.shuffle(combos)
    combos = combos[: max(40, len(combos) * 45 // 100)]
    combos.sort(key=lambda c: c[0][0] + c[1].suffix)
    out += ["| Key | Type | Since |", "| --- | --- | --- |"]
    entries: list[tuple[str, Suffix, str]] = []
    for (ident, phrase), sfx in combos:
        key = f"{area.table}.{ident}{sfx.suffix}"
        entries.append((key, sfx, phrase))
        out.append(f"| `{key}` | {sfx.type_name} | {rng.choice(SINCE)} |")
    out.append("")
    for n, (key, sfx, phrase) in enumerate(entries):
        default, allowed, example = _default_value(rng, sfx, key)
        env = "TIDED_" + key.replace(".", "_").upper()
        leaf = key[len(area.table) + 1 :]
        reloadable = rng.choice(("yes (SIGHUP)", "yes (runtime API)", "no — restart required"))
        out += [
            f"### `{key}`",
            "",
            sfx.sentence.format(p=phrase) + " " + " ".join(rng.sample(WHY, 2)),
            "",
            "| Property | Value |",
            "| --- | --- |",
            f"| Type | {sfx.type_name} |",
            f"| Default | `{default.strip(chr(34))}` |",
            f"| Allowed values | {allowed} |",
            f"| Reloadable | {reloadable} |",
            f"| Since | {rng.choice(SINCE)} |",
            f"| Environment variable | `{env}` |",
            "",
        ]
        siblings = [e[0] for e in entries if e[0] != key and e[2] == phrase][:3]
        if siblings:
            out += ["**See also:** " + ", ".join(f"`{k}`" for k in siblings), ""]
        if n % 9 == 4:
            out += [
                "{% tabs %}",
                '{% tab title="tided.toml" %}',
                "```toml",
                f"[{area.table}]",
                f"{leaf} = {example}",
                "```",
                "{% endtab %}",
                "",
                '{% tab title="Environment" %}',
                "```bash",
                f"export {env}={example}",
                "```",
                "{% endtab %}",
                "",
                '{% tab title="Helm values" %}',
                "```yaml",
                "tided:",
                "  config:",
                f"    {area.table}:",
                f"      {leaf}: {example}",
                "```",
                "{% endtab %}",
                "{% endtabs %}",
                "",
            ]
        else:
            out += ["```toml", f"[{area.table}]", f"{leaf} = {example}", "```", ""]
        if n % 7 == 2:
            style, text = rng.choice(HINT_TEXT)
            out += [f'{{% hint style="{style}" %}}', text, "{% endhint %}", ""]
        if n % 11 == 6:
            out += [
                "<details>",
                "",
                "<summary>Tuning notes</summary>",
                "",
                f"* Start from the default and change `{key}` by at most 2× at a time.",
                f"* Watch `tidewater_{area.table}_{leaf.split('_')[0]}_seconds` for regressions after each change.",
                "* Record the change in your cluster's runbook so on-call knows why it differs from the default.",
                "",
                "</details>",
                "",
            ]
        if n % 13 == 8:
            out += [
                "Apply it to a running cluster:",
                "",
                "```bash",
                f"tide cluster config set {key}={example.strip(chr(34))} --brokers all --wait",
                f"tide cluster config get {key} -o json | jq '.brokers[] | {{id, value}}'",
                "```",
                "",
            ]
    return out


def large_reference_page() -> str:
    """Return one deterministic markdown page of well over 1,000,000 UTF-8 bytes."""
    rng = random.Random(_SEED)
    out: list[str] = [
        "---",
        "description: Every tided configuration key, metric and error code, generated from the 3.5 source tree.",
        "icon: book",
        "---",
        "",
        "# Tidewater configuration and metrics reference",
        "",
        '{% hint style="info" %}',
        "This page is generated from `tided --dump-config-schema` and `tided --dump-metrics` for **Tidewater 3.5.0**. "
        "Don't edit it by hand — change the doc comments in the source and rerun `just docs-reference`.",
        "{% endhint %}",
        "",
        "Configuration is read from `tided.toml`. Every key can also be set with an environment variable: "
        "upper-case the key, replace dots with underscores and prefix `TIDED_` — so `storage.segment_bytes` "
        "becomes `TIDED_STORAGE_SEGMENT_BYTES`. Environment variables override the file.",
        "",
        "```bash",
        "tided --config /etc/tided/tided.toml --check   # validate without starting",
        "tided --print-effective-config | less          # show merged file + env + defaults",
        "```",
        "",
        "# Part I — Configuration",
        "",
    ]
    # Each area is emitted twice: once for the current keys and once for the "per-namespace overrides"
    # variant that mirrors the same structure under `namespaces.<name>.`.
    index = 1
    for area in AREAS:
        out += _config_section(rng, area, index)
        index += 1
    for area in AREAS:
        if area.table not in NAMESPACE_OVERRIDABLE:
            continue
        override = Area(
            f"namespaces.default.{area.table}",
            f"{area.title} — per-namespace overrides",
            f"Overrides of `[{area.table}]` for a single namespace. Unset keys inherit the broker value.",
            area.nouns,
        )
        out += _config_section(rng, override, index)
        index += 1
    out += metrics_section(rng, index)
    index += len(METRIC_SUBSYSTEMS)
    out += errors_section(rng, index)
    out += ["---", "", "_Generated by `just docs-reference` from commit `9c1e2ab`._", ""]
    return "\n".join(out)
