"""Configuration key tables of the demo's generated reference page: areas, suffixes, phrases."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Area:
    table: str
    title: str
    blurb: str
    nouns: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Suffix:
    suffix: str
    type_name: str
    sentence: str


AREAS: tuple[Area, ...] = (
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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
    Area(
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

SUFFIXES: tuple[Suffix, ...] = (
    Suffix("_bytes", "size", "Upper bound, in bytes, on {p}."),
    Suffix("_interval", "duration", "How often Tidewater runs {p}."),
    Suffix(
        "_timeout", "duration", "How long to wait for {p} before giving up and returning an error."
    ),
    Suffix("_threads", "integer", "Number of threads dedicated to {p}."),
    Suffix("_enabled", "boolean", "Whether {p} is enabled on this broker."),
    Suffix("_ratio", "float", "Fraction that triggers {p}, between 0 and 1."),
    Suffix("_max", "integer", "Maximum number of items allowed for {p}."),
    Suffix("_min", "integer", "Minimum number of items required for {p}."),
    Suffix("_policy", "enum", "Strategy used for {p}."),
    Suffix("_rate", "rate", "Throughput limit applied to {p}."),
    Suffix("_retries", "integer", "How many times to retry {p} after a transient failure."),
    Suffix("_path", "path", "Filesystem location used by {p}."),
)

WHY = (
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

ENUMS = (
    ("adaptive", "fixed", "off"),
    ("round-robin", "least-loaded", "sticky"),
    ("strict", "lenient", "off"),
    ("fifo", "priority", "fair"),
    ("eager", "lazy", "never"),
)

HINT_TEXT = (
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

NAMESPACE_OVERRIDABLE = (
    "storage",
    "compaction",
    "replication",
    "quotas",
    "tiered_storage",
    "groups",
    "schema_registry",
    "http",
)

SINCE = ("3.0", "3.1", "3.2", "3.3", "3.4", "3.5")
