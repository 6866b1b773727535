#!/usr/bin/env bash
# Runs every test suite against the test stack started by deploy/stack.sh (its environment is set).
set -euo pipefail
cd "$(dirname "$0")/.."
export APORTA_REQUIRE_STACK=1 # integration tests fail, instead of skipping, without the stack
export APORTA_URL=$APORTA_PUBLIC_URL

echo "== go tests"
go test -count=1 -p 2 ./...
echo "== web unit tests"
npm test
echo "== browser tests (Chromium)"
npm run e2e
