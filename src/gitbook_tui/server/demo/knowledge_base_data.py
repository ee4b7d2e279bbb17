"""Tables of the demo's generated knowledge base: categories, products, problems, how-tos, fixes."""

from __future__ import annotations

KB_CATEGORIES: tuple[tuple[str, str, str], ...] = (
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

KB_PRODUCTS: tuple[tuple[str, str], ...] = (
    ("tided server", "tided"),
    ("tide CLI", "tide"),
    ("Python SDK", "tidewater (Python)"),
    ("TypeScript SDK", "@lanternfish/tidewater"),
    ("Go SDK", "tidewater-go"),
)

KB_PROBLEMS: tuple[tuple[str, str, str], ...] = (
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

KB_HOWTOS: tuple[tuple[str, str, tuple[str, str, str], str], ...] = (
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

KB_FIX_STEPS: tuple[str, ...] = (
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
