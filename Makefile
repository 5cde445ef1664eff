# Thin wrapper over CMake for the two README commands and a few more.
#   make run    install missing packages, build, start the server (SQLite in ./var)
#   make test   everything CI runs: warnings as errors, unit + API tests on SQLite and
#               PostgreSQL, the same under ASan+UBSan, and each fuzzer briefly
#   make install  the binary, systemd unit and docs under PREFIX (default /usr/local), staged
#               below DESTDIR when set (packaging): make install PREFIX=/usr DESTDIR=/tmp/pkg
#   make soak   10 minutes (SOAK_SECONDS=600) of mixed traffic at the machine's capacity against
#               the real binary: no unintended error status, resident memory within a stated bound
#               of the warm-up's and not growing, descriptors back to their count, clean SIGTERM
#               (tests/soak/soak.mjs); SOAK_BACKEND=postgres on a throwaway cluster. `make test`
#               runs a short one (ctest label `soak`)
#   make bench  throughput and p99 latency against a bare libmicrohttpd server, as ratios;
#               scanner MB/s and the ratio to bandit; with 1,000,000 intel records on SQLite
#               and PostgreSQL: the threat feed, playbooks and key creation (writes/s), as ratios
#               to the bare server measured in the same run; precision and recall of the agent
#               scan's issues and of governance applicability on labelled sets
#               (bench/posture.sh), and of the MCP poisoning and pin judgments (tests/data/mcp);
#               the web console's first-load bytes sent (gzip) against its 200 KB budget.
#               Never part of make test.
# One folder per configuration, so the targets work in any order on a fresh clone and none
# inherits another's cache (make test's -Werror, make bench's Release, the fuzzers' clang).
BUILD ?= build
TEST_BUILD ?= build-test
ASAN_BUILD ?= build-asan
BENCH_BUILD ?= build-bench
FUZZ_BUILD ?= build-fuzz
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 20
SOAK_SECONDS ?= 600
SOAK_BACKEND ?= sqlite
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all build run test unit api asan fuzz bench soak clean deps install

all: build

deps:
	@scripts/deps.sh build

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@mkdir -p -m 0700 var # the data directory is the owner's alone (bulwark refuses a wider one)
	@echo "bulwark: starting on $${BULWARK_LISTEN:-127.0.0.1:8080} with SQLite in $${BULWARK_DATA_DIR:-./var}"
	@echo "bulwark: on first start the admin login and admin key are printed below, once (see README)"
	@exec $(BUILD)/bulwark serve

install: build
	@DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

test:
	@scripts/deps.sh test
	@TEST_BUILD=$(TEST_BUILD) ASAN_BUILD=$(ASAN_BUILD) scripts/test.sh

soak: build
	@scripts/deps.sh test
	@SOAK_SECONDS=$(SOAK_SECONDS) scripts/soak.sh $(BUILD)/bulwark $(SOAK_BACKEND)

bench:
	@scripts/deps.sh bench
	@cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BENCH_BUILD) -j $(JOBS) --target bulwark bench_bare bench_limiter bench_scanner bench_feedload \
		test_agent_prompts test_governance_golden test_rt_labels bench_mcplabels
	@bench/posture.sh $(BENCH_BUILD)
	@bench/run.sh $(BENCH_BUILD)
	@bench/console_weight.sh $(BENCH_BUILD)
	@$(BENCH_BUILD)/bench_limiter 2
	@bench/scanner.sh $(BENCH_BUILD)
	@bench/scan_repo.sh $(BENCH_BUILD)
	@bench/store.sh $(BENCH_BUILD)
	@$(BENCH_BUILD)/bench_mcplabels tests/data/mcp

fuzz:
	@scripts/deps.sh test
	@CC=clang cmake -S . -B $(FUZZ_BUILD) -DBULWARK_FUZZ=ON -DBULWARK_SANITIZE=ON >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(TEST_BUILD) $(ASAN_BUILD) $(BENCH_BUILD) $(FUZZ_BUILD) build-grammars
