/* Every limit of the service in one place. Configurable ones are defaults for bw_config. */
#ifndef BW_COMMON_LIMITS_H
#define BW_COMMON_LIMITS_H

#define BW_MAX_BODY_DEFAULT      (2u * 1024u * 1024u) /* request body bytes (BULWARK_MAX_BODY) */
#define BW_MAX_BODY_CEILING      (64u * 1024u * 1024u)
#define BW_JSON_MAX_DEPTH        32    /* nesting of arrays/objects in a request body */
#define BW_MAX_PATH              2048  /* request path bytes */
#define BW_MAX_PATH_PARAMS       2     /* {id}-style captures per route */
#define BW_MAX_PATH_PARAM_LEN    128
#define BW_MAX_QUERY_PARAMS      32    /* query parameters per request; no endpoint takes half */
#define BW_MAX_HEADER_BYTES      (32u * 1024u) /* MHD connection memory: request line+headers */
#define BW_MAX_CONNECTIONS       4096  /* open connections (BULWARK_MAX_CONNECTIONS) */
#define BW_MAX_CONNECTIONS_PER_IP 256  /* from one client address (BULWARK_MAX_CONN_PER_IP; 0: no limit) */
#define BW_CONNECTION_TIMEOUT_S  30    /* idle keep-alive, and the time a request's headers (and
                                          then its body) have to arrive (BULWARK_CONN_TIMEOUT_S) */
#define BW_TLS_FILE_MAX          (1u * 1024u * 1024u) /* bytes of a PEM file (BULWARK_TLS_CERT/KEY) */
#define BW_SHUTDOWN_GRACE_S      30    /* how long SIGTERM waits for in-flight requests */
#define BW_REQUEST_ID_MAX        64
#define BW_MAX_TOKEN_LEN         4096  /* a bearer token longer than this is invalid */
#define BW_MAX_ERRORS            32    /* validation errors reported per response */

#define BW_EMAIL_MAX             254
#define BW_PASSWORD_MIN          8
#define BW_PASSWORD_MAX          256
#define BW_LABEL_MAX             64
#define BW_MAX_CODE_DEFAULT      (1u * 1024u * 1024u) /* bytes of `code` to scan (BULWARK_MAX_CODE) */
#define BW_CONTEXT_MAX           4096 /* characters of a scan's `context` */
#define BW_SCAN_INLINE_BYTES     (64u * 1024u) /* larger scans run on the blocking pool */
#define BW_FREE_VISIBLE_FINDINGS 3
#define BW_NAME_MAX              128
#define BW_ENDPOINT_MAX          2048
#define BW_URL_DISPLAY_MAX       2560 /* bytes of a URL as shown in a finding (longer ones are cut) */

#define BW_TOKEN_TTL_S           86400
#define BW_LIST_LIMIT_DEFAULT    20
#define BW_LIST_LIMIT_MAX        100
#define BW_LIST_OFFSET_MAX       1000000000L /* `offset` query parameters: 0..this */

#define BW_MAX_KEYS_FREE         1
#define BW_MAX_KEYS_STARTER      5
#define BW_MAX_KEYS_PRO          25
#define BW_MAX_KEYS_ENTERPRISE   100
#define BW_MAX_KEYS_CEILING      10000

#define BW_RATE_WINDOW_S         3600  /* the rolling window of the per-hour limits */
#define BW_LOGIN_WINDOW_S        900   /* failed-login throttle window */
#define BW_LOGIN_MAX_FAILURES    10
#define BW_LIMITER_MAX_ENTRIES   (1u << 20) /* tracked principals/IPs per limiter */

#define BW_AUTH_CACHE_MS_DEFAULT 2000 /* SQLite; PostgreSQL (several instances) defaults to 0 */
#define BW_AUTH_CACHE_SLOTS      4096
#define BW_KEY_TOUCH_INTERVAL_S  60    /* last_used_at is written at most this often per key */

#define BW_BLOCKING_QUEUE_MAX    1024  /* queued blocking jobs before 503 */
#define BW_PROBE_THREADS         8     /* concurrent outbound scans (asset scans, MCP probes) */
#define BW_PROBE_QUEUE_MAX       64    /* queued scans before 503 */
#define BW_DB_POOL_MAX           32

