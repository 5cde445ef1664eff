-- wrk script for bench/run.sh: after the run, print one machine-readable line.
-- Latencies are in microseconds (wrk's unit); rps is completed requests over the measured time.
-- non2xx counts responses wrk calls errors (status > 399, e.g. a 429 from the rate limiter), so
-- run.sh can tell a fast server from one that is fast because it refuses.
done = function(summary, latency, requests)
  local secs = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "BENCH rps=%.1f p50_us=%d p99_us=%d requests=%d non2xx=%d sock_errors=%d\n",
    summary.requests / secs, latency:percentile(50), latency:percentile(99), summary.requests,
    e.status, e.connect + e.read + e.write + e.timeout))
end
