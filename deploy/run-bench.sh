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
# on PostgreSQL when the stack runs it (deploy/stack.sh bench, as make bench does), then the dev server (SQLite: on
# this shared 2-core machine 12.8/s against 12.7/s for the reference, 13 minutes each, ~600 MiB for worker, starter
# and in-memory sandbox together). BENCH_COLLECT_DONATIONS=1000 gives the ratios in a few minutes.
# Seen 2026-11-24 (load average 27–41 on the shared 2 cores; ratios only): on Citus collection ran at ~1 charge/s on
# Temporal-on-PostgreSQL, before and after SyncDonation left the rollup, queued on charge.Record's organisation-wide
# rollup lock (dashboard_rollup_apply took 70–470 ms a call); with APORTA_CITUS=0, 500 donations in one run: on
# PostgreSQL 6.0/s against 4.1/s for the no-op (1.44×, the no-op held back by a task retried after its timeout), on
# the dev server 11.2/s against 16.2/s (0.69×). After collection's version 3 (one local activity opens a donation, the
# charge writes the approved period's row: 16 history events instead of 29–32), 500 donations, APORTA_CITUS=0, load
# average 28–37: on PostgreSQL 4.9/s against 4.6/s (1.05×), on the dev server 10.8/s against 13.9/s (0.78×); on Citus,
# load average 30–38: 2.5/s against 3.2/s (0.80×) and 7.0/s against 13.4/s (0.52×). The 10,000 run did not fit the
# shared machine's afternoon (1.7 charges/s at load average 40).
# Evening, on Citus, load average 28–40: 10,000 did not fit (the code before ran at 1 charge/s: three hours). 1,000
# due, after version 4 (one marker less) and the collection worker's in-flight cap (collection.WorkerOptions): on
# PostgreSQL 6.6/s against 6.9/s (0.95×; 0.85× in the run before, with 64 in flight on 16 connections), on the dev
# server 8.0/s against 10.3/s (0.78×; 0.95× before); 12.6 ms of process CPU per charge against 7.1 ms per no-op.
# 2,000 due at load average 32–42: 3.2/s against 6.9/s on PostgreSQL (0.46×; the starts alone took 3m50s against 1m04s).
go run ./deploy/benchcollect -donations "${BENCH_COLLECT_DONATIONS:-10000}" -store "${BENCH_COLLECT_STORE:-both}"
# CRM sync (issue 16): BENCH_CRM_CHANGES donation changes drained in composite batches into the sandbox CRM,
# beside the same records written one call each.
go run ./deploy/benchcrm -changes "${BENCH_CRM_CHANGES:-10000}"
# The public donation form (issue 4): gzipped JS of donate.html beside the manage app's, and
# Lighthouse mobile performance and accessibility with Debian Chromium (offline).
go run ./deploy/benchweb
# Fuzzing (issue 11): every fuzz target for BENCH_FUZZTIME, total executions and crashes.
FUZZTIME="${BENCH_FUZZTIME:-60s}" deploy/run-fuzz.sh
