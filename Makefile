# Aporta. The README's two commands: `make dev` and `make test`.
SHELL := /bin/bash
GO    ?= go
export PATH := $(HOME)/.cache/aporta/bin:$(PATH)

.PHONY: dev test install build build-web build-go test-go test-web test-e2e workflowcheck bench fuzz seed-large vet generate generated

## dev: install what is missing, build, and run the whole stack on this machine (Ctrl-C stops it)
dev: install build
	deploy/stack.sh dev

## test: the same bootstrap on test ports, then Go, web unit and browser tests
test: install generated build workflowcheck vet
	deploy/stack.sh test deploy/run-tests.sh

install:
	deploy/install.sh

build: build-web build-go

build-web:
	npm run build

# The Go build embeds web/dist, so it runs after the web build.
build-go:
	$(GO) build -o bin/aporta .
	$(GO) build -o bin/sandboxgw ./deploy/sandboxgw
	$(GO) build -o bin/sandboxcrm ./deploy/sandboxcrm

vet:
	$(GO) vet ./...

## generate: the typed stores from the queries in internal/dirdb/queries and internal/sharddb/queries (sqlc.yaml)
generate:
	sqlc generate

# generated: fails when the committed stores differ from what the queries and migrations say.
generated:
	sqlc diff

workflowcheck:
	$(GO) run go.temporal.io/sdk/contrib/tools/workflowcheck@v0.6.0 ./workflows/...

## bench: benchmarks against a fresh test stack (with Temporal server on PostgreSQL beside the dev server); each figure
## is printed beside a reference measured in the same run;
## then the fuzz targets for BENCH_FUZZTIME each (executions and crashes)
bench: install build
	deploy/install.sh temporal-server
	deploy/stack.sh bench deploy/run-bench.sh

## fuzz: Go native fuzzing of the public form, JSON bodies, card, tax-id and money parsing and CSV cells, FUZZTIME
## per target (default 30s); a crasher lands in the package's testdata/fuzz and make test replays it
fuzz:
	FUZZTIME=$(or $(FUZZTIME),30s) deploy/run-fuzz.sh

## seed-large: one organisation with 1,000,000 donations and ~12,000,000 transactions over 5 years in the AR shard
## (issue 6 "Scale"); prints how long it took. It writes into the stack whose environment it is given: with no
## APORTA_SHARD_DSNS set it sources .data/env, so `make dev` must be running in another terminal. Sizes:
## SEED_LARGE_ARGS="-donations 100000 -transactions 1200000".
seed-large:
	@if [[ -z "$${APORTA_SHARD_DSNS:-}" ]]; then [[ -f .data/env ]] || { echo "no .data/env: start the dev stack with make dev first" >&2; exit 1; }; source .data/env; fi; \
	$(GO) run ./deploy/seedlarge $(SEED_LARGE_ARGS)
