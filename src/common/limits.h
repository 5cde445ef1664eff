/* Every limit of the service in one place. Configurable ones are defaults for bw_config. */
#ifndef BW_COMMON_LIMITS_H
#define BW_COMMON_LIMITS_H

#define BW_MAX_BODY_DEFAULT      (2u * 1024u * 1024u) /* request body bytes (BULWARK_MAX_BODY) */
#define BW_MAX_BODY_CEILING      (64u * 1024u * 1024u)
#define BW_MAX_BODY_MIN          1024  /* BULWARK_MAX_BODY and BULWARK_MAX_CODE at least */
#define BW_JSON_MAX_DEPTH        32    /* nesting of arrays/objects in a request body */
#define BW_JSON_DUMP_MAX_DEPTH   2048  /* nesting bw_json_write follows (jansson's own limit for dumps) */
#define BW_JT_CHUNK              (32u * 1024u) /* bytes of an output-tree arena chunk (jtree.h): a playbook takes about three */
#define BW_MAX_PATH              2048  /* request path bytes */
#define BW_MAX_PATH_PARAMS       2     /* {id}-style captures per route */
#define BW_MAX_PATH_PARAM_LEN    128
#define BW_MAX_QUERY_PARAMS      32    /* query parameters per request; no endpoint takes half */
#define BW_MAX_HEADER_BYTES      (32u * 1024u) /* MHD connection memory: request line+headers */
#define BW_MAX_CONNECTIONS       4096  /* open connections (BULWARK_MAX_CONNECTIONS) */
#define BW_MAX_CONNECTIONS_MIN   16    /* ... set at least to this */
#define BW_MAX_CONNECTIONS_CEILING 1000000 /* ... and at most to this (also BULWARK_MAX_CONN_PER_IP) */
#define BW_MAX_CONNECTIONS_PER_IP 256  /* from one client address (BULWARK_MAX_CONN_PER_IP; 0: no limit) */
#define BW_CONNECTION_TIMEOUT_S  30    /* idle keep-alive, and the time a request's headers (and
                                          then its body) have to arrive (BULWARK_CONN_TIMEOUT_S) */
#define BW_CONFIG_SECONDS_MAX    3600  /* BULWARK_CONN_TIMEOUT_S and BULWARK_SHUTDOWN_GRACE_S at most */
#define BW_THREADS_MAX           256   /* BULWARK_THREADS (HTTP) and BULWARK_WORKERS (jobs) at most */
#define BW_THREADS_PER_CORE      4     /* BULWARK_THREADS unset: this many per core ... */
#define BW_THREADS_DEFAULT_CAP   16    /* ... up to this many, or one per core past it */
#define BW_TLS_FILE_MAX          (1u * 1024u * 1024u) /* bytes of a PEM file (BULWARK_TLS_CERT/KEY) */
#define BW_SHUTDOWN_GRACE_S      30    /* default of BULWARK_SHUTDOWN_GRACE_S: how long SIGTERM waits for in-flight requests */
#define BW_DRAIN_POLL_MS         5     /* ... checking this often whether they are done */
#define BW_ACCEPT_BATCH          64    /* connections the accepting thread takes per wakeup before polling again */
#define BW_ACCEPT_BACKOFF_MS     10    /* ... its pause after accept fails for want of descriptors or memory */
#define BW_SIGNAL_TICK_MS        250   /* the main thread's wait for a signal between connection-guard sweeps */
#define BW_REQUEST_ID_MAX        64
#define BW_MAX_TRUSTED_PROXIES   8     /* addresses in BULWARK_TRUSTED_PROXIES */
#define BW_MAX_FORWARDED_FOR     2048  /* X-Forwarded-For, every line joined: longer is 400, never cut */
#define BW_LINGER_MAX            64    /* connections answered early and draining at once (more: closed) */
#define BW_LINGER_MS             2000  /* how long such a connection is drained before it is closed */
#define BW_LINGER_MAX_BYTES      (4u << 20) /* what it may still send meanwhile */
#define BW_MAX_TOKEN_LEN         4096  /* a bearer token longer than this is invalid */
#define BW_MAX_ERRORS            32    /* validation errors reported per response */
#define BW_ROUTES_MAX            256   /* entries of the route table (bw_router_init refuses more) */
#define BW_ROUTE_SEGS_MAX        12    /* path segments of a route pattern */

#define BW_EMAIL_MAX             254
#define BW_PASSWORD_MIN          8
#define BW_PASSWORD_MAX          256
#define BW_LABEL_MAX             64
#define BW_ACCOUNT_WORD_MAX      16    /* characters of a tier or role in POST /api/accounts */
#define BW_MAX_CODE_DEFAULT      (1u * 1024u * 1024u) /* bytes of `code` to scan (BULWARK_MAX_CODE) */
#define BW_CONTEXT_MAX           4096 /* characters of a scan's `context` */
#define BW_SCAN_INLINE_BYTES     (64u * 1024u) /* larger scans run on the blocking pool */
#define BW_FREE_VISIBLE_FINDINGS 3
#define BW_NAME_MAX              128  /* characters of an asset's name and of its provider */
#define BW_ENDPOINT_MAX          2048 /* characters of an asset's endpoint */
#define BW_ASSET_TYPE_MAX        16   /* characters of an asset's type (then one of the five) */
#define BW_ASSET_ENV_MAX         64   /* characters of an asset's env */
#define BW_LANGUAGE_MAX          16   /* characters of a code scan's language (then one the scanner knows) */
#define BW_URL_DISPLAY_MAX       2560 /* bytes of a URL as shown in a finding (longer ones are cut) */
/* an asset's connection (engine/connection.h): how bulwark speaks to the model behind it */
#define BW_CONN_MODEL_MAX         256  /* characters of connection.model (a model or deployment name) */
#define BW_CONN_API_VERSION_MAX   64   /* characters of connection.api_version */
#define BW_CONN_SYSTEM_PROMPT_MAX 8192 /* characters of connection.system_prompt */
#define BW_CONN_SECRET_MAX        4096 /* characters of connection.auth.secret */
#define BW_CONN_AUTH_NAME_MAX     128  /* characters of connection.auth.name (a header or query parameter) */
#define BW_CONN_HEADERS_MAX       16   /* members of connection.headers */
#define BW_CONN_HEADER_NAME_MAX   128  /* characters of a header name */
#define BW_CONN_HEADER_VALUE_MAX  1024 /* characters of a header value */
#define BW_CONN_TEMPLATE_MAX      8192 /* bytes of connection.request_template serialised */
#define BW_CONN_TEMPLATE_DEPTH    8    /* nesting of connection.request_template */
#define BW_CONN_RESPONSE_PATH_MAX 256  /* characters of connection.response_path */
#define BW_CONN_PATH_STEPS_MAX    16   /* dot-separated steps of a response_path */
#define BW_CONN_DOC_MAX           65536 /* bytes of a stored connection document (the sum of the above, with room) */
#define BW_CONN_SEALED_MAX        8192 /* bytes of a sealed secret as stored */
#define BW_CHAT_URL_MAX           4096 /* bytes of a chat request URL built from an endpoint */
#define BW_CHAT_TRIED_MAX         6    /* attempts listed in a finding's "what was tried" */

