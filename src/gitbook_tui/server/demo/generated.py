"""Deterministic generators for the large demo content: a 1 MB reference page and a 2,000-page knowledge base."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

__all__ = ["knowledge_base_pages", "large_reference_page"]

_SEED = 20261122

# --------------------------------------------------------------------------------------
# Large reference page
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Area:
    table: str
    title: str
    blurb: str
    nouns: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class _Suffix:
    suffix: str
    type_name: str
    sentence: str


_AREAS: tuple[_Area, ...] = (
    _Area(
        "server",
        "Server",
        "Process-level settings: listeners, threads and shutdown behaviour.",
        (
            ("io", "network I/O workers"),
            ("request_handler", "request handler pool"),
            ("shutdown", "graceful shutdown"),
            ("accept_queue", "listener accept queue"),
            ("idle_connection", "idle client connections"),
            ("socket_send_buffer", "the kernel socket send buffer"),
            ("socket_receive_buffer", "the kernel socket receive buffer"),
            ("max_connections", "concurrent client connections"),
            ("request_queue", "the pending request queue"),
            ("background", "background maintenance tasks"),
            ("admin_listener", "the admin listener"),
            ("pid_file", "the PID file"),
        ),
    ),
    _Area(
        "storage",
        "Storage",
        "How partitions are laid out on disk: segments, indexes and flushing.",
        (
            ("segment", "each log segment"),
            ("segment_index", "the sparse offset index of a segment"),
            ("time_index", "the timestamp index"),
            ("flush", "dirty pages of the active segment"),
            ("fsync", "explicit fsync calls"),
            ("preallocate", "segment file preallocation"),
            ("read_ahead", "sequential read-ahead"),
            ("write_buffer", "the per-partition write buffer"),
            ("checksum", "record batch CRC verification"),
            ("recovery", "log recovery after an unclean shutdown"),
            ("file_handle", "open segment file handles"),
            ("directory_scan", "the startup scan of data directories"),
            ("page_cache", "page-cache warmup"),
            ("io_queue", "the storage I/O submission queue"),
            ("delete_delay", "deferred deletion of expired segments"),
        ),
    ),
    _Area(
        "compaction",
        "Compaction",
        "Background cleanup that keeps the latest value per key.",
        (
            ("cleaner", "the log cleaner"),
            ("dedupe_buffer", "the key deduplication buffer"),
            ("dirty_ratio", "the dirty-segment ratio"),
            ("tombstone", "tombstone markers"),
            ("io_throttle", "cleaner disk throughput"),
            ("backoff", "cleaner backoff between passes"),
            ("key_index", "the on-disk key index"),
            ("bloom_filter", "the per-segment bloom filter"),
            ("min_lag", "the minimum compaction lag"),
            ("segment_merge", "merging of small compacted segments"),
        ),
    ),
    _Area(
        "replication",
        "Replication",
        "Leader/follower replication and in-sync replica tracking.",
        (
            ("replica_fetch", "follower fetch requests"),
            ("replica_lag", "follower lag"),
            ("isr_shrink", "shrinking the in-sync replica set"),
            ("isr_expand", "re-admitting a follower to the ISR"),
            ("leader_election", "partition leader elections"),
            ("unclean_election", "unclean leader elections"),
            ("preferred_leader", "preferred-leader rebalancing"),
            ("replica_throttle", "replication bandwidth"),
            ("follower_read", "reads served by followers"),
            ("high_watermark", "high-watermark checkpoints"),
            ("reassignment", "partition reassignment"),
        ),
    ),
    _Area(
        "harbor",
        "Harbor (metadata quorum)",
        "The Raft group that stores cluster metadata.",
        (
            ("election", "Raft leader elections"),
            ("heartbeat", "Raft heartbeats"),
            ("snapshot", "metadata snapshots"),
            ("log_compaction", "Raft log compaction"),
            ("append_batch", "batched Raft appends"),
            ("learner", "non-voting learner replicas"),
            ("lease", "the leader read lease"),
            ("peer_connection", "connections between harbor peers"),
            ("metadata_cache", "the broker-side metadata cache"),
            ("controller", "the cluster controller loop"),
        ),
    ),
    _Area(
        "network",
        "Network",
        "Socket-level behaviour shared by TWP and HTTP listeners.",
        (
            ("keepalive", "TCP keepalive probes"),
            ("nodelay", "Nagle's algorithm"),
            ("proxy_protocol", "PROXY protocol headers"),
            ("bind", "listener bind addresses"),
            ("advertised_address", "the address advertised to clients"),
            ("websocket", "TWP over WebSocket"),
            ("dns_cache", "the resolver cache"),
            ("backlog", "the listen backlog"),
            ("connection_rate", "new connections per source IP"),
        ),
    ),
    _Area(
        "tls",
        "TLS",
        "Certificates, protocol versions and client authentication.",
        (
            ("certificate", "the listener certificate"),
            ("key", "the private key"),
            ("ca", "trusted client CAs"),
            ("client_auth", "mutual TLS"),
            ("cipher", "TLS 1.2 cipher suites"),
            ("session_ticket", "session ticket rotation"),
            ("ocsp", "OCSP stapling"),
            ("reload", "certificate hot-reload"),
            ("alpn", "ALPN negotiation"),
        ),
    ),
    _Area(
        "auth",
        "Authentication and authorization",
        "Token validation, OIDC and ACL evaluation.",
        (
            ("token", "bearer tokens"),
            ("signing_key", "the token signing key"),
            ("oidc", "the OIDC provider"),
            ("jwks_cache", "the JWKS cache"),
            ("acl_cache", "evaluated ACL decisions"),
            ("audit", "the authorization audit log"),
            ("superuser", "superuser principals"),
            ("anonymous", "anonymous access"),
            ("session", "CLI login sessions"),
        ),
    ),
    _Area(
        "quotas",
        "Quotas",
        "Per-principal and per-namespace limits on throughput and requests.",
        (
            ("produce", "publish throughput"),
            ("fetch", "consume throughput"),
            ("request", "request rate"),
            ("partition_count", "partitions per namespace"),
            ("connection", "connections per principal"),
            ("burst", "short bursts above the quota"),
            ("throttle_window", "the throttling window"),
            ("storage", "bytes stored per namespace"),
        ),
    ),
    _Area(
        "tiered_storage",
        "Tiered storage",
        "Offloading closed segments to object storage.",
        (
            ("upload", "segment uploads"),
            ("download", "segment downloads for cold reads"),
            ("cache", "the local tier cache"),
            ("multipart", "multipart uploads"),
            ("manifest", "the remote segment manifest"),
            ("retry", "object-store retries"),
            ("prefetch", "prefetching of the next remote segment"),
            ("local_retention", "local copies of uploaded segments"),
            ("checksum_verify", "verification of downloaded segments"),
            ("lifecycle", "remote segment deletion"),
        ),
    ),
    _Area(
        "http",
        "HTTP API",
        "The REST listener on port 7480.",
        (
            ("listener", "the HTTP listener"),
            ("request_body", "request bodies"),
            ("long_poll", "long-poll reads"),
            ("cors", "CORS responses"),
            ("compression", "response compression"),
            ("rate_limit", "per-token rate limiting"),
            ("idempotency", "idempotency-key records"),
            ("access_log", "the HTTP access log"),
            ("batch", "publish batches"),
        ),
    ),
    _Area(
        "twp",
        "TWP protocol",
        "The binary Tidewater Wire Protocol on port 7400.",
        (
            ("frame", "protocol frames"),
            ("fetch_session", "incremental fetch sessions"),
            ("produce_batch", "produce batches"),
            ("pipelining", "request pipelining"),
            ("compression", "batch compression"),
            ("version_negotiation", "protocol version negotiation"),
            ("zero_copy", "zero-copy sends"),
            ("heartbeat", "connection heartbeats"),
        ),
    ),
    _Area(
        "groups",
        "Consumer groups",
        "Coordinator behaviour: membership, rebalancing and offsets.",
        (
            ("session", "member sessions"),
            ("rebalance", "group rebalances"),
            ("offsets", "committed offsets"),
            ("static_member", "static members"),
            ("redelivery", "delayed redelivery timers"),
            ("dead_letter", "dead-letter routing"),
            ("coordinator_load", "loading group state on a new coordinator"),
            ("assignment", "partition assignment"),
            ("key_ordering", "per-key ordering state"),
        ),
    ),
    _Area(
        "schema_registry",
        "Schema registry",
        "Subjects, versions and validation on publish.",
        (
            ("validation", "publish-time validation"),
            ("schema_cache", "compiled schemas"),
            ("compatibility", "compatibility checks"),
            ("reference", "cross-subject references"),
            ("subject", "schema subjects"),
            ("normalization", "schema normalization"),
        ),
    ),
    _Area(
        "mirror",
        "Mirroring",
        "Replication between clusters, including from Kafka.",
        (
            ("source_fetch", "fetches from the source cluster"),
            ("offset_translation", "consumer offset translation"),
            ("checkpoint", "mirror checkpoints"),
            ("topic_discovery", "discovery of new source streams"),
            ("rename", "stream renaming rules"),
            ("backpressure", "backpressure from the target cluster"),
        ),
    ),
    _Area(
        "observability",
        "Metrics and logging",
        "Prometheus metrics, structured logs and tracing.",
        (
            ("metrics_listener", "the metrics listener"),
            ("histogram", "latency histograms"),
            ("label_cardinality", "per-partition metric labels"),
            ("log_format", "log output"),
            ("slow_request_log", "the slow-request log"),
            ("tracing", "OpenTelemetry traces"),
            ("profiling", "the continuous profiler"),
            ("health_check", "health-check endpoints"),
        ),
    ),
)

_SUFFIXES: tuple[_Suffix, ...] = (
    _Suffix("_bytes", "size", "Upper bound, in bytes, on {p}."),
    _Suffix("_interval", "duration", "How often Tidewater runs {p}."),
    _Suffix(
        "_timeout", "duration", "How long to wait for {p} before giving up and returning an error."
    ),
    _Suffix("_threads", "integer", "Number of threads dedicated to {p}."),
    _Suffix("_enabled", "boolean", "Whether {p} is enabled on this broker."),
    _Suffix("_ratio", "float", "Fraction that triggers {p}, between 0 and 1."),
    _Suffix("_max", "integer", "Maximum number of items allowed for {p}."),
    _Suffix("_min", "integer", "Minimum number of items required for {p}."),
    _Suffix("_policy", "enum", "Strategy used for {p}."),
    _Suffix("_rate", "rate", "Throughput limit applied to {p}."),
    _Suffix("_retries", "integer", "How many times to retry {p} after a transient failure."),
    _Suffix("_path", "path", "Filesystem location used by {p}."),
)

_WHY = (
    "Raise it on brokers with fast NVMe drives; lower it when many small partitions share a disk.",
    "The default suits clusters of up to roughly 5,000 partition replicas per broker.",
    "Changing it does not affect data already on disk; it applies to new work only.",
    "Most clusters never need to change this. Tidewater Cloud manages it for you.",
    "If you see `E_REQUEST_TIMEOUT` under load, check this value before adding brokers.",
    "Values below the default increase CPU usage noticeably on busy brokers.",
    "The setting is per broker; keep it identical across the cluster to avoid uneven load.",
    "It interacts with the matching quota settings, which are evaluated first.",
    "On Kubernetes, size the pod's memory limit to account for this value.",
    "During a rolling restart the old and new values may coexist for a few minutes; that is safe.",
    "Metrics for this subsystem are exported with the same prefix, so dashboards pick up changes immediately.",
    "Benchmarks in the 3.5 release used the default value on c7i.2xlarge instances.",
    "Setting it to zero is treated as 'use the built-in default', not as 'disabled'.",
    "Operators upgrading from 2.x will find the old equivalent in the legacy keys table.",
)

_ENUMS = (
    ("adaptive", "fixed", "off"),
    ("round-robin", "least-loaded", "sticky"),
    ("strict", "lenient", "off"),
    ("fifo", "priority", "fair"),
    ("eager", "lazy", "never"),
)

_HINT_TEXT = (
    (
        "info",
        "This key can be changed at runtime with `tide cluster config set`; no restart is required.",
    ),
    (
        "warning",
        "Setting this too low on a busy cluster causes request timeouts. Change it in small steps and watch p99 latency.",
    ),
    ("success", "New in 3.5: this value is now tuned automatically when set to `auto`."),
    (
        "danger",
        "Disabling this trades durability for throughput. Never do it on brokers that hold the only in-sync replica.",
    ),
)

_NAMESPACE_OVERRIDABLE = (
    "storage",
    "compaction",
    "replication",
    "quotas",
    "tiered_storage",
    "groups",
    "schema_registry",
    "http",
)

_SINCE = ("3.0", "3.1", "3.2", "3.3", "3.4", "3.5")


def _size(rng: random.Random) -> str:
    return rng.choice(("64KiB", "256KiB", "1MiB", "4MiB", "16MiB", "64MiB", "256MiB", "1GiB"))


def _duration(rng: random.Random) -> str:
    return rng.choice(
        ("100ms", "250ms", "500ms", "2s", "5s", "10s", "30s", "60s", "5m", "15m", "1h")
    )


def _default_value(rng: random.Random, sfx: _Suffix, key: str) -> tuple[str, str, str]:
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
        opts = rng.choice(_ENUMS)
        return f'"{opts[0]}"', ", ".join(f"`{o}`" for o in opts), f'"{opts[1]}"'
    if kind == "rate":
        rate = rng.choice(("10MiB/s", "50MiB/s", "100MiB/s", "unlimited"))
        return f'"{rate}"', "`1MiB/s` – `unlimited`", '"80MiB/s"'
    name = key.rsplit(".", 1)[-1].removesuffix("_path")
    return f'"/var/lib/tided/{name}"', "any writable path", f'"/data/tided/{name}"'


def _config_section(rng: random.Random, area: _Area, index: int) -> list[str]:
    out = [f"## {index}. {area.title} (`[{area.table}]`)", "", area.blurb, ""]
    combos = [(n, s) for n in area.nouns for s in _SUFFIXES]
    rng.shuffle(combos)
    combos = combos[: max(40, len(combos) * 45 // 100)]
    combos.sort(key=lambda c: c[0][0] + c[1].suffix)
    out += ["| Key | Type | Since |", "| --- | --- | --- |"]
    entries: list[tuple[str, _Suffix, str]] = []
    for (ident, phrase), sfx in combos:
        key = f"{area.table}.{ident}{sfx.suffix}"
        entries.append((key, sfx, phrase))
        out.append(f"| `{key}` | {sfx.type_name} | {rng.choice(_SINCE)} |")
    out.append("")
    for n, (key, sfx, phrase) in enumerate(entries):
        default, allowed, example = _default_value(rng, sfx, key)
        env = "TIDED_" + key.replace(".", "_").upper()
        leaf = key[len(area.table) + 1 :]
        reloadable = rng.choice(("yes (SIGHUP)", "yes (runtime API)", "no — restart required"))
        out += [
            f"### `{key}`",
            "",
            sfx.sentence.format(p=phrase) + " " + " ".join(rng.sample(_WHY, 2)),
            "",
            "| Property | Value |",
            "| --- | --- |",
            f"| Type | {sfx.type_name} |",
            f"| Default | `{default.strip(chr(34))}` |",
            f"| Allowed values | {allowed} |",
            f"| Reloadable | {reloadable} |",
            f"| Since | {rng.choice(_SINCE)} |",
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
            style, text = rng.choice(_HINT_TEXT)
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


_METRIC_SUBSYSTEMS: tuple[tuple[str, str], ...] = (
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

_METRIC_NOUNS: tuple[tuple[str, str, str], ...] = (
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

_METRIC_NOTES: tuple[str, ...] = (
    "Use it together with the matching `_errors_total` series to compute an error ratio.",
    "A sudden change after a deploy usually points to a configuration difference between brokers.",
    "Tidewater Cloud dashboards chart this per broker on the cluster detail page.",
    "Sampled every 15 seconds; short spikes may not be visible at the default scrape interval.",
    "Compare brokers side by side: one outlier usually means a hot partition or a slow disk.",
    "Exported since 3.2; earlier versions used a different name listed in the migration notes.",
)

_LABEL_SETS: tuple[tuple[str, ...], ...] = (
    ("broker",),
    ("broker", "stream"),
    ("broker", "stream", "partition"),
    ("broker", "namespace"),
    ("broker", "group"),
    ("broker", "listener", "status"),
    ("broker", "operation"),
)

_LABEL_DOCS: dict[str, tuple[str, str]] = {
    "broker": ("Broker ID", "`2`"),
    "stream": ("Stream name", "`orders`"),
    "partition": ("Partition number", "`7`"),
    "namespace": ("Namespace", "`payments`"),
    "group": ("Consumer group", "`billing-workers`"),
    "listener": ("Listener name", "`twps`"),
    "status": ("Outcome", "`ok`, `error`"),
    "operation": ("Operation", "`append`, `fetch`, `flush`"),
}


def _metrics_section(rng: random.Random, start_index: int) -> list[str]:
    out = [
        "# Part II — Metrics",
        "",
        "Every broker exposes Prometheus metrics on `:7490/metrics`. Names follow "
        "`tidewater_<subsystem>_<name>_<unit>`; counters end in `_total`.",
        "",
    ]
    for i, (sub, sub_phrase) in enumerate(_METRIC_SUBSYSTEMS):
        out += [f"## {start_index + i}. {sub_phrase.capitalize()} metrics", ""]
        nouns = list(_METRIC_NOUNS)
        rng.shuffle(nouns)
        for j, (noun, kind, sentence) in enumerate(nouns):
            name = f"tidewater_{sub}_{noun}"
            labels = rng.choice(_LABEL_SETS)
            by = ", ".join(labels[:2])
            out += [
                f"### `{name}`",
                "",
                f"**Type:** {kind} · **Labels:** " + ", ".join(f"`{lb}`" for lb in labels),
                "",
                sentence.format(s=sub_phrase) + " " + rng.choice(_METRIC_NOTES),
                "",
                "| Label | Description | Example |",
                "| --- | --- | --- |",
            ]
            out += [f"| `{lb}` | {_LABEL_DOCS[lb][0]} | {_LABEL_DOCS[lb][1]} |" for lb in labels]
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


_ERROR_AREAS = (
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
_ERROR_CONDS = (
    ("TIMEOUT", "The operation did not complete in time."),
    ("NOT_FOUND", "The referenced resource does not exist."),
    ("CONFLICT", "The request conflicts with the current state."),
    ("INVALID", "The request failed validation."),
    ("UNAVAILABLE", "The component is temporarily unavailable."),
    ("FORBIDDEN", "The principal is not allowed to perform the operation."),
    ("LIMIT", "A configured limit was exceeded."),
    ("CORRUPT", "Stored data failed an integrity check."),
)


def _errors_section(rng: random.Random, index: int) -> list[str]:
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
    for area in _ERROR_AREAS:
        for cond, meaning in _ERROR_CONDS:
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
    for area in _AREAS:
        out += _config_section(rng, area, index)
        index += 1
    for area in _AREAS:
        if area.table not in _NAMESPACE_OVERRIDABLE:
            continue
        override = _Area(
            f"namespaces.default.{area.table}",
            f"{area.title} — per-namespace overrides",
            f"Overrides of `[{area.table}]` for a single namespace. Unset keys inherit the broker value.",
            area.nouns,
        )
        out += _config_section(rng, override, index)
        index += 1
    out += _metrics_section(rng, index)
    index += len(_METRIC_SUBSYSTEMS)
    out += _errors_section(rng, index)
    out += ["---", "", "_Generated by `just docs-reference` from commit `9c1e2ab`._", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# Support knowledge base
# --------------------------------------------------------------------------------------

_KB_CATEGORIES: tuple[tuple[str, str, str], ...] = (
    (
        "Connections and authentication",
        "CONN",
        "Clients can't connect, TLS handshakes fail, or tokens are rejected.",
    ),
    ("Publishing", "PUB", "Producers see errors, timeouts or unexpected latency when publishing."),
    (
        "Consuming and consumer groups",
        "GRP",
        "Consumers lag, rebalance repeatedly or receive duplicates.",
    ),
    (
        "Storage and retention",
        "STO",
        "Disks fill up, messages disappear earlier than expected, or compaction stalls.",
    ),
    (
        "Cluster operations",
        "OPS",
        "Brokers crash, partitions go under-replicated, or upgrades misbehave.",
    ),
    ("Schema registry", "SCH", "Schemas are rejected, incompatible or fail to resolve references."),
    (
        "Tiered storage",
        "TIER",
        "Segment uploads fail, cold reads are slow, or object-storage costs surprise you.",
    ),
    (
        "Tidewater Cloud accounts and billing",
        "ACCT",
        "Invoices, plan limits, SSO and organization settings.",
    ),
    ("Migration and mirroring", "MIR", "Moving data from Kafka or between Tidewater clusters."),
)

_KB_PRODUCTS: tuple[tuple[str, str], ...] = (
    ("tided server", "tided"),
    ("tide CLI", "tide"),
    ("Python SDK", "tidewater (Python)"),
    ("TypeScript SDK", "@lanternfish/tidewater"),
    ("Go SDK", "tidewater-go"),
)

_KB_PROBLEMS: tuple[tuple[str, str, str], ...] = (
    (
        "TIMEOUT",
        "request times out",
        "the broker did not answer within the client's request timeout",
    ),
    ("REFUSED", "connection refused", "nothing is listening on the configured host and port"),
    ("DENIED", "permission denied", "the token is valid but lacks the required scope"),
    ("EXPIRED", "credentials expired", "the token or certificate passed its expiry time"),
    (
        "NOTLEADER",
        "not the partition leader",
        "a leader election moved the partition to another broker",
    ),
    ("TOOLARGE", "payload too large", "the message or batch exceeds the configured maximum size"),
    ("THROTTLED", "request throttled", "the principal exceeded its quota for the current window"),
    ("MISMATCH", "version mismatch", "client and server are more than two minor versions apart"),
    ("CORRUPT", "checksum mismatch", "a record batch failed CRC verification"),
    ("FENCED", "producer fenced", "a newer producer instance registered the same transactional ID"),
    (
        "STALE",
        "stale metadata",
        "the client's cached cluster metadata is older than the current epoch",
    ),
    ("FULL", "disk full", "the broker's data volume crossed the write-rejection threshold"),
    ("UNKNOWN", "unknown stream", "the stream does not exist in the requested namespace"),
    ("INVALID", "validation failed", "the request contained a value outside the allowed range"),
    ("CONFLICT", "state conflict", "the resource changed between read and write"),
    ("DRAINING", "broker draining", "the broker is shutting down and refuses new work"),
    ("OFFSET", "offset out of range", "the requested offset was removed by retention"),
    ("SKEW", "clock skew detected", "client and broker clocks differ by more than 30 seconds"),
    (
        "DNS",
        "name resolution failed",
        "the advertised broker address cannot be resolved from the client",
    ),
    (
        "PROXY",
        "proxy rejected connection",
        "an HTTP proxy or load balancer closed the TWP connection",
    ),
    ("HEAP", "out of memory", "buffered data exceeded the configured memory budget"),
    (
        "REBAL",
        "rebalance in progress",
        "the group is reassigning partitions and rejected the commit",
    ),
    (
        "SCHEMA",
        "schema rejected",
        "the payload doesn't validate against the subject's latest version",
    ),
)

_KB_HOWTOS: tuple[tuple[str, str, tuple[str, str, str], str], ...] = (
    (
        "Rotate credentials without downtime",
        "rotate-credentials",
        (
            "Create a second token with the same scopes: `tide token create app-2 --like app`.",
            "Deploy the new token and wait until `tide token usage app --since 1h` shows no requests.",
            "Revoke the old token with `tide token revoke app`.",
        ),
        "tide token list",
    ),
    (
        "Enable debug logging",
        "enable-debug-logging",
        (
            'Set `TIDE_LOG=debug` (CLI and SDKs) or `observability.log_level = "debug"` (tided).',
            "Reproduce the problem once; debug logs are verbose, so keep the window short.",
            "Turn debug logging off again and attach the relevant lines to your ticket.",
        ),
        "TIDE_LOG=debug tide stream list",
    ),
    (
        "Collect a diagnostics bundle for support",
        "collect-diagnostics",
        (
            "Run `tide cluster diagnose --redact -o json > diag.json` from a machine that can reach the cluster.",
            "Add client logs from the time of the problem, with timestamps in UTC.",
            "Attach both files to the ticket together with any request IDs.",
        ),
        "tide cluster diagnose --redact -o json > diag.json",
    ),
    (
        "Pin a specific version in CI",
        "pin-version-in-ci",
        (
            "Use `lanternfish-labs/setup-tide@v2` with an explicit `version:` input.",
            "Pin SDKs with an exact version in your lockfile rather than a range.",
            "Let Renovate or Dependabot propose upgrades so they show up as reviewed PRs.",
        ),
        "tide version",
    ),
    (
        "Configure retries and backoff",
        "configure-retries",
        (
            "Keep `retries` at the default (unlimited within `delivery_timeout`) for publishing.",
            "Set `retry_backoff` to 100 ms and `retry_backoff_max` to 10 s.",
            "Make sure `enable_idempotence` stays on so retries can't create duplicates.",
        ),
        "tide context show --effective",
    ),
    (
        "Run behind a corporate proxy",
        "run-behind-proxy",
        (
            "For the HTTP API, set `HTTPS_PROXY`; the SDKs and CLI honour it.",
            "For TWP, switch the context URL to `twp+ws://` on port 443, which proxies can forward.",
            "Ask your network team to allow long-lived WebSocket connections (idle timeout above 120 s).",
        ),
        "tide context create corp --url twp+ws://tide.corp.example:443/twp",
    ),
    (
        "Measure end-to-end latency",
        "measure-latency",
        (
            "Publish with the `tw-sent-at` header set to the current time in milliseconds.",
            "In the consumer, record `now - tw-sent-at` into a histogram.",
            "Compare against `tidewater_group_lag_seconds` to separate queueing from processing time.",
        ),
        "tide bench e2e --stream bench.latency --rate 1000/s --duration 60s",
    ),
    (
        "Upgrade to 3.5 safely",
        "upgrade-to-3-5",
        (
            "Upgrade brokers one at a time with `tide cluster drain <id>` before each restart.",
            "Wait for zero under-replicated partitions between brokers.",
            "Upgrade clients last; 3.3 and 3.4 clients work with 3.5 brokers.",
        ),
        "tide cluster status",
    ),
    (
        "Tune batch size and linger",
        "tune-batching",
        (
            'Start with `linger = "5ms"` and `batch_bytes = "1MiB"`.',
            "Watch `tidewater.client.publish.batch_size`; small batches mean linger is too low for your rate.",
            "Raise linger in 5 ms steps until latency targets are at risk.",
        ),
        "tide bench produce --size 1KiB --linger 5ms --batch 1MiB",
    ),
    (
        "Verify TLS settings",
        "verify-tls",
        (
            "Check the certificate chain with `openssl s_client -connect <host>:7400 -servername <host>`.",
            "Make sure the context's `ca_file` contains the issuing CA, not only the leaf.",
            "Confirm TLS 1.3 is negotiated; Tidewater Cloud rejects TLS 1.2 from January 2027.",
        ),
        "tide context show --tls",
    ),
    (
        "Use with Kubernetes",
        "use-with-kubernetes",
        (
            "Store the token in a Secret and expose it as `TIDE_TOKEN`.",
            "Set `instance_id` to the pod name for static membership in StatefulSets.",
            "Give pods a `terminationGracePeriodSeconds` longer than the consumer drain timeout.",
        ),
        "kubectl create secret generic tide-token --from-literal=TIDE_TOKEN=$TIDE_TOKEN",
    ),
    (
        "Reduce memory usage",
        "reduce-memory",
        (
            "Lower `buffer_memory` on producers; the default 64 MiB is generous for most services.",
            "Reduce `max_in_flight` on consumers that hold large messages.",
            "Enable zstd compression so batches are smaller in memory and on the wire.",
        ),
        "tide context show --effective | grep -E 'buffer|in_flight'",
    ),
    (
        "Export metrics to Prometheus",
        "export-metrics",
        (
            "Scrape brokers on port 7490, path `/metrics`.",
            "For clients, enable the OpenTelemetry integration and export via the OTLP collector.",
            "Import the Tidewater dashboards from the Grafana catalogue (ID 21450).",
        ),
        "curl -s localhost:7490/metrics | head",
    ),
    (
        "Handle graceful shutdown",
        "graceful-shutdown",
        (
            "On SIGTERM, stop fetching new messages.",
            "Wait for in-flight handlers, then commit offsets.",
            "Close the client so the group rebalances immediately instead of after `session_timeout`.",
        ),
        "kill -TERM $(pgrep -f billing-worker)",
    ),
    (
        "Test against an ephemeral node",
        "test-ephemeral-node",
        (
            "Start a node with `tide dev up --ephemeral --port 0` and read the URL it prints.",
            "Point the client at it with `TIDE_URL`.",
            "Create streams in the test setup; ephemeral nodes start empty.",
        ),
        "tide dev up --ephemeral --port 0",
    ),
    (
        "Read from a specific timestamp",
        "read-from-timestamp",
        (
            "Use `--from 2026-11-20T10:00:00Z` with the CLI, or `start=datetime(...)` in the SDK.",
            "Tidewater resolves the timestamp per partition using the time index.",
            "Messages older than retention can't be read; the earliest available offset is used instead.",
        ),
        "tide consume orders --from 2026-11-20T10:00:00Z --max 10",
    ),
    (
        "Limit throughput per client",
        "limit-throughput",
        (
            "Create a quota for the principal: `tide quota set --principal svc-batch --produce 5MiB/s`.",
            "Clients above the quota are throttled, not rejected.",
            "Watch `tidewater_quota_throttle_time_seconds_total` to confirm.",
        ),
        "tide quota list",
    ),
    (
        "Find which client sends bad messages",
        "find-bad-client",
        (
            "Read a failing message with `tide consume <stream> --from <offset> --max 1 -o json`.",
            "Check the `tw-producer-id` and `tw-client` headers added by the broker.",
            "Match the producer ID against `tide cluster clients --stream <stream>`.",
        ),
        "tide cluster clients --stream orders",
    ),
    (
        "Understand version compatibility",
        "version-compatibility",
        (
            "Clients work with brokers up to two minor versions older or newer.",
            "Protocol features unsupported by the broker are disabled with a warning.",
            "The HTTP API v2 is stable across all 3.x releases.",
        ),
        "tide version",
    ),
    (
        "Move a workload to another namespace",
        "move-namespace",
        (
            "Create the streams in the new namespace with the same partition counts.",
            "Mirror them with `tide mirror start` and translated offsets.",
            "Move consumers, then producers, then stop the mirror.",
        ),
        "tide mirror status",
    ),
    (
        "Audit who changed a stream",
        "audit-stream-changes",
        (
            "Enable `auth.audit_enabled` on self-hosted clusters; it's always on in Tidewater Cloud.",
            "Query the audit log for the stream: `tide audit list --resource stream/orders`.",
            "Each entry includes the principal, the change and the source IP.",
        ),
        "tide audit list --resource stream/orders --since 7d",
    ),
    (
        "Inspect messages without committing offsets",
        "inspect-without-committing",
        (
            "Run `tide consume` without `--group`; nothing is committed.",
            "Use `--partition` and `--from` to jump to the interesting offset.",
            "Never reuse a production group name for inspection — it steals partitions.",
        ),
        "tide consume orders --partition 3 --from 120044 --max 5",
    ),
    (
        "Set up alerts for this component",
        "set-up-alerts",
        (
            "Alert on consumer lag in seconds, not messages.",
            "Alert on publish error rate above 1% for 5 minutes.",
            "Route broker-level alerts to on-call and client-level alerts to the owning team.",
        ),
        "tide alerts export --format prometheus > tidewater-alerts.yaml",
    ),
)

_KB_FIX_STEPS: tuple[str, ...] = (
    "Run `tide cluster diagnose --redact` and note any failed checks.",
    "Check the client version with `tide version` (or the SDK's `__version__`) and upgrade if it's more than two minors behind.",
    "Confirm the context: `tide context show` should print the cluster you expect.",
    "Look for the error in the broker log: `journalctl -u tided --since -1h | grep {code}`.",
    "Increase the client's request timeout to 30 s temporarily to see whether the error is load-related.",
    "Restart the affected client with `TIDE_LOG=debug` and capture one failing request.",
    "Compare `tided --print-effective-config` on two brokers; differences are a common cause.",
    "Check `tidewater_quota_throttle_time_seconds_total` for the principal in Grafana.",
    "If the problem started after an upgrade, roll the client back one minor version and retest.",
    "Open a ticket with the diagnostics bundle and the request ID from the error message.",
)


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
    picks = sorted(rng.sample(range(len(_KB_FIX_STEPS) - 1), 3))
    steps = [_KB_FIX_STEPS[i] for i in picks] + [_KB_FIX_STEPS[-1]]
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
    rng = random.Random(_SEED + 1)
    tree: list[dict[str, Any]] = []
    number = 1000
    for cat_title, cat_code, cat_blurb in _KB_CATEGORIES:
        product_pages: list[dict[str, Any]] = []
        for product in _KB_PRODUCTS:
            problems = list(_KB_PROBLEMS)
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
            howtos = rng.sample(_KB_HOWTOS, len(_KB_HOWTOS))
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
