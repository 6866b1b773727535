#!/usr/bin/env bash
# Runs the benchmarks against the test stack started by deploy/stack.sh (its environment is set).
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./deploy/bench -duration "${BENCH_DURATION:-10s}" -concurrency "${BENCH_CONCURRENCY:-16}"
