#!/usr/bin/env bash
# Runs every test suite against the test stack started by deploy/stack.sh (its environment is set).
# Each suite runs even when an earlier one failed, so one run shows every failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export APORTA_REQUIRE_STACK=1 # integration tests fail, instead of skipping, without the stack
export APORTA_URL=$APORTA_PUBLIC_URL

failed=()
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
suite() { # name command…
  local name=$1
  shift
  echo "== $name"
  "$@" 2>&1 | tee "$logs/$name.log" || failed+=("$name")
}
# brief name pattern: the lines of a failed suite's output that say what failed and where, printed again last,
# since CI reports only the end of a long output.
brief() {
  [[ -f "$logs/$1.log" ]] || return 0
  echo "-- $1"
  sed 's/\x1b\[[0-9;]*m//g' "$logs/$1.log" | grep -E "$2" | head -40
}
suite "go tests" go test -count=1 -p 2 -timeout 15m ./...
suite "web unit tests" npm test
suite "browser tests" npm run e2e

if ((${#failed[@]})); then
  echo "== what failed (the whole output is above)"
  for name in "${failed[@]}"; do
    case $name in
    "go tests") brief "$name" '^(--- FAIL|FAIL[[:space:]]|panic:)|^[[:space:]]+(Error Trace|Error|Messages|Test):' ;;
    "web unit tests") brief "$name" '(FAIL |AssertionError|Error: |❯ .*:[0-9]+:[0-9]+)' ;;
    "browser tests") brief "$name" '^[[:space:]]+[0-9]+\) |^[[:space:]]+(Error|TimeoutError): |^[[:space:]]+at .*\.spec\.ts:[0-9]+' ;;
    esac
  done
  echo "FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "all suites passed"
