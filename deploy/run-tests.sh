#!/usr/bin/env bash
# Runs every test suite against the test stack started by deploy/stack.sh (its environment is set).
# Each suite runs even when an earlier one failed, so one run shows every failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export APORTA_REQUIRE_STACK=1 # integration tests fail, instead of skipping, without the stack
export APORTA_URL=$APORTA_PUBLIC_URL

failed=()
suite() { # name command…
  local name=$1
  shift
  echo "== $name"
  "$@" || failed+=("$name")
}
suite "go tests" go test -count=1 -p 2 -timeout 15m ./...
suite "web unit tests" npm test
suite "browser tests" npm run e2e

if ((${#failed[@]})); then
  echo "FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "all suites passed"