#define BW_TOKEN_TTL_S           86400
#define BW_LIST_LIMIT_DEFAULT    20
#define BW_LIST_LIMIT_MAX        100
/* `offset` query parameters: 0..this. An offset walks every row it skips (slower the deeper it
 * goes); `cursor` reads any depth from the index at the cost of the first page */
#define BW_LIST_OFFSET_MAX       100000L
#define BW_CURSOR_TEXT_MAX       128  /* bytes of a text sort key carried in a cursor */
#define BW_CURSOR_ID_MAX         64   /* bytes of the row id carried in a cursor */
#define BW_CURSOR_MAX            300  /* characters of a `cursor` (base64url of at most 222 bytes) */

#define BW_MAX_KEYS_FREE         1
#define BW_MAX_KEYS_STARTER      5
#define BW_MAX_KEYS_PRO          25
#define BW_MAX_KEYS_ENTERPRISE   100
#define BW_MAX_KEYS_CEILING      10000

#define BW_RATE_WINDOW_S         3600  /* the rolling window of the per-hour limits */
/* requests per hour (BULWARK_RATE_ANON, BULWARK_RATE_FREE, ...): the defaults; 0 is no limit */
#define BW_RATE_ANON_DEFAULT       50
#define BW_RATE_FREE_DEFAULT       50
#define BW_RATE_STARTER_DEFAULT    500
#define BW_RATE_PRO_DEFAULT        5000
#define BW_RATE_ENTERPRISE_DEFAULT 0
#define BW_RATE_CEILING          1000000000L /* the most any of them may be set to */
#define BW_LOGIN_MAX_FAILURES_CEILING 1000000 /* BULWARK_LOGIN_MAX_FAILURES */
#define BW_LOGIN_WINDOW_S        900   /* failed-login throttle window */
#define BW_LOGIN_MAX_FAILURES    10
#define BW_LIMITER_MAX_ENTRIES   (1u << 20) /* tracked principals/IPs per limiter */
#define BW_LIMITER_KEY_MAX       63    /* bytes of a limiter key; longer keys (long emails) are replaced by a digest */
#define BW_LIMITER_NAME_MAX      15    /* bytes of a limit's name, part of the shared table's key */
#define BW_LIMITER_SWEEP_US      60000000 /* shared table: rows whose budget is whole are deleted this often */
#define BW_LIMITER_LEASE_US      1000000 /* shared limiter: a lease of requests is answered from memory this long */
#define BW_LIMITER_LEASE_DIV     256   /* ... and holds at most limit / this requests */
#define BW_LIMITER_LEASE_MAX     64    /* ... and never more than this */

#define BW_AUTH_CACHE_MS_DEFAULT 2000 /* both backends; other instances are notified at once */
#define BW_AUTH_CACHE_MS_MAX     60000 /* BULWARK_AUTH_CACHE_MS at most */
#define BW_AUTH_CACHE_SLOTS      4096
#define BW_KEY_TOUCH_INTERVAL_S  60    /* last_used_at is written at most this often per key */

/* the web console's sessions (src/auth/console.h) */
#define BW_CONSOLE_IDLE_S        1800  /* a console session unused this long has ended */
#define BW_CONSOLE_MAX_AGE_S     43200 /* and any after this long (cookie Max-Age too): sign in again */
#define BW_CONSOLE_TOUCH_S       60    /* its last-seen time is written at most this often */
#define BW_CONSOLE_SESSIONS_MAX  20    /* live sessions per account; a new one ends the oldest */
#define BW_CONSOLE_ID_LEN        43    /* the cookie's id: 32 random bytes, base64url without padding */
#define BW_CONSOLE_CSRF_LEN      43    /* the CSRF token: an HMAC-SHA256, base64url without padding */
#define BW_COOKIE_HEADER_MAX     8192  /* bytes of a Cookie header read; a longer one holds no session */

