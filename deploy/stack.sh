#!/usr/bin/env bash
# Runs Aporta's whole stack on this machine: PostgreSQL (directory + seven country shards + Kratos +
# Keto databases), the Temporal dev server, Ory Kratos, Ory Keto, the sandbox payment gateway,
# `aporta serve` and `aporta worker`.
#
#   deploy/stack.sh dev              start the dev stack, print the URL and logins, run until Ctrl-C
#   deploy/stack.sh test CMD [ARG…]  start a fresh test stack on other ports, run CMD with its
#                                    environment, stop everything, exit with CMD's status
#   deploy/stack.sh bench CMD [ARG…] the test stack plus Temporal server on PostgreSQL beside the dev server
#                                    (APORTA_TEMPORAL_PG_ADDR; deploy/install.sh temporal-server builds it)
#
# Every process it starts is stopped when it exits, however it exits. `make dev` and `make test` call
# it after deploy/install.sh and the build.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
profile=${1:?usage: stack.sh dev|test|bench [CMD…]}
# bench is the test stack with Temporal server on PostgreSQL too (issue 17): the collection bench measures both stores.
temporal_pg=0
[[ $profile == bench ]] && profile=test temporal_pg=1
log() { printf '\033[32m[%s]\033[0m %s\n' "$profile" "$*" >&2; }
die() { printf '\033[31m[%s] %s\033[0m\n' "$profile" "$*" >&2; exit 1; }
shift
bin=${APORTA_CACHE:-$HOME/.cache/aporta}/bin
pgbin=$(ls -d /usr/lib/postgresql/15/bin 2>/dev/null || dirname "$(command -v pg_ctl)")

case $profile in
  dev)
    data=$root/.data
    app_port=${APORTA_PORT:-8080} pg_port=15430 temporal_port=7233 temporal_ui_port=8233
    kratos_public_port=4433 kratos_admin_port=4434 keto_port=4466 gateway_port=8090
    crm_port=8091 worker_health_port=8092
    bcrypt_cost=10
    ;;
  test)
    # APORTA_TEST_SLOT=N (1–9) runs another test stack beside the default one, ports shifted by 100·N.
    # Every port stays below the kernel's ephemeral range (32768+), so no outgoing connection takes it.
    slot=${APORTA_TEST_SLOT:-0}
    [[ $slot =~ ^[0-9]$ ]] || die "APORTA_TEST_SLOT must be 0–9"
    o=$((slot * 100))
    data=$root/.data-test${slot#0}
    rm -rf "$data" # every test run starts from empty databases
    app_port=$((18080 + o)) pg_port=$((15440 + o)) temporal_port=$((17233 + o)) temporal_ui_port=$((18233 + o))
    kratos_public_port=$((14433 + o)) kratos_admin_port=$((14434 + o)) keto_port=$((14466 + o)) gateway_port=$((18090 + o))
    crm_port=$((18091 + o)) worker_health_port=$((18092 + o))
    bcrypt_cost=4 # the lowest Kratos allows: hashing speed is not what the tests check
    ;;
  *) echo "unknown profile $profile" >&2; exit 2 ;;
esac
logs=$data/logs
mkdir -p "$logs"

