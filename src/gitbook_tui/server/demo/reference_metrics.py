"""Metrics and error-code parts of the demo's generated reference page, with their tables."""

from __future__ import annotations

import random

METRIC_SUBSYSTEMS: tuple[tuple[str, str], ...] = (
    ("broker", "broker process"),
    ("partition", "partition"),
    ("replication", "replication"),
    ("harbor", "metadata quorum"),
    ("group", "consumer group"),
    ("http", "HTTP API"),
    ("twp", "TWP listener"),
    ("storage", "storage engine"),
    ("tier", "tiered storage"),
    ("compaction", "log cleaner"),
    ("schema", "schema registry"),
    ("mirror", "mirror"),
    ("quota", "quota manager"),
    ("auth", "authorizer"),
)

METRIC_NOUNS: tuple[tuple[str, str, str], ...] = (
    ("requests_total", "counter", "Requests handled by the {s}."),
    ("errors_total", "counter", "Operations in the {s} that ended in an error."),
    ("bytes_in_total", "counter", "Bytes received by the {s}."),
    ("bytes_out_total", "counter", "Bytes sent by the {s}."),
    (
        "latency_seconds",
        "histogram",
        "Time taken by one {s} operation, from dequeue to completion.",
    ),
    ("queue_depth", "gauge", "Items currently waiting in the {s} queue."),
    ("inflight", "gauge", "Operations the {s} has started but not finished."),
    ("retries_total", "counter", "Operations the {s} retried after a transient failure."),
    ("cache_evictions_total", "counter", "Entries evicted from the {s} cache."),
    ("open_files", "gauge", "File handles held open by the {s}."),
    ("batch_size_bytes", "histogram", "Size of batches processed by the {s}."),
    (
        "throttle_time_seconds_total",
        "counter",
        "Cumulative time the {s} spent throttled by quotas.",
    ),
    ("active_sessions", "gauge", "Sessions currently open against the {s}."),
    ("pending_tasks", "gauge", "Background tasks queued in the {s}."),
)

METRIC_NOTES: tuple[str, ...] = (
    "Use it together with the matching `_errors_total` series to compute an error ratio.",
    "A sudden change after a deploy usually points to a configuration difference between brokers.",
    "Tidewater Cloud dashboards chart this per broker on the cluster detail page.",
    "Sampled every 15 seconds; short spikes may not be visible at the default scrape interval.",
    "Compare brokers side by side: one outlier usually means a hot partition or a slow disk.",
    "Exported since 3.2; earlier versions used a different name listed in the migration notes.",
)

LABEL_SETS: tuple[tuple[str, ...], ...] = (
    ("broker",),
    ("broker", "stream"),
    ("broker", "stream", "partition"),
    ("broker", "namespace"),
    ("broker", "group"),
    ("broker", "listener", "status"),
    ("broker", "operation"),
)

LABEL_DOCS: dict[str, tuple[str, str]] = {
    "broker": ("Broker ID", "`2`"),
    "stream": ("Stream name", "`orders`"),
    "partition": ("Partition number", "`7`"),
    "namespace": ("Namespace", "`payments`"),
    "group": ("Consumer group", "`billing-workers`"),
    "listener": ("Listener name", "`twps`"),
    "status": ("Outcome", "`ok`, `error`"),
    "operation": ("Operation", "`append`, `fetch`, `flush`"),
}