#define BW_BLOCKING_QUEUE_MAX    1024  /* queued blocking jobs before 503 */
#define BW_HASH_THREADS_MAX      64    /* BULWARK_HASH_THREADS: password hashing threads (default half the cores, at least 1) */
#define BW_HASH_QUEUE_DEFAULT    64    /* BULWARK_HASH_QUEUE: password checks waiting for a hashing thread; more: 503 */
#define BW_HASH_QUEUE_MAX        65536
#define BW_LOGIN_INFLIGHT_EMAIL  2     /* password checks in flight for one email (login, password change); more: 429 */
#define BW_LOGIN_INFLIGHT_IP     4     /* ... and from one client address */
#define BW_PROBE_THREADS         8     /* concurrent outbound scans (asset scans, MCP probes) */
#define BW_PROBE_QUEUE_MAX       64    /* queued scans before 503 */
#define BW_DB_POOL_MAX           32
#define BW_DB_BUSY_TIMEOUT_MS    5000  /* SQLite: how long a statement waits for another connection's lock
                                          (with one writer thread: only another process's, e.g. the CLI) */
#define BW_DB_PARAMS_MAX         512   /* parameters of one statement (a 32-row intel INSERT has 448) */
#define BW_SQLITE_CHECKPOINT_PAGES 1000 /* SQLite: WAL pages that wake the checkpointer thread (SQLite's auto-checkpoint default) */
#define BW_SQLITE_WAL_RESTART_PAGES 16000 /* ... past this many (64 MB) the writer checkpoints and restarts the WAL itself: it
                                             stays bounded; each restart stalls the writes queued behind it, so rarely */
#define BW_SQLITE_RESTART_TRIES  200   /* ... waiting for the readers of older frames this many times at most ... */
#define BW_SQLITE_RESTART_SLEEP_US 100 /* ... this long each (then the next 1,000 pages try again) */
#define BW_DB_GROUP_MAX          64    /* SQLite: writes committed together by the writer thread */
#define BW_DB_STMT_CACHE_SQLITE  128   /* prepared statements kept per SQLite connection */
#define BW_DB_COPY_CHUNK         65536 /* bytes of COPY rows sent to PostgreSQL at a time */
#define BW_INTEL_INSERT_ROWS     32    /* new intel rows per multi-row INSERT (SQLite imports; store_intel.c has its SQL) */
#define BW_INTEL_COPY_ROWS       1000  /* new intel rows gathered for one COPY (PostgreSQL imports) */
#define BW_INTEL_COPY_BYTES      (8 * 1024 * 1024) /* ... or this many bytes of them, whichever first */
#define BW_DB_STMT_CACHE_PG      256   /* prepared statements kept per PostgreSQL connection */
#define BW_DB_LISTEN_RETRY_MS    1000  /* PostgreSQL LISTEN connection: wait between reconnection attempts */
#define BW_DB_LISTEN_POLL_MS     200   /* ... its wait for a notification: how long stopping it takes at most */
#define BW_DB_NOTIFY_MAX         512   /* bytes of a NOTIFY payload */

/* logs (src/common/log.c) */
#define BW_LOG_BUF_BYTES         (32 * 1024) /* a thread's buffer of unwritten lines */
#define BW_LOG_FLUSH_AT          (24 * 1024) /* a buffer this full is written at once */
#define BW_LOG_FLUSH_MS          100   /* the flusher thread writes every thread's buffer this often */

/* threat intelligence: importers and the feed */
#define BW_INTEL_MAX_FILE        (64u * 1024u * 1024u) /* bytes of one source file to import */
#define BW_INTEL_MAX_FILES       100000 /* files of one OSV directory import */
#define BW_INTEL_TREE_DEPTH      64     /* nesting of a YAML/JSON source document */
#define BW_INTEL_TREE_NODES      (8u * 1024u * 1024u) /* nodes of one source document, aliases expanded */
#define BW_INTEL_MAX_ERRORS      50     /* rejected files/positions reported by one import */
#define BW_INTEL_ID_MAX          64     /* characters of a threat-intelligence record id */
#define BW_INTEL_CVE_SEQ_MAX     11     /* digits of a CVE sequence number the generators use (ids up to 20 characters) */
#define BW_INTEL_CVE_SEQ_IMPORT  19     /* digits of a CVE sequence number an importer accepts */
#define BW_INTEL_CWE_DIGITS_MAX  6      /* digits of a CWE number the generators use */
#define BW_INTEL_CWE_DIGITS_IMPORT 9    /* digits of a CWE number an importer accepts */
#define BW_INTEL_FACTS_MAX_IMPACTS 32   /* ai_impact entries a generator reads from a record (7 values exist) */
#define BW_INTEL_EPSS_MAX_BYTES  (64u * 1024u * 1024u) /* bytes of an EPSS CSV after decompression (the daily file is ~10 MB) */
#define BW_INTEL_EPSS_MAX_ROWS   2000000 /* scores of one EPSS file (~300,000 CVEs in 2026) */
#define BW_INTEL_EPSS_HISTORY_MAX 30    /* EPSS scores a record keeps, newest first: a month of daily files */
#define BW_INTEL_SYNC_MAX_BYTES  (64u * 1024u * 1024u) /* bytes of one fetched source (compressed as sent) */
#define BW_INTEL_SYNC_TIMEOUT_MS 300000 /* one source's whole download */
#define BW_INTEL_SYNC_CONNECT_MS 10000  /* connecting to a source host */
/* BULWARK_INTEL_SYNC_INTERVAL (src/jobs/intel_sync_job.h): 0 is off; a short one is for tests and
 * mirrors (the public feeds change daily), a month the longest that still means "scheduled" */
#define BW_INTEL_SYNC_INTERVAL_MIN_S 1
#define BW_INTEL_SYNC_INTERVAL_MAX_S (31L * 24 * 3600)
#define BW_INTEL_OSV_MAX_ENTRIES 200000 /* advisories in one OSV source (PyPI's all.zip held ~17,000 in 2026) */
#define BW_INTEL_OSV_MAX_TOTAL  (512u * 1024u * 1024u) /* bytes of one OSV zip's advisories, inflated */
#define BW_INTEL_OSV_MAX_ENTRY  (4u * 1024u * 1024u) /* bytes of one advisory in an OSV zip, inflated (they are KiB) */
#define BW_INTEL_OSV_PACKAGE_MAX 214    /* bytes of one [Ecosystem:]name in BULWARK_INTEL_OSV_PACKAGES (npm's name limit) */
#define BW_INTEL_OSV_PACKAGES_MAX 1000  /* packages in BULWARK_INTEL_OSV_PACKAGES */
#define BW_INTEL_SYNC_JOB_ATTEMPTS 3    /* claims of one interval's sync job (a worker died mid-sync) */
#define BW_INTEL_SYNC_JOBS_KEPT 16      /* finished sync jobs kept for operators; older ones are deleted */

/* audit events and zero-trust anomalies (src/audit/audit.h) */
#define BW_AUDIT_FLUSH_MS            1000  /* the recorder writes its aggregates this often */
#define BW_AUDIT_MAX_PENDING         4096  /* aggregates held between flushes (64 shards); more are dropped, counted */
#define BW_AUDIT_PRINCIPAL_MAX       64    /* bytes of a principal (IP, /64, key prefix, account id) with NUL */
#define BW_AUDIT_DETAIL_MAX          96    /* bytes of an event's detail with NUL */
#define BW_AUDIT_RETENTION_MS        (7LL * 86400 * 1000) /* audit rows older than this are deleted */
#define BW_AUDIT_PURGE_FIRST_MS      60000 /* the first retention sweep after start ... */
#define BW_AUDIT_PURGE_INTERVAL_MS   (3600LL * 1000)      /* ... then one per hour */
#define BW_AUDIT_PURGE_BATCH         5000  /* rows per DELETE statement of a sweep */
#define BW_AUDIT_UPSERT_CHUNK        256   /* aggregate rows per transaction: other writers get the SQLite lock in between */
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
#define BW_METRICS_ROUTES_MAX    96    /* route table entries with series of their own (checked at start) */
#define BW_METRICS_SLOTS         16    /* per-thread counter slots; more threads share slots (atomically) */
#define BW_METRICS_JOB_KINDS_MAX 16    /* job kinds shown in the queue gauges of one scrape */
#define BW_PROM_MAX_LABELS       4     /* label pairs of one sample */

/* outbound HTTP (src/net/egress.c): defaults of struct bw_egress_req and ceilings on what callers ask */
#define BW_EGRESS_CONNECT_TIMEOUT_MS  3000L
#define BW_EGRESS_TIMEOUT_MS          10000L
#define BW_EGRESS_MAX_RESPONSE        (1024u * 1024u)
#define BW_EGRESS_MAX_RESPONSE_CEILING (64u * 1024u * 1024u)
#define BW_EGRESS_MAX_HEADER_BLOCK    (16u * 1024u) /* response header block kept */
#define BW_EGRESS_MAX_REQ_HEADERS     64            /* request headers a caller may pass */
#define BW_EGRESS_MAX_REQ_HEADER_LEN  8192
#define BW_EGRESS_MAX_REDIRECTS       20
#define BW_EGRESS_URL_MAX             2048          /* == sizeof final_url (src/net/egress.h) */
#define BW_URL_MAX                    2048          /* bytes of a URL the parser reads (src/net/url.h) */
#define BW_URL_HOST_MAX               253           /* characters of a host name, without its final dot */
#define BW_EGRESS_HOST_MAX            256           /* bytes of the host the guard resolves, with its NUL */

/* code scanner (src/engine/code/scanner.h, scanner.c) */
#define BW_SCAN_MAX_FINDINGS     1000
#define BW_SCAN_TIME_BUDGET_MS 5000 /* one scan's confirmation work; past it the scan stops, marked truncated and time_limited (pathological input, e.g. a megabyte line of matches with look-aheads) */
/* Backtracking bounds per PCRE2 match: a pathological input costs at most this much work. */
#define BW_SCAN_MATCH_LIMIT      200000
#define BW_SCAN_DEPTH_LIMIT      2000
#define BW_SCAN_WINDOW_LINES_BEFORE 4  /* lines before a prefilter match end that a pattern may start on (a call's arguments may continue on the next lines) */
#define BW_SCAN_LOOKAHEAD        1024  /* bytes past a confirmation window a pattern may look at */
#define BW_SCAN_CONFIRM_SPAN     (16 * 1024) /* match starts tried per PCRE2 call (confirm) */
#define BW_SCAN_JIT_STACK_START  (32 * 1024)  /* a thread's PCRE2 JIT stack, first size ... */
#define BW_SCAN_JIT_STACK_MAX    (512 * 1024) /* ... and the most it grows to */
#define BW_SCAN_RELAX_REPEAT     4     /* a bounded repeat wider than this is unbounded in the Hyperscan prefilter */

/* syntax trees (src/engine/code/syntax.h, syntax.c): tree-sitter parses and queries */
#define BW_SYNTAX_MAX_PARSE_BYTES   (8u << 20) /* bytes one scan parses at most (whole file or windows); past it windows are dropped, the scan marked truncated */
#define BW_SYNTAX_WHOLE_FILE_BYTES  (16u * 1024u) /* a file this small with a syntax rule's prefilter hit is parsed whole; larger ones in windows around the hits */
#define BW_SYNTAX_WINDOW_LINES_BEFORE 100 /* a window starts at most this many lines before a hit (at the nearest line that starts in column 0: a function's head) */
#define BW_SYNTAX_WINDOW_LINES_AFTER  30  /* ... and ends this many lines after it */
#define BW_SYNTAX_QUERY_LINES_BEFORE  4   /* a query runs on the nodes from this many lines before a hit to the hit's line end */
#define BW_SYNTAX_MAX_QUERY_BYTES   (16u * 1024u) /* one rule's query text for one language */
#define BW_SYNTAX_MAX_PREDICATES    64    /* predicates of one query pattern */
#define BW_SYNTAX_MAX_QUERY_DEPTH   32    /* nesting of one query's patterns (checked before tree-sitter sees it) */
#define BW_SYNTAX_MATCH_LIMIT       1024  /* matches a query cursor keeps in progress (ts_query_cursor_set_match_limit) */
#define BW_SYNTAX_MAX_RANGES        4096  /* parse windows of one scan (merged) */

/* taint (src/engine/code/taint.h, taint.c): intra-procedural, per sink */
#define BW_TAINT_MAX_STEPS          8     /* steps of a trace kept (source, the first assignments, the sink) */
#define BW_TAINT_MAX_VARS           128   /* tainted names tracked in one function; past it the oldest are forgotten */
#define BW_TAINT_MAX_KEY            96    /* bytes of a tracked name (self.url, $data['u']); longer ones are not tracked */
#define BW_TAINT_MAX_NODES          20000 /* nodes one sink's function walk visits; past it the sink is judged on what was seen */
#define BW_TAINT_MAX_DEPTH          48    /* expression nesting followed when judging a value */
#define BW_TAINT_MAX_CALLEE         160   /* bytes of a callee's text compared with the sinks */
#define BW_TAINT_TABLE_MAX_BYTES    (64 * 1024) /* one taint table document (data/taint/LANG.json) */
#define BW_TAINT_TABLE_MAX_ENTRIES  64    /* sources, routes or sanitizers of one document */
#define BW_TAINT_TABLE_MAX_PATTERN  2048  /* bytes of one entry's regex */
#define BW_TAINT_TABLE_MAX_EXAMPLES 16    /* positive (and negative) examples of one entry */
#define BW_TAINT_TABLE_MAX_EXAMPLE  512   /* bytes of one example */

/* `bulwark scan` (src/cli/scan.c) */
#define BW_CLI_SCAN_MAX_FILE_BYTES (8u << 20) /* larger files are generated or data, not code */
#define BW_CLI_SCAN_MAX_FILES    200000
#define BW_CLI_SCAN_MAX_DEPTH    64
#define BW_CLI_RULES_MAX_FILE_BYTES (16u << 20) /* a rule catalog file (`bulwark rules test FILE`) */
#define BW_CLI_SCAN_MAX_JOBS     256   /* --jobs: scanning threads */
#define BW_CLI_SCAN_SNIFF_BYTES  8192  /* leading bytes searched for a NUL: a file with one is binary, skipped */
#define BW_CLI_SCAN_MINIFIED_LINE 2000 /* average line length above which a .js/.css file is generated */
#define BW_CLI_SCAN_SHEBANG_BYTES 256 /* bytes of an extensionless file read for a shell's #! line */
#define BW_CLI_SCAN_MAX_PATTERNS 10000 /* ignore patterns: .bulwarkignore lines plus --exclude */
#define BW_CLI_SCAN_MAX_PATTERN  1024  /* one ignore pattern's bytes */
#define BW_CLI_SCAN_MAX_CONFIG_BYTES (1u << 20) /* .bulwark.yml */
#define BW_CLI_SCAN_MAX_CONFIG_ITEMS 10000 /* rule ids, globs and overrides in .bulwark.yml */
#define BW_CLI_SCAN_MAX_BASELINE_BYTES (256u << 20) /* a --baseline report */
#define BW_CLI_SCAN_MAX_CELLS    10000 /* notebook cells read */
#define BW_CLI_SCAN_GLOB_STEPS   100000 /* backtracking steps one glob match may take */

/* MCP scan (src/engine/mcpscan.h, mcpscan.c) */
#define BW_MCP_URL_MAX 2048          /* server_url characters */
#define BW_MCP_TOOLS_MAX 500         /* tools per configuration, and tools read from a live server */
#define BW_MCP_TOOL_NAME_MAX 256     /* tool name characters */
#define BW_MCP_DESCRIPTION_MAX 4096  /* tool description characters */
#define BW_MCP_AUTH_MAX 64           /* auth_method characters */
#define BW_MCP_MAX_FINDINGS 1000     /* findings listed (the score counts them all; it caps at 100) */
#define BW_MCP_MAX_ERRORS 32         /* validation errors reported */
#define BW_MCP_PARAM_TEXTS 64        /* parameter descriptions read per tool */
#define BW_MCP_CHECK_TEXT_MAX 1000   /* bytes of a title, detail or remediation in data/mcp/checks.json */
/* encoded payloads in a tool's texts */
#define BW_MCP_ENC_B64_MIN 24        /* a base64 run this long is decoded */
#define BW_MCP_ENC_B64_BLOB 80       /* ... and reported even when it does not decode to text */
#define BW_MCP_ENC_HEX_MIN 32        /* a hex run this long is decoded (reported only when it is text: hashes are not) */
#define BW_MCP_ENC_ESC_MIN 6         /* consecutive \uXXXX, \xHH or %HH escapes */
#define BW_MCP_ENC_TEXT_MIN 12       /* decoded bytes needed to call the result text */
#define BW_MCP_ENC_DEPTH 2           /* decoded text is searched again once (double encoding) */

/* MCP live probe: the wire format (src/engine/mcprpc.h) and the exchanges (src/engine/mcpprobe.h) */
#define BW_MCP_RPC_DEPTH_MAX 64              /* JSON nesting accepted in a response */
#define BW_MCP_LIVE_DESCRIPTION_MAX 16384    /* bytes of a live tool's description kept (cut at a
                                                character boundary): the request limit of 4096
                                                characters would let a server hide text past it */