pids=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -TERM "${pids[i]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  stop_postgres
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# PostgreSQL refuses to run as root; as root we run it as the postgres user.
as_postgres() {
  if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() { # name command…: runs a process in the background with its output in logs/name.log
  local name=$1; shift
  "$@" >>"$logs/$name.log" 2>&1 &
  pids+=($!)
}

wait_for() { # name url-or-port [seconds]
  local name=$1 target=$2 limit=${3:-120} t=0
  until if [[ $target == http* ]]; then curl -fs -o /dev/null "$target"; else (exec 3<>"/dev/tcp/127.0.0.1/$target") 2>/dev/null; fi; do
    sleep 0.5; t=$((t + 1))
    if ((t > limit * 2)); then
      tail -n 30 "$logs/$name.log" >&2 || true
      die "$name did not come up (see $logs/$name.log)"
    fi
  done
}

secret() { # name: a random secret kept in the data dir, so restarts keep sessions and links valid
  local f=$data/secrets/$1
  if [[ ! -s $f ]]; then mkdir -p "$data/secrets"; head -c 48 /dev/urandom | base64 | tr -d '/+=\n' | head -c 48 >"$f"; fi
  cat "$f"
}

# --- PostgreSQL ---------------------------------------------------------------------------------
# Each country database runs on a Citus cluster (issue 17): a coordinator and two workers, three PostgreSQL
# instances on ports pg_port, +1 and +2 (the test profile adds a spare worker on +3 that the scale-out test joins
# to one country's cluster). The directory, Kratos and Keto databases are plain databases on the coordinator.
# APORTA_CITUS=0 runs one plain PostgreSQL instead, with its own data dir.
citus=${APORTA_CITUS:-1}
if [[ $citus == 1 ]]; then
  pgbin=$(readlink -f "$bin/postgresql-citus" 2>/dev/null) && [[ -x $pgbin/postgres ]] ||
    die "Citus is not built: run deploy/install.sh (or APORTA_CITUS=0 for plain PostgreSQL)"
  clusters=(coordinator worker1 worker2)
  [[ $profile == test ]] && clusters+=(spare)
else
  clusters=(plain)
fi
cluster_dir() { if [[ $1 == plain ]]; then echo "$data/pg"; else echo "$data/citus/$1"; fi; }
cluster_port() { case $1 in plain | coordinator) echo "$pg_port" ;; worker1) echo $((pg_port + 1)) ;; worker2) echo $((pg_port + 2)) ;; spare) echo $((pg_port + 3)) ;; esac; }

stop_postgres() {
  local c
  for c in "${clusters[@]}"; do as_postgres "$pgbin/pg_ctl" -D "$(cluster_dir "$c")" -m fast stop >/dev/null 2>&1 || true; done
}

[[ $(id -u) == 0 ]] && chown postgres:postgres "$logs"
fresh="" # a data dir initialised by this run and not started yet: the other clusters start as copies of it
for c in "${clusters[@]}"; do
  dir=$(cluster_dir "$c")
  [[ -s $dir/PG_VERSION ]] && continue
  mkdir -p "$dir"
  [[ $(id -u) == 0 ]] && chown postgres:postgres "$dir"
  if [[ -n $fresh ]]; then
    as_postgres cp -a "$fresh/." "$dir/"
    continue
  fi
  log "initialising PostgreSQL in $dir"
  as_postgres "$pgbin/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$logs/initdb.log"
  cat >>"$dir/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '/tmp'
max_connections = 400
shared_buffers = 256MB
EOF
  if [[ $c != plain ]]; then
    # Citus: two-phase commit for writes over several nodes, logical replication for shard moves, a background
    # worker per database (its maintenance daemon) plus the rebalancer's, and plain connections between the
    # nodes of this machine. Tests use fewer shards per table than the default 32.
    cat >>"$dir/postgresql.conf" <<EOF
shared_preload_libraries = 'citus'
max_prepared_transactions = 400
wal_level = logical
max_worker_processes = 64
citus.node_conninfo = 'sslmode=disable'
EOF
    [[ $profile == test ]] && echo "citus.shard_count = 8" >>"$dir/postgresql.conf"
  fi
  # A test stack lives for one run: durability buys it nothing. Commits stay synchronous (with fsync off, a
  # commit's flush is a write): Citus's shard moves lose what a node committed asynchronously just before their
  # switch, and migrate refuses such a cluster (tenants.CitusAsyncCommitNodes).
  [[ $profile == test ]] && printf 'fsync = off\nfull_page_writes = off\n' >>"$dir/postgresql.conf"
  fresh=$dir
done
for c in "${clusters[@]}"; do
  [[ $(id -u) == 0 ]] && touch "$logs/postgres-$c.log" && chown postgres "$logs/postgres-$c.log"
  # The port is given at start, not written in the data dir, so a data dir outlives a port change.
  as_postgres "$pgbin/pg_ctl" -D "$(cluster_dir "$c")" -l "$logs/postgres-$c.log" -o "-p $(cluster_port "$c")" -w -t 60 start >/dev/null
done