/* threat intelligence: importers and the feed */
#define BW_INTEL_MAX_FILE        (64u * 1024u * 1024u) /* bytes of one source file to import */
#define BW_INTEL_MAX_FILES       100000 /* files of one OSV directory import */
#define BW_INTEL_TREE_DEPTH      64     /* nesting of a YAML/JSON source document */
#define BW_INTEL_TREE_NODES      (8u * 1024u * 1024u) /* nodes of one source document, aliases expanded */
#define BW_INTEL_MAX_ERRORS      50     /* rejected files/positions reported by one import */
#define BW_INTEL_ID_MAX          64     /* characters of a threat-intelligence record id */
#define BW_JOB_LEASE_MS          60000 /* a claimed job's lease (BULWARK_JOB_LEASE_MS) */
#define BW_JOB_POLL_MS           1000  /* an idle worker's wait between claims (BULWARK_JOB_POLL_MS) */
#define BW_REDTEAM_MAX_PRO       2     /* queued+running engagements per account (BULWARK_REDTEAM_MAX_PRO) */
#define BW_REDTEAM_MAX_ENTERPRISE 10

/* audit events and zero-trust anomalies (src/audit/audit.h) */
#define BW_AUDIT_FLUSH_MS            1000  /* the recorder writes its aggregates this often */
#define BW_AUDIT_MAX_PENDING         4096  /* aggregates held between flushes (64 shards); more are dropped, counted */
#define BW_AUDIT_PRINCIPAL_MAX       64    /* bytes of a principal (IP, /64, key prefix, account id) with NUL */
#define BW_AUDIT_DETAIL_MAX          96    /* bytes of an event's detail with NUL */
#define BW_AUDIT_RETENTION_MS        (7LL * 86400 * 1000) /* audit rows older than this are deleted */
#define BW_AUDIT_PURGE_FIRST_MS      60000 /* the first retention sweep after start ... */
#define BW_AUDIT_PURGE_INTERVAL_MS   (3600LL * 1000)      /* ... then one per hour */
#define BW_AUDIT_PURGE_BATCH         5000  /* rows per DELETE statement of a sweep */
#define BW_AUDIT_PERIOD_MS           (86400LL * 1000)     /* anomalies look back this far */
#define BW_AUDIT_AUTH_FAILURE_MIN    10    /* AUTH_FAILURE_BURST: 401s from one principal ... */
#define BW_AUDIT_AUTH_FAILURE_WINDOW_S 300 /* ... within this sliding window (whole minute buckets) */
#define BW_AUDIT_RATE_LIMIT_MIN      10    /* RATE_LIMIT_BURST: 429s ... */
#define BW_AUDIT_RATE_LIMIT_WINDOW_S 300
#define BW_AUDIT_KEY_IPS_MIN         5     /* KEY_MULTI_IP: distinct client IPs of one API key ... */
#define BW_AUDIT_KEY_IPS_WINDOW_S    3600
#define BW_AUDIT_PRIV_PROBE_MIN      3     /* PRIVILEGED_ROUTE_PROBE: denied privileged/admin calls ... */
#define BW_AUDIT_PRIV_PROBE_WINDOW_S 3600
#define BW_AUDIT_ESCALATE_FACTOR     5     /* a count of 5x the threshold raises the severity one step */
#define BW_AUDIT_TOP_PRINCIPALS      25    /* principals examined per rule (largest totals first) */
#define BW_AUDIT_SCAN_ROWS           50000 /* newest rows read per rule and scope account to pick them */
#define BW_AUDIT_ROWS_PER_PRINCIPAL  5000  /* newest rows read per examined principal */
#define BW_AUDIT_SCOPE_MAX_ACCOUNTS  1000  /* accounts of one scope looked at; the rest are skipped (logged) */
#define BW_AUDIT_MAX_ANOMALIES       100   /* anomalies returned, worst first */

/* metrics (src/common/metrics.h, src/http/metrics.c) */
#define BW_METRICS_ROUTES_MAX    64    /* route table entries with series of their own (checked at start) */
#define BW_METRICS_SLOTS         16    /* per-thread counter slots; more threads share slots (atomically) */
#define BW_METRICS_JOB_KINDS_MAX 16    /* job kinds shown in the queue gauges of one scrape */

#endif