#define BW_MCP_CURSOR_MAX 1024               /* nextCursor bytes; a longer one ends pagination */
#define BW_MCP_SESSION_ID_MAX 256            /* Mcp-Session-Id bytes; a longer one is not echoed */
#define BW_MCP_PROBE_EXCHANGE_MS 5000             /* one HTTP exchange */
#define BW_MCP_PROBE_CONNECT_MS 3000              /* its connect phase */
#define BW_MCP_PROBE_BUDGET_MS 20000              /* the whole probe */
#define BW_MCP_PROBE_DELETE_MS 2000               /* the closing DELETE is a courtesy: it gets less time */
#define BW_MCP_PROBE_RESPONSE_MAX (1024u * 1024u) /* body bytes per response */
#define BW_MCP_PROBE_PAGES 10                     /* pages followed per list (tools, prompts, resources) */
#define BW_MCP_LIVE_ITEMS_MAX 500                 /* prompts, and resources, read from a live server */
#define BW_MCP_PROBE_MIN_EXCHANGE_MS 100        /* below this much budget left an exchange is not started */

/* MCP tool pinning (src/engine/mcppin.h, src/services/mcppins.h) */
#define BW_MCP_PIN_SERVERS_MAX 1000   /* servers pinned per account; a new one past it is scanned, not pinned */
#define BW_MCP_PIN_TEXT_MAX 4096      /* bytes of each field of a definition kept with its pin, to quote later */
#define BW_MCP_PIN_QUOTE_MAX 240      /* bytes of the old or the new text quoted per changed field */
#define BW_MCP_PIN_CONTEXT 40         /* unchanged bytes quoted before and after a change */
#define BW_MCP_PIN_WORD_MAX 128       /* a quote widens to whole words this far; a word cut further is masked */
#define BW_MCP_PIN_DEPTH_MAX 72       /* nesting canonicalised: above what a body (BW_JSON_MAX_DEPTH) or a live
                                         response (BW_MCP_RPC_DEPTH_MAX) can hold, so a definition always pins */