psql_admin() { # [@cluster] psql args…: as the superuser, on the coordinator unless a cluster is named
  local port=$pg_port
  if [[ $1 == @* ]]; then port=$(cluster_port "${1#@}"); shift; fi
  "$pgbin/psql" -h 127.0.0.1 -p "$port" -U postgres -v ON_ERROR_STOP=1 -qtA "$@"
}
countries=()
for c in ar br cl co mx pe uy; do countries+=("aporta_shard_$c"); done
for c in "${clusters[@]}"; do
  psql_admin "@$c" -c "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'aporta') THEN CREATE ROLE aporta LOGIN; END IF; END \$\$;"
  dbs=("${countries[@]}")
  [[ $c == plain || $c == coordinator ]] && dbs+=(aporta_directory kratos keto)
  for db in "${dbs[@]}"; do
    [[ -n $(psql_admin "@$c" -c "SELECT 1 FROM pg_database WHERE datname = '$db'") ]] || psql_admin "@$c" -c "CREATE DATABASE $db OWNER aporta"
    if [[ $c != plain && $db == aporta_shard_* ]]; then psql_admin "@$c" -d "$db" -c "CREATE EXTENSION IF NOT EXISTS citus"; fi
  done
done
if [[ $citus == 1 ]]; then
  # Each country database is a cluster of its own: its coordinator knows its workers (pg_dist_node).
  for db in "${countries[@]}"; do
    psql_admin -d "$db" -c "SELECT citus_set_coordinator_host('127.0.0.1', $pg_port)" >/dev/null
    for w in worker1 worker2; do
      psql_admin -d "$db" -c "SELECT citus_add_node('127.0.0.1', $(cluster_port $w))
        WHERE NOT EXISTS (SELECT 1 FROM pg_dist_node WHERE nodeport = $(cluster_port $w))" >/dev/null
    done
  done
  export APORTA_CITUS=1
  [[ $profile == test ]] && export APORTA_CITUS_SPARE_WORKER=127.0.0.1:$(cluster_port spare)
fi
dsn() { echo "postgres://aporta@127.0.0.1:$pg_port/$1?sslmode=disable"; }
# Kratos's and Keto's pools (Ory's DSN parameters): by default they keep only as many idle connections as the host
# has cores, so under concurrent checks they open and close a PostgreSQL session for nearly every query, and each
# new session's start-up is a Keto check's tail latency (issue 19). The app's pools hold 16 (config.DBConfig).
orydsn() { echo "$(dsn "$1")&max_conns=16&max_idle_conns=16"; }

# --- environment shared by every process and by the tests ---------------------------------------
shards=""
for c in AR BR CL CO MX PE UY; do shards+="${shards:+,}$c=$(dsn "aporta_shard_${c,,}")"; done
export APORTA_ROOT=$root
export APORTA_STACK_DATA=$data # the stack's processes name it: benchcollect reads their CPU by it
export APORTA_ENV=$profile
export APORTA_HTTP_ADDR=127.0.0.1:$app_port
export APORTA_WORKER_HEALTH_ADDR=127.0.0.1:$worker_health_port # the worker's /healthz and /readyz
export APORTA_PUBLIC_URL=http://localhost:$app_port
export APORTA_INTERNAL_URL=http://127.0.0.1:$app_port
export APORTA_DIRECTORY_DSN=$(dsn aporta_directory)
export APORTA_SHARD_DSNS=$shards
export APORTA_TEMPORAL_ADDR=127.0.0.1:$temporal_port
export APORTA_KRATOS_PUBLIC_URL=http://127.0.0.1:$kratos_public_port
export APORTA_KRATOS_ADMIN_URL=http://127.0.0.1:$kratos_admin_port
export APORTA_KETO_READ_URL=http://127.0.0.1:$keto_port
export APORTA_KETO_WRITE_URL=http://127.0.0.1:$((keto_port + 1))
export APORTA_GATEWAY_URL=http://127.0.0.1:$gateway_port
export APORTA_GATEWAY_PUBLIC_URL=http://localhost:$gateway_port # where browsers tokenise cards
# The sandbox's platform account, OAuth application and CentralPos partner key: the app and bin/sandboxgw share them.
export APORTA_GATEWAY_TOKEN=TEST-aporta-sandbox APORTA_GATEWAY_PUBLIC_KEY=TEST-aporta-sandbox-public-key
export APORTA_MP_CLIENT_ID=8808000000000001 APORTA_MP_CLIENT_SECRET=TEST-aporta-client-secret
export APORTA_CENTRALPOS_PARTNER_KEY=TEST-aporta-centralpos-partner
export APORTA_BLOB_URL=file://$data/blobs
export APORTA_SANDBOX_CRM_URL=http://127.0.0.1:$crm_port # the sandbox CRM (deploy/sandboxcrm): an integration's login URL in dev and test
export APORTA_WEBHOOK_ALLOWED_NETS=127.0.0.1/32,::1/128 # webhooks may reach the sandbox receiver ($APORTA_SANDBOX_CRM_URL/__webhooks/…) on loopback
export APORTA_SECRET=$(secret app)
export APORTA_COURIER_SECRET=$(secret courier)
export APORTA_TEMPORAL_BIN=$bin/temporal
((temporal_pg)) && export APORTA_TEMPORAL_PG_ADDR=127.0.0.1:$((temporal_port + 17))
mkdir -p "$data/blobs"
export | grep -E ' (APORTA_[A-Z_]+)=' | sed 's/^declare -x /export /' >"$data/env"

