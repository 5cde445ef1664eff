-- wrk script for the bench scripts: after the run, print one machine-readable line.
-- Latencies are in microseconds (wrk's unit); rps is completed requests over the measured time.
-- non2xx counts responses wrk calls errors (status > 399, e.g. a 429 from the rate limiter), so
-- a script can tell a fast server from one that is fast because it refuses.
--
-- Optional, from the environment (bench/store.sh uses them; bench/run.sh uses none):
--   BENCH_EXPECT=201        check every response: non2xx becomes the count of responses whose
--                           status is not this one (any status, 3xx included)
--   BENCH_METHOD=POST       the method of every request; BENCH_BODY its body (Content-Type JSON)
--   BENCH_PATH=/x/%07d/y    the path, "%07d" replaced per request by a random integer in
--                           1..BENCH_IDS (a random record among a million, say)
--   BENCH_TOKENS="t1 t2"    bearer tokens, one per request in turn (Authorization header)
-- With any of the last three a Lua function builds each request, which costs wrk some CPU: a
-- script comparing against the bare server runs the bare server through the same path.
local expect = tonumber(os.getenv("BENCH_EXPECT") or "")
local method = os.getenv("BENCH_METHOD")
local body = os.getenv("BENCH_BODY")
local path_fmt = os.getenv("BENCH_PATH")
local ids = tonumber(os.getenv("BENCH_IDS") or "") or 1
local tokens = {}
for t in string.gmatch(os.getenv("BENCH_TOKENS") or "", "%S+") do
  tokens[#tokens + 1] = t
end

local threads = {}
setup = function(thread)
  thread:set("index", #threads)
  threads[#threads + 1] = thread
end

bad = 0 -- per thread (each wrk thread has its own Lua state); read back in done()
local n = 0

init = function(args)
  math.randomseed(os.time() * 1000 + (index or 0))
  n = index or 0
  if method then wrk.method = method end
  if body then
    wrk.body = body
    wrk.headers["Content-Type"] = "application/json"
  end
end

if path_fmt or #tokens > 0 then
  request = function()
    local path = path_fmt and string.format(path_fmt, math.random(ids)) or wrk.path
    local headers = wrk.headers
    if #tokens > 0 then
      n = n + 1
      headers["Authorization"] = "Bearer " .. tokens[n % #tokens + 1]
    end
    return wrk.format(nil, path, headers, nil)
  end
end

if expect then
  response = function(status, headers, body)
    if status ~= expect then bad = bad + 1 end
  end
end

done = function(summary, latency, requests)
  local secs = summary.duration / 1e6
  local e = summary.errors
  local non2xx = e.status
  if expect then
    non2xx = 0
    for _, t in ipairs(threads) do non2xx = non2xx + (t:get("bad") or 0) end
  end
  io.write(string.format(
    "BENCH rps=%.1f p50_us=%d p99_us=%d requests=%d non2xx=%d sock_errors=%d\n",
    summary.requests / secs, latency:percentile(50), latency:percentile(99), summary.requests,
    non2xx, e.connect + e.read + e.write + e.timeout))
end