#define BW_MCP_PIN_SERVER_SHOWN 512   /* bytes of a server identity shown (and stored) */

/* agent scan (src/engine/agentscan.h): request limits (characters are UTF-8 code points, as
   everywhere in the API) */
#define BW_AGENT_TOOLS_MAX 200
#define BW_AGENT_TOOL_CHARS_MAX 256
#define BW_AGENT_PROMPT_CHARS_MAX 32768
#define BW_AGENT_SERVERS_MAX 50          /* config.servers items */
#define BW_AGENT_SERVER_NAME_CHARS_MAX 128
#define BW_AGENT_URL_CHARS_MAX 2048
#define BW_AGENT_PROMPT_LONG_BYTES 16384 /* a longer prompt: cost and context-window pressure */
#define BW_AGENT_TOOLS_NAMED 5           /* tools named in one agent-wide message */
/* agent scan: the embedded capability catalog (data/agents/capabilities.json, checked at load) */
#define BW_AGENT_CAPS_MAX 32             /* capabilities (a bit set in a uint32_t) */
#define BW_AGENT_PHRASE_MAX 80           /* bytes of a capability phrase */
#define BW_AGENT_CAP_ATLAS_MAX 4         /* ATLAS technique ids per capability */
#define BW_AGENT_CHECK_ATLAS_MAX 3       /* ATLAS technique ids per check */
#define BW_AGENT_ISSUE_ATLAS_MAX 12      /* ATLAS technique ids collected per issue */
/* agent scan: the prompt reader (src/engine/agentprompt.h) and its catalog
   (data/agents/instructions.json, checked at load) */
#define BW_AGENT_INSTR_MAX 32            /* instructions in the catalog */
#define BW_AGENT_INSTR_ATLAS_MAX 3       /* ATLAS technique ids per instruction */
#define BW_AGENT_SCOPES_MAX 32           /* scopes (a bit set in a uint32_t) */
#define BW_AGENT_LIST_MAX 512            /* phrases in one list of the catalog */
#define BW_AGENT_EXAMPLES_MAX 16         /* example clauses per instruction and verdict */
#define BW_AGENT_PATTERN_WORDS_MAX 12    /* words (gaps included) of one pattern */
#define BW_AGENT_PATTERN_GAP 3           /* words a "*" in a pattern stands for, at most */
#define BW_PHRASE_WORDS_MAX 12           /* words one phrase of any word catalog holds (engine/phrase.h);
                                            each catalog caps its own phrases at or below it */
#define BW_AGENT_READINGS_MAX 256        /* readings kept per prompt; later ones are not read */
#define BW_AGENT_CLAUSE_MATCHES_MAX 1024 /* pattern matches weighed per clause; later ones are not */
#define BW_AGENT_CLAUSE_QUOTE_MAX 240    /* bytes of a clause quoted in an issue (cut at a character) */

/* live asset scans (src/engine/assetscan.h): defaults of struct bw_assetscan_opts and per-exchange caps */
#define BW_ASSET_EXCHANGE_MS 5000        /* one exchange (request_timeout_ms 0) */
#define BW_ASSET_BUDGET_MS 30000         /* the whole scan (budget_ms 0) */
#define BW_ASSET_CONNECT_MS 3000         /* an exchange's connect phase */
#define BW_ASSET_MIN_EXCHANGE_MS 100     /* the least time an exchange gets once the budget runs short */
#define BW_ASSET_RESPONSE_MAX (64 * 1024)      /* body bytes of the first GET and the malformed-JSON probe */
#define BW_ASSET_LLM_RESPONSE_MAX (256 * 1024) /* body bytes of a model's reply */
#define BW_STATIC_SCORE_MAX 79           /* a score not from a completed live scan never reads LOW (>= 80) */
#define BW_ASSET_CERT_EXPIRING_DAYS 30   /* a certificate expiring within this many days is reported */