def metrics_section(rng: random.Random, start_index: int) -> list[str]:
    out = [
        "# Part II — Metrics",
        "",
        "Every broker exposes Prometheus metrics on `:7490/metrics`. Names follow "
        "`tidewater_<subsystem>_<name>_<unit>`; counters end in `_total`.",
        "",
    ]
    for i, (sub, sub_phrase) in enumerate(METRIC_SUBSYSTEMS):
        out += [f"## {start_index + i}. {sub_phrase.capitalize()} metrics", ""]
        nouns = list(METRIC_NOUNS)
        rng.shuffle(nouns)
        for j, (noun, kind, sentence) in enumerate(nouns):
            name = f"tidewater_{sub}_{noun}"
            labels = rng.choice(LABEL_SETS)
            by = ", ".join(labels[:2])
            out += [
                f"### `{name}`",
                "",
                f"**Type:** {kind} · **Labels:** " + ", ".join(f"`{lb}`" for lb in labels),
                "",
                sentence.format(s=sub_phrase) + " " + rng.choice(METRIC_NOTES),
                "",
                "| Label | Description | Example |",
                "| --- | --- | --- |",
            ]
            out += [f"| `{lb}` | {LABEL_DOCS[lb][0]} | {LABEL_DOCS[lb][1]} |" for lb in labels]
            out.append("")
            if kind == "histogram":
                query = f"histogram_quantile(0.99, sum by (le, {by}) (rate({name}_bucket[5m])))"
            elif kind == "counter":
                query = f"sum by ({by}) (rate({name}[5m]))"
            else:
                query = f"max by ({by}) ({name})"
            out += ["```promql", query, "```", ""]
            if j % 5 == 3:
                out += [
                    "Example alert:",
                    "",
                    "```yaml",
                    f"- alert: Tidewater{sub.capitalize()}{''.join(w.capitalize() for w in noun.split('_') if w != 'total')}High",
                    f"  expr: {query} > {rng.choice((0.5, 5, 100, 1000, 250000))}",
                    f"  for: {rng.choice(('5m', '10m', '15m'))}",
                    "  labels:",
                    f"    severity: {rng.choice(('page', 'ticket'))}",
                    "```",
                    "",
                ]
            if j % 6 == 1:
                out += [
                    "Reading it from the Python SDK's admin client:",
                    "",
                    "```python",
                    "admin = Client.from_env().admin()",
                    f'for sample in admin.metrics("{name}"):',
                    "    print(sample.labels, sample.value)",
                    "```",
                    "",
                ]
            if j % 8 == 5:
                out += [
                    '{% hint style="info" %}',
                    f"`{name}` is exported per {labels[-1]}; on clusters with many partitions, "
                    "drop high-cardinality labels with `observability.label_cardinality_max`.",
                    "{% endhint %}",
                    "",
                ]
    return out


ERROR_AREAS = (
    "CONN",
    "TLS",
    "AUTH",
    "STREAM",
    "PART",
    "GROUP",
    "TXN",
    "SCHEMA",
    "QUOTA",
    "TIER",
    "HARBOR",
    "DISK",
)
ERROR_CONDS = (
    ("TIMEOUT", "The operation did not complete in time."),
    ("NOT_FOUND", "The referenced resource does not exist."),
    ("CONFLICT", "The request conflicts with the current state."),
    ("INVALID", "The request failed validation."),
    ("UNAVAILABLE", "The component is temporarily unavailable."),
    ("FORBIDDEN", "The principal is not allowed to perform the operation."),
    ("LIMIT", "A configured limit was exceeded."),
    ("CORRUPT", "Stored data failed an integrity check."),
)


def errors_section(rng: random.Random, index: int) -> list[str]:
    out = [
        "# Part III — Error codes",
        "",
        f"## {index}. Error code table",
        "",
        "Codes are stable across minor versions. SDKs expose them as `err.code`; the CLI prints them in brackets.",
        "",
        "| Code | HTTP | Retryable | Meaning |",
        "| --- | --- | --- | --- |",
    ]
    for area in ERROR_AREAS:
        for cond, meaning in ERROR_CONDS:
            http = {
                "TIMEOUT": 504,
                "NOT_FOUND": 404,
                "CONFLICT": 409,
                "INVALID": 422,
                "UNAVAILABLE": 503,
                "FORBIDDEN": 403,
                "LIMIT": 429,
                "CORRUPT": 500,
            }[cond]
            retry = "yes" if cond in ("TIMEOUT", "UNAVAILABLE", "LIMIT") else "no"
            out.append(f"| `E_{area}_{cond}` | {http} | {retry} | {meaning} |")
    out += [
        "",
        "Handling errors by code in Go:",
        "",
        "```go",
        "var twErr *tidewater.Error",
        "if errors.As(err, &twErr) && twErr.Retryable() {",
        "\treturn backoff.Retry(ctx, op)",
        "}",
        "```",
        "",
        "And in TypeScript:",
        "",
        "```typescript",
        "try {",
        '  await client.publish("orders", order);',
        "} catch (err) {",
        '  if (err instanceof TidewaterError && err.code === "E_QUOTA_LIMIT") await sleep(err.retryAfterMs);',
        "  else throw err;",
        "}",
        "```",
        "",
    ]
    return out
