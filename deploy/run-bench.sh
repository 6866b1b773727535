#!/usr/bin/env bash
# Runs the benchmarks against the test stack started by deploy/stack.sh (its environment is set).
set -euo pipefail
cd "$(dirname "$0")/.."
# The machine, so figures of different runs can be compared (issue 19).
echo "== machine: $(nproc) cores, $(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | xargs), load average $(cut -d" " -f1-3 /proc/loadavg), $(free -g | awk '/^Mem:/ {print $2}') GiB memory"
# The public form's load case (issue 11): BENCH_DONORS concurrent donors for BENCH_DONORS_DURATION.
public=(-duration "${BENCH_DURATION:-10s}" -concurrency "${BENCH_CONCURRENCY:-16}"
  -donors "${BENCH_DONORS:-200}" -donors-duration "${BENCH_DONORS_DURATION:-60s}")
[[ ${APORTA_CITUS:-} == 1 ]] && echo "== on Citus: each country a coordinator and two workers"
go run ./deploy/bench "${public[@]}" \
  -dashboard-donations "${BENCH_DONATIONS:-100000}" -dashboard-transactions "${BENCH_TRANSACTIONS:-1200000}"
# The public read and donation creation again on plain PostgreSQL (issue 17), in a stack of its own on test slot
# BENCH_PLAIN_SLOT, beside the Citus figures above.
if [[ ${APORTA_CITUS:-} == 1 ]]; then
  echo "== on plain PostgreSQL (APORTA_CITUS=0)"
  APORTA_CITUS=0 APORTA_TEST_SLOT=${BENCH_PLAIN_SLOT:-9} deploy/stack.sh test go run ./deploy/bench "${public[@]}" -skip-dashboard
fi
# Collection (issue 5): 10,000 monthly donations due the same day charged through Temporal and the sandbox, beside
# the same count of no-op activity workflows, plus worker memory, on each Temporal store (issue 17): Temporal server
# on PostgreSQL when the stack runs it (deploy/stack.sh bench, as make bench does), then the dev server (SQLite).
# BENCH_COLLECT_DONATIONS=1000 gives the ratios in a few minutes; BENCH_COLLECT_STORE=postgresql|dev runs one store.
# Seen 2026-11-25 on an otherwise idle 2-core machine, on Citus (load average 10–22 from the bench itself and niced
# builds): on PostgreSQL 13.1 charges/s against 19.6/s for the no-op (0.67×, 12m42s), on the dev server 16.9/s
# against 17.5/s (0.97×, 9m50s); about 650 MiB for worker, starter and in-memory sandbox together, 9.9–11.3 ms of
# this process's CPU per charge against 4.0–4.4 ms per no-op. The whole make bench took about 65 minutes.
# Seen 2026-12-07 at 2,000 due on Temporal on PostgreSQL alone, on a machine shared with other work (load 6–22), with
# collection's charge a local activity (version 5), alternating with main: the no-op's own rate swung from 9.3/s to
# 30.6/s between runs, and the ratio with it (0.62×–3.65×, median 0.99× in 7 runs; main's 0.46×–1.19×, median 0.91× in
# 6). The CPU by process is the steadier figure: 47–63 ms per charge in all against 44–61 ms per no-op in the same runs,
# Temporal server and its databases 22–32 ms of it against 39–52 ms (main: 71–86 ms in all, 43–54 ms of it Temporal's).
# Left: the AR shard's 19–22 ms, and the organisation's rollup row, which most charges in flight wait for.
# Seen 2026-12-07 at 10,000 due on Temporal on PostgreSQL on a quiet machine (load 1.8 at the start, nothing else
# running): 52.5 charges/s against 56.5/s for the no-op (0.93×), 6m13s; 36.5 ms of CPU per charge in all against 34.0
# ms per no-op. A run beside a (niced) Go build: 0.80×, and the dev server in it 46.2/s against 42.3/s (1.09×).
go run ./deploy/benchcollect -donations "${BENCH_COLLECT_DONATIONS:-10000}" -store "${BENCH_COLLECT_STORE:-both}"
# CRM sync (issue 16): BENCH_CRM_CHANGES donation changes drained in composite batches into the sandbox CRM,
# beside the same records written one call each.
go run ./deploy/benchcrm -changes "${BENCH_CRM_CHANGES:-10000}"
# The public donation form (issue 4): gzipped JS of donate.html beside the manage app's, and
# Lighthouse mobile performance and accessibility with Debian Chromium (offline).
go run ./deploy/benchweb
# Fuzzing (issue 11): every fuzz target for BENCH_FUZZTIME, total executions and crashes.
FUZZTIME="${BENCH_FUZZTIME:-60s}" deploy/run-fuzz.sh