/* governance assessments: the request (src/api/governance.c), the engine (src/engine/governance.h)
   and the evidence gathered (src/services/evidence.h) */
#define BW_ASSESS_USE_CASES_MAX 50
#define BW_ASSESS_USE_CASE_CHARS 1000
#define BW_ASSESS_ORG_CONTEXT_CHARS 8000
#define BW_ASSESS_MAX_RECOMMENDATIONS 5
#define BW_ASSESS_EVIDENCE_WHY 400    /* bytes of a gap's evidence text */
#define BW_ASSESS_KEY_MAX_AGE_DAYS 90 /* keys_fresh: an active API key older than this fails the control */
#define BW_ASSESS_FRAMEWORK_ID_MAX 32 /* characters of framework_id (then one of the four) */
/* use-case classification (src/engine/usecase.h) and its catalog (data/frameworks/usecases.json) */
#define BW_UC_CATEGORIES_MAX 64       /* categories and traits in the catalog */
#define BW_UC_ALTERNATIVES_MAX 8      /* alternatives per category */
#define BW_UC_GROUPS_MAX 4            /* groups of one alternative (all must match) */
#define BW_UC_PHRASES_MAX 128         /* phrases per group or in the negation list */
#define BW_UC_PHRASE_WORDS_MAX 6      /* words of one phrase */
#define BW_UC_NEGATION_WINDOW 5       /* words before a match a negation reaches (same clause) */
#define BW_UC_WORDS_MAX 4             /* deciding words quoted per category */
#define BW_UC_QUOTE_MAX 64            /* bytes of one quoted deciding phrase */
#define BW_UC_EXAMPLES_MAX 16         /* example use cases per category, each of match and no_match */
#define BW_UC_EXAMPLE_MAX 300         /* bytes of one example use case */
#define BW_EVIDENCE_MAX_SCANS 1000          /* latest scans read per gathering */
#define BW_EVIDENCE_MAX_SCAN_BYTES (1 << 20) /* a larger document of a scan stored before 0010 is skipped */
#define BW_EVIDENCE_MAX_TYPES 8             /* distinct asset types reported */
#define BW_EVIDENCE_FINDING_IDS 4           /* finding ids kept per OWASP risk */
#define BW_EVIDENCE_WINDOW_DAYS 90          /* "recent" scans and engagements: the window evidence is gathered from */
#define BW_EVIDENCE_OWASP 10                /* OWASP LLM Top 10 risks tracked, LLM01..LLM10 */
#define BW_EVIDENCE_ID_MAX 40               /* bytes of a finding id kept, NUL included; longer ids are ignored */

/* red team (src/engine/redteam/redteam.h, src/store/store_redteam.h) */
#define BW_REDTEAM_MAX_PRO       2     /* queued+running engagements per account (BULWARK_REDTEAM_MAX_PRO) */
#define BW_REDTEAM_MAX_ENTERPRISE 10
#define BW_REDTEAM_MAX_CEILING   10000 /* BULWARK_REDTEAM_MAX_* at most */
#define BW_RT_ATTACK_TIMEOUT_MS 10000 /* one attack's exchange */
#define BW_RT_RESPONSE_CAP (256 * 1024)
#define BW_RT_PROMPT_MAX 600   /* bytes of the prompt kept per attack row */
#define BW_RT_EXCERPT_MAX 400  /* bytes of the reply kept per attack row */
#define BW_RT_MAX_ATTACKS 256  /* attacks in the library */
#define BW_RT_MAX_TURNS 6      /* earlier turns of a multi-turn attack */
#define BW_RT_MAX_DOCS 4       /* retrieved passages of a RAG attack */
#define BW_RT_MAX_ATLAS 4      /* ATLAS technique ids per attack */
#define BW_RT_MAX_EXPECT 4     /* compliance markers per attack */
#define BW_RT_MAX_TOOLS 6      /* tools an attack offers the model */
#define BW_RT_ATTACK_ID_MAX 48 /* bytes of an attack row's attack id with its NUL */
#define BW_RT_ASSET_ID_CHARS_MAX 128 /* characters of target_asset_id (ids are opaque; longer is a 400) */
#define BW_RT_CATEGORY_ITEMS_MAX 16 /* items of attack_categories (repeats allowed) */
#define BW_RT_CONNECT_TIMEOUT_MS 3000 /* an attack exchange's connect phase */
#define BW_RT_MAX_TOKENS 512   /* max_tokens asked of the target per attack */
#define BW_RT_REQUEST_WORDS 48  /* content words of an attack's request the refusal detector compares */
#define BW_RT_DEFLECT_MAX 600   /* bytes of a reply that may be a deflection (longer ones answer something) */
#define BW_RT_REFUSAL_WINDOW 400 /* leading bytes of a reply searched for a refusal (verbose ones restate the request first) */
#define BW_RT_FINDINGS_MAX 4096 /* bytes of an attack row's findings (JSON: one hit per detector, package names listed) */
#define BW_RT_PACKAGES_MAX 8    /* unverified package names listed per reply (the LLM09 finding) */
#define BW_RT_PACKAGE_NAME_MAX 100 /* bytes of a package name read from a reply (longer: not a name) */
#define BW_RT_REPORT_PACKAGES_MAX 100 /* distinct unverified package names a report lists */
#define BW_RT_PATH_MAX 400      /* bytes of an attack row's escalation path */
#define BW_RT_EVIDENCE_MAX 200  /* bytes of a detector's quoted evidence */
#define BW_RT_B64_MIN 24        /* characters of a base64 run in a reply that is decoded and judged too */
#define BW_RT_B64_MAX (16 * 1024) /* bytes of decoded base64 judged per reply */

#define BW_RT_LEAK_RUN 40       /* bytes of a known system prompt repeated verbatim that make a leak */
#define BW_RT_ETA_MAX_S 86400  /* an engagement's estimated duration is capped at a day */
#define BW_RT_DEFAULT_ATTACK_MS 2000 /* an attack's estimated duration before any latency was measured */
#define BW_RT_COMPLY_MIN_LEN 40 /* bytes of a reply that counts as a compliant answer */
#define BW_RT_QUOTE_SPAN_MIN 20 /* bytes a quotation around the canary exceeds it by to be a restated request */
/* adaptive attacks (src/engine/redteam/escalate.h): the escalation budget of an engagement, every
 * request of it counted (the attacks as written included), by intensity; BULWARK_RT_BUDGET_* */