# --- Temporal, Kratos, Keto, sandbox gateway ------------------------------------------------------
# SQLite in WAL mode with synchronous=normal: a killed process loses nothing (only a machine crash can lose the
# last commits), and a workflow step no longer waits for an fsync of the whole journal.
temporal_args=(server start-dev --db-filename "$data/temporal.db" --ip 127.0.0.1 --port "$temporal_port" --log-level warn
  --sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal)
if [[ $profile == dev ]]; then temporal_args+=(--ui-port "$temporal_ui_port"); else temporal_args+=(--headless); fi
start temporal "$bin/temporal" "${temporal_args[@]}"

# Temporal server on PostgreSQL (bench profile): its own two databases on the coordinator, its schema set up by
# its SQL tool, 16 history shards, ports temporal_port+17…+26.
start_temporal_pg() {
  local ts=$bin/temporal-server tdir=$data/temporal-pg p=$((temporal_port + 17)) db
  [[ -x $ts/server ]] || die "Temporal server is not built: run deploy/install.sh temporal-server"
  for db in temporal temporal_visibility; do
    [[ -n $(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$db'") ]] || psql_admin -c "CREATE DATABASE $db OWNER aporta"
  done
  {
    "$ts/sql" --plugin postgres12 --ep 127.0.0.1 -p "$pg_port" -u aporta --db temporal setup-schema -v 0.0 &&
      "$ts/sql" --plugin postgres12 --ep 127.0.0.1 -p "$pg_port" -u aporta --db temporal update-schema -d "$ts/schema/postgresql/v12/temporal/versioned" &&
      "$ts/sql" --plugin postgres12 --ep 127.0.0.1 -p "$pg_port" -u aporta --db temporal_visibility setup-schema -v 0.0 &&
      "$ts/sql" --plugin postgres12 --ep 127.0.0.1 -p "$pg_port" -u aporta --db temporal_visibility update-schema -d "$ts/schema/postgresql/v12/visibility/versioned"
  } >>"$logs/temporal-pg.log" 2>&1 || { tail -n 20 "$logs/temporal-pg.log" >&2; die "Temporal schema setup failed"; }
  mkdir -p "$tdir/config/dynamicconfig"
  cp "$ts/dynamicconfig/development-sql.yaml" "$tdir/config/dynamicconfig/"
  TEMPORAL_HISTORY_SHARDS=16 TEMPORAL_DB_PORT=$pg_port TEMPORAL_FRONTEND_PORT=$p TEMPORAL_FRONTEND_MEMBERSHIP_PORT=$((p + 1)) \
  TEMPORAL_HTTP_PORT=$((p + 2)) TEMPORAL_HISTORY_PORT=$((p + 3)) TEMPORAL_HISTORY_MEMBERSHIP_PORT=$((p + 4)) \
  TEMPORAL_MATCHING_PORT=$((p + 5)) TEMPORAL_MATCHING_MEMBERSHIP_PORT=$((p + 6)) TEMPORAL_WORKER_PORT=$((p + 7)) \
  TEMPORAL_WORKER_MEMBERSHIP_PORT=$((p + 8)) TEMPORAL_METRICS_PORT=$((p + 9)) \
  TEMPORAL_DYNAMIC_CONFIG=$tdir/config/dynamicconfig/development-sql.yaml \
    envsubst <"$root/deploy/temporal/server.yml" >"$tdir/config/development.yaml"
  start temporal-pg "$ts/server" --root "$tdir" --env development --allow-no-auth start
  wait_for temporal-pg "$p"
  local t=0
  until "$bin/temporal" operator namespace describe --address "127.0.0.1:$p" -n default >/dev/null 2>&1 ||
    "$bin/temporal" operator namespace create --address "127.0.0.1:$p" -n default >>"$logs/temporal-pg.log" 2>&1; do
    sleep 1; t=$((t + 1))
    ((t < 120)) || die "Temporal server on PostgreSQL did not take the default namespace (see $logs/temporal-pg.log)"
  done
}

render() { # template → rendered config in the data dir
  KRATOS_PUBLIC_PORT=$kratos_public_port KRATOS_ADMIN_PORT=$kratos_admin_port \
  KRATOS_COOKIE_SECRET=$(secret kratos-cookie) KRATOS_CIPHER_SECRET=$(secret kratos-cipher | head -c 32) \
  KRATOS_COURIER_SECRET=$APORTA_COURIER_SECRET KRATOS_BCRYPT_COST=$bcrypt_cost \
  KETO_READ_PORT=$keto_port KETO_WRITE_PORT=$((keto_port + 1)) KETO_METRICS_PORT=$((keto_port + 2)) \
  KETO_OPL_PORT=$((keto_port + 3)) envsubst <"$1" >"$2"
}
render "$root/deploy/kratos/kratos.yml" "$data/kratos.yml"
render "$root/deploy/keto/keto.yml" "$data/keto.yml"
DSN=$(orydsn kratos) "$bin/kratos" migrate sql -e --yes -c "$data/kratos.yml" >>"$logs/kratos.log" 2>&1 ||
  { tail -n 20 "$logs/kratos.log" >&2; die "kratos migrations failed"; }
DSN=$(orydsn keto) "$bin/keto" migrate up --yes -c "$data/keto.yml" >>"$logs/keto.log" 2>&1 ||
  { tail -n 20 "$logs/keto.log" >&2; die "keto migrations failed"; }
start kratos env DSN="$(orydsn kratos)" "$bin/kratos" serve -c "$data/kratos.yml" --dev --watch-courier --sqa-opt-out
start keto env DSN="$(orydsn keto)" "$bin/keto" serve -c "$data/keto.yml" --sqa-opt-out
start gateway "$root/bin/sandboxgw" -addr "127.0.0.1:$gateway_port" -state "$data/gateway.json" \
  -platform-token "$APORTA_GATEWAY_TOKEN" -platform-public-key "$APORTA_GATEWAY_PUBLIC_KEY" \
  -client-id "$APORTA_MP_CLIENT_ID" -client-secret "$APORTA_MP_CLIENT_SECRET" -centralpos-partner-key "$APORTA_CENTRALPOS_PARTNER_KEY"
start crm "$root/bin/sandboxcrm" -addr "127.0.0.1:$crm_port" -state "$data/sandboxcrm.json"

wait_for temporal "$temporal_port"
((temporal_pg)) && start_temporal_pg
wait_for kratos "http://127.0.0.1:$kratos_admin_port/health/ready"
wait_for keto "http://127.0.0.1:$keto_port/health/ready"
wait_for gateway "$gateway_port"
wait_for crm "$crm_port"

# --- Aporta -------------------------------------------------------------------------------------
"$root/bin/aporta" migrate >>"$logs/aporta-migrate.log" 2>&1 || { tail -n 20 "$logs/aporta-migrate.log" >&2; die "migrations failed"; }
start serve "$root/bin/aporta" serve
start worker "$root/bin/aporta" worker
wait_for serve "http://127.0.0.1:$app_port/readyz"
wait_for worker "http://127.0.0.1:$worker_health_port/readyz" # every task queue polled

if [[ $profile == dev ]]; then
  "$root/bin/aporta" seed >"$data/seed.txt" 2>>"$logs/aporta-seed.log" || { tail -n 20 "$logs/aporta-seed.log" >&2; die "seeding failed"; }
  cat <<EOF

  Aporta is running at   $APORTA_PUBLIC_URL
  Temporal Web UI        http://localhost:$temporal_ui_port
  Dev mailbox            $APORTA_PUBLIC_URL/dev/mailbox
  Sandbox CRM            $APORTA_SANDBOX_CRM_URL (client id aporta-sandbox-crm, secret sandbox-crm-secret)
  Logs                   $logs/

$(cat "$data/seed.txt")

  Ctrl-C stops everything. Data stays in .data/ for the next run.
EOF
  wait -n "${pids[@]}" || true
  die "a process exited; see $logs/"
fi

log "stack up; running: $*"
set +e
"$@"
status=$?
set -e
exit $status