#define BW_RT_TURNS_RETENTION_DAYS 30 /* default BULWARK_RT_TURNS_RETENTION_DAYS: an ended engagement's stored requests are kept this long */
#define BW_RT_TURNS_RETENTION_DAYS_MAX 3650
#define BW_RT_TURNS_SWEEP_MS (3600LL * 1000) /* the retention sweep's period (each process's scheduler) */
#define BW_RT_TURNS_SWEEP_NOW_MS 1000 /* ... when the retention is 0: requests go about a second after the end */
#define BW_RT_TURNS_PURGE_BATCH 50    /* engagements whose requests one DELETE removes */
#define BW_RT_BUDGET_REQ_LIGHT 60
#define BW_RT_BUDGET_S_LIGHT 120
#define BW_RT_BUDGET_REQ_STANDARD 400
#define BW_RT_BUDGET_S_STANDARD 600
#define BW_RT_BUDGET_REQ_FULL 2000
#define BW_RT_BUDGET_S_FULL 3600
#define BW_RT_BUDGET_REQ_CEILING 100000 /* BULWARK_RT_BUDGET_*_REQUESTS and budget_requests at most */
#define BW_RT_BUDGET_S_CEILING 86400    /* BULWARK_RT_BUDGET_*_SECONDS and budget_seconds at most */
#define BW_RT_ESC_DEPTH 2        /* transformations stacked on one attack at most */
#define BW_RT_ESC_TURNS_MAX 3    /* user turns a transformation spreads an attack over */
#define BW_RT_ESC_FRONTIER_MAX 256 /* branches waiting in one attack's search (the whole depth-2 tree fits) */
#define BW_RT_ESC_EXCHANGE_MAX (64 * 1024) /* bytes of one stored exchange (reply and answer body) */

/* imported indexes of existing package names (src/engine/pkgindex.h, src/services/packages.h) */
#define BW_PKG_NAME_MAX        214  /* bytes of a package name (npm's own limit; PyPI's names are shorter) */
#define BW_PKG_INDEX_MAX_NAMES 10000000 /* names of one ecosystem's index (npm had about 3.5 million in 2026) */
#define BW_PKG_INDEX_MAX_FILE  (1024u * 1024u * 1024u) /* bytes of one file to import, as read and once decompressed (npm's _all_docs is some hundreds of MB) */
#define BW_PKG_JSON_DEPTH      32   /* nesting of a JSON index file */
#define BW_PKG_INSERT_ROWS     256  /* names per multi-row INSERT (SQLite; 2 parameters each, within BW_DB_PARAMS_MAX) */
#define BW_PKG_COPY_ROWS       50000 /* names per COPY (PostgreSQL) */
#define BW_PKG_TX_NAMES        100000 /* names per transaction of a SQLite import (its write lock is held that long, not for the whole file) */

/* the job queue and its workers (src/jobs/jobs.h) */
#define BW_JOB_LEASE_MS          60000 /* a claimed job's lease (BULWARK_JOB_LEASE_MS) */
#define BW_JOB_POLL_MS           1000  /* an idle worker's wait between claims (BULWARK_JOB_POLL_MS) */
#define BW_JOB_LEASE_MS_MIN      500   /* BULWARK_JOB_LEASE_MS between these */
#define BW_JOB_LEASE_MS_MAX      3600000
#define BW_JOB_POLL_MS_MIN       10    /* BULWARK_JOB_POLL_MS between these */
#define BW_JOB_POLL_MS_MAX       60000
#define BW_JOB_MAX_ATTEMPTS 5
#define BW_JOB_BACKOFF_BASE_MS 1000 /* the first retry's wait; it doubles per attempt ... */
#define BW_JOB_BACKOFF_MAX_MS 60000 /* ... up to this */
#define BW_JOB_REAP_BATCH 16     /* expired jobs failed per reaper statement (repeated until none are left) */
#define BW_JOB_KINDS_MAX 8       /* job kinds in the registry */
#define BW_JOB_KIND_MAX 32       /* bytes of a job kind name with its NUL */
#define BW_JOB_OWNER_MAX 64      /* bytes of a lease owner (worker id) with its NUL */

/* JWT (src/auth/jwt.h) */
#define BW_JWT_SKEW_S 60 /* tolerated clock difference between instances */
#define BW_JWT_SECRET_MAX 256 /* bytes of the JWT secret used (BULWARK_JWT_SECRET beyond them is ignored) */
#define BW_JWT_SECRET_MIN 32  /* bytes BULWARK_JWT_SECRET needs at least */
#define BW_ADMIN_KEY_MIN 16   /* characters BULWARK_ADMIN_KEY needs at least */

/* threat-intelligence playbooks (src/engine/intel/playbook.h): lists taken from a record */
#define BW_PLAYBOOK_MAX_ITEMS      16 /* CVEs, CWEs, affected entries, ATLAS ids used from a record */
#define BW_PLAYBOOK_MAX_TECHNIQUES 24 /* ATT&CK techniques considered */
#define BW_PLAYBOOK_MAX_RECORD_REFS 24 /* record references copied into references */
#define BW_PLAYBOOK_MAX_NAME       96 /* bytes of a product/package name used in text and queries */
#define BW_PLAYBOOK_MAX_TOKENS     6  /* product/package names searched for in the queries */
#define BW_PLAYBOOK_MAX_MITIGATIONS 64 /* ATT&CK, and ATLAS, mitigations gathered per architecture entry */
#define BW_PLAYBOOK_EVIDENCE_ITEMS 64 /* items kept of any one array in the supporting evidence */
#define BW_PLAYBOOK_EVIDENCE_DEPTH 16 /* nesting kept of a record value in the supporting evidence (deeper: null) */
#define BW_PLAYBOOK_TEXT_HINT      (24u * 1024u) /* bytes reserved for a playbook's text at once (most are 15-22 KB) */

/* orchestrator (src/services/orch.h) */
#define BW_ORCH_MAX_ITEMS          1000 /* max_items of a run */
#define BW_ORCH_MAX_ITEMS_DEFAULT  100  /* on-demand packs and runs without max_items */
#define BW_ORCH_KEV_MAX            500  /* KEV entries read */
#define BW_ORCH_ASSETS_MAX         5000 /* assets read per scope */
#define BW_ORCH_ENGAGEMENTS_MAX    200  /* completed engagements read per scope */
#define BW_ORCH_ACCOUNTS_MAX       1000 /* managed accounts of an mssp */
#define BW_ORCH_FINDINGS_LISTED    50   /* critical findings itemised in the ASPM snapshot */
#define BW_ORCH_RECOMMENDATIONS    20
#define BW_ORCH_SNAPSHOTS_KEEP     5    /* per scope */
#define BW_ORCH_SCOPE_KEY_MAX      64   /* bytes of a run's scope key with its NUL */
/* on-demand packs (src/services/orch_cache.h): a pool of their own, so a computation (0.1-0.3 s
 * with the seed, more with a larger store) never holds an HTTP event thread nor delays a login */
#define BW_ORCH_PACK_THREADS       2    /* threads serving pack requests */
#define BW_ORCH_PACK_QUEUE_MAX     64   /* pack requests waiting for a thread before 503 */
#define BW_PLAYBOOK_CACHE_ENTRIES  4096 /* generated playbooks kept in memory (by record id and a digest of its document and version) */
#define BW_PLAYBOOK_CACHE_BYTES    (48L * 1024 * 1024) /* ... and their bytes (about 20 KB each) */
/* feed pages (GET /api/ai-security/threat-feed) kept in memory by query and intel generation: a
 * page of 20 is about 18 KB, of 100 about 90 KB */
#define BW_INTEL_CHANNEL           "bulwark_intel" /* PostgreSQL NOTIFY: an intel write committed */
#define BW_INTEL_GEN_TTL_MS        1000  /* a watched intel generation is re-read at least this often (BULWARK_INTEL_CACHE_MS) */
#define BW_INTEL_GEN_TTL_MS_MAX    60000 /* ... BULWARK_INTEL_CACHE_MS at most */
#define BW_FEED_CACHE_ENTRIES      1024
#define BW_FEED_CACHE_BYTES        (32L * 1024 * 1024)
#define BW_ORCH_PACK_CACHE_SCOPES  8    /* scopes whose computed packs are kept (about 2 MB of text each) */
#define BW_ORCH_PACK_CACHE_S_DEFAULT 60 /* BULWARK_ORCH_PACK_CACHE_S: how long they are reused */
#define BW_ORCH_PACK_CACHE_S_MAX   3600
#define BW_ORCH_COVERAGE_DAYS      30   /* ASPM coverage: an asset scanned this recently is covered */

/* hunt content (src/engine/intel/hunt.h): what is taken from a record */
#define BW_HUNT_MAX_CVES        8   /* CVE ids used from a record */
#define BW_HUNT_MAX_TERMS       4   /* product/package names used in rules */
#define BW_HUNT_MAX_TERM_LEN    64  /* bytes of one product/package name */
#define BW_HUNT_MIN_TERM_LEN    3   /* ... and at least: shorter names match too much to be searched for */
#define BW_HUNT_MAX_CLASSES     3   /* weakness/behaviour classes turned into selections */
#define BW_HUNT_MAX_MARKERS     5   /* markers per class */
#define BW_HUNT_MAX_SELECTIONS  8   /* keyword-pair selections of an application-log rule */
#define BW_HUNT_MAX_REFERENCES  8   /* record reference URLs copied into the Sigma rule */
#define BW_HUNT_MAX_URL_LEN     512 /* longer reference URLs are left out */
#define BW_HUNT_MAX_TECHNIQUES  12  /* ATT&CK techniques tagged */
#define BW_HUNT_MAX_CWES        8   /* CWE ids read from a record */
#define BW_HUNT_MAX_ITEMS       32  /* entries read from any one list of the record */
#define BW_HUNT_MAX_TITLE       160 /* bytes of the record title used in rule titles */
#define BW_HUNT_MAX_SUMMARY     400 /* bytes of the record summary used in descriptions */

/* compliance packs (src/engine/intel/compliance.h) */
#define BW_COMPLIANCE_MAX_ITEMS  64 /* entries read from any one list of a record */

/* STIX 2.1 and TAXII 2.1 (src/engine/intel/stix.h, taxii.h) */
#define BW_STIX_ID_MAX           80   /* bytes of an object id: "course-of-action--" + 36 + NUL, with room */
#define BW_STIX_MAX_NAME         256  /* bytes of an object's name */
#define BW_STIX_MAX_TEXT         4096 /* bytes of a description or copied fact */
#define BW_STIX_MAX_REFS         32   /* external references of a vulnerability */
#define BW_STIX_MAX_URL          1024 /* longer reference URLs are left out */
#define BW_STIX_MAX_TECHNIQUES   32   /* techniques of a record related to it */
#define BW_STIX_BATCH_RECORDS    50   /* records read per statement for a bundle */
#define BW_TAXII_LIMIT_DEFAULT   100  /* objects per TAXII page when the client gives no limit */
#define BW_TAXII_LIMIT_MAX       1000 /* ... and at most (a larger limit is lowered, as TAXII allows) */
#define BW_TAXII_SCAN_RECORDS    200  /* records read per TAXII request; a sparse filter answers fewer
                                         objects with more:true and a next */
#define BW_TAXII_MATCH_MAX       16   /* values of one match[...] parameter */
#define BW_TAXII_MAX_CONTENT     (2L * 1024 * 1024) /* max_content_length of the API root */

/* CycloneDX ML-BOM of an account's assets (src/engine/bom.h) and assets' components */
#define BW_ASSET_COMPONENTS_MAX  64   /* entries of an asset's `components` list */
#define BW_COMPONENT_NAME_MAX    200  /* characters of a component's name */
#define BW_COMPONENT_VERSION_MAX 128  /* characters of its version */
#define BW_COMPONENT_PURL_MAX    1024 /* characters of its purl */
#define BW_BOM_ASSETS_MAX        1000 /* assets and pinned MCP servers in one BOM; more is 422 */
#define BW_BOM_TOOLS_MAX         10000 /* MCP tools (of pinned servers) in one BOM; more is 422 */
#define BW_BOM_VULNS_MAX         2000 /* vulnerabilities in one BOM; more matching records is 422 */
#define BW_BOM_FINDINGS_MAX      50   /* last-scan findings listed per asset (the count is always given) */
#define BW_BOM_ADVISORIES_MAX    8    /* references listed per vulnerability */
#define BW_BOM_TEXT_MAX          4096 /* bytes of a copied description */

/* webhooks (src/engine/webhook.h, src/services/webhooks.h, src/jobs/webhook_job.h) */
#define BW_WEBHOOKS_MAX            20    /* webhooks per account */
#define BW_WEBHOOK_URL_MAX         2048  /* bytes of an endpoint URL (== BW_EGRESS_URL_MAX) */
#define BW_WEBHOOK_SECRET_LEN      38    /* "whsec_" + 32 base62 characters */
#define BW_WEBHOOK_TRIES           5     /* tries of one delivery (the first and four retries) */
#define BW_WEBHOOK_TIMEOUT_MS      10000L /* one try's whole exchange */
#define BW_WEBHOOK_CONNECT_MS      3000L  /* its connect phase */
#define BW_WEBHOOK_MAX_RESPONSE    4096u  /* response body bytes read (and discarded) per try */
#define BW_WEBHOOK_BODY_MAX        (64 * 1024) /* bytes of one event body */
#define BW_WEBHOOK_BACKOFF_SCALE   1000  /* per mille of the retry schedule (BULWARK_WEBHOOK_BACKOFF_SCALE, 1..1000) */
#define BW_WEBHOOK_ERROR_MAX       256   /* bytes of a delivery's last error */
#define BW_WEBHOOK_KEV_ASSETS_MAX  10000 /* assets compared per KEV import for intel.kev_match */
#define BW_WEBHOOK_KEV_EVENTS_MAX  1000  /* intel.kev_match events raised by one import */

#endif
