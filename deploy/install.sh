#!/usr/bin/env bash
# Installs what Aporta's dev and test stacks need on a fresh Debian 12 machine (root, no Docker):
# Debian packages, then the Temporal CLI dev server, sqlc, Ory Kratos and Ory Keto built from pinned Go
# modules into a cache outside the checkout, so every clone on this machine reuses them, and Citus built from
# the source kept in deploy/third_party/citus.
# Idempotent and quiet when everything is already there.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${APORTA_CACHE:-$HOME/.cache/aporta}
bin=$cache/bin
mkdir -p "$bin"

TEMPORAL_CLI_VERSION=v1.5.1
TEMPORAL_SQLITE_VERSION=v1.44.3 # deploy/tools/temporal says why the CLI's SQLite driver is newer than its own
KRATOS_VERSION=v1.3.1
KETO_VERSION=v0.13.0-alpha.0
SQLC_VERSION=v1.31.1
CITUS_VERSION=13.2.2

log() { printf '\033[36m[install]\033[0m %s\n' "$*" >&2; }

# `deploy/install.sh temporal-server`: only Temporal server 1.29.1 with its SQL schema tool, built from
# go.temporal.io/server, for the bench's Temporal-on-PostgreSQL (issue 17; `make bench` asks for it, `make dev` and
# `make test` run the CLI's dev server). The binaries, the PostgreSQL schema and the dynamic config go to
# $cache/temporal-server-$TEMPORAL_SERVER_VERSION, linked from $bin/temporal-server.
TEMPORAL_SERVER_VERSION=v1.29.1
if [[ ${1:-} == temporal-server ]]; then
  out=$cache/temporal-server-$TEMPORAL_SERVER_VERSION
  if [[ ! -x $out/server ]]; then
    log "building Temporal server $TEMPORAL_SERVER_VERSION and its SQL tool (first time only, several minutes)"
    rm -rf "$out.tmp" && mkdir -p "$out.tmp"
    GOBIN=$out.tmp GOFLAGS=-trimpath go install "go.temporal.io/server/cmd/server@$TEMPORAL_SERVER_VERSION" \
      "go.temporal.io/server/cmd/tools/sql@$TEMPORAL_SERVER_VERSION"
    mod=$(go env GOMODCACHE)/go.temporal.io/server@$TEMPORAL_SERVER_VERSION
    mkdir -p "$out.tmp/schema" "$out.tmp/dynamicconfig"
    cp -r "$mod/schema/postgresql" "$out.tmp/schema/" && cp "$mod/config/dynamicconfig/development-sql.yaml" "$out.tmp/dynamicconfig/"
    chmod -R u+w "$out.tmp" && rm -rf "$out" && mv "$out.tmp" "$out"
  fi
  ln -sfn "$out" "$bin/temporal-server"
  exit 0
fi

apt_packages=(postgresql-15 chromium chromium-driver gettext-base fonts-dejavu-core
  # pdftotext: tests read the invoice PDFs' text (internal/pdfdoc/pdftest)
  poppler-utils
  # to build Citus (deploy/third_party/citus/README.md)
  postgresql-server-dev-15 libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev libssl-dev libselinux1-dev
  libxslt1-dev libpam0g-dev libreadline-dev flex)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  log "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
  # The Debian package starts its own cluster on 5432; the stacks run clusters of their own.
  pg_ctlcluster 15 main stop 2>/dev/null || true
fi

build_wrapper() { # name version: builds deploy/tools/<name> (a wrapper module) into the cache
  local name=$1 version=$2 out=$bin/$1-$2
  [[ -x $out ]] && return 0
  log "building $name $version (first time only, several minutes)"
  (cd "$here/tools/$name" && go mod download && go build -trimpath -o "$out.tmp" . && mv "$out.tmp" "$out")
}

if [[ ! -x $bin/sqlc-$SQLC_VERSION ]]; then
  log "building sqlc $SQLC_VERSION (first time only, about 3 minutes)"
  GOBIN=$bin/sqlc-build go install "github.com/sqlc-dev/sqlc/cmd/sqlc@$SQLC_VERSION"
  mv "$bin/sqlc-build/sqlc" "$bin/sqlc-$SQLC_VERSION"
  rmdir "$bin/sqlc-build"
fi
build_wrapper temporal "$TEMPORAL_CLI_VERSION-sqlite-$TEMPORAL_SQLITE_VERSION"
# Kratos and Keto build in parallel: each takes minutes on two cores.
build_wrapper kratos "$KRATOS_VERSION" & k1=$!
build_wrapper keto "$KETO_VERSION" & k2=$!
wait $k1 && wait $k2

# Citus goes into a private copy of Debian's PostgreSQL 15 (PostgreSQL finds its share and lib directories
# relative to its binaries), not into /usr: installed there, `citus` would be an available extension in every
# cluster of this machine, including plain ones where CREATE EXTENSION citus fails. deploy/stack.sh runs its
# clusters from this copy's bin/ (APORTA_CITUS=0: from Debian's).
pg_version=$(/usr/lib/postgresql/15/bin/postgres -V | awk '{print $3}')
citus_root=${APORTA_CITUS_ROOT:-/opt/aporta/postgresql-$pg_version-citus-$CITUS_VERSION}
if [[ ! -f $citus_root/usr/lib/postgresql/15/lib/citus.so ]]; then
  log "building Citus $CITUS_VERSION for PostgreSQL $pg_version into $citus_root (first time only, about 3 minutes)"
  work=$(mktemp -d) && rm -rf "$citus_root.tmp"
  tar xzf "$here/third_party/citus/citus-$CITUS_VERSION.tar.gz" -C "$work"
  # Debian's PostgreSQL 15 exports have_createdb_privilege since 15.14; Citus defines its own copy for 15.
  if grep -q have_createdb_privilege /usr/include/postgresql/15/server/commands/dbcommands.h; then
    patch -s -d "$work/citus-$CITUS_VERSION" -p1 <"$here/third_party/citus/pg15-have_createdb_privilege.patch"
  fi
  (cd "$work/citus-$CITUS_VERSION" && ./configure -q PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config >/dev/null &&
    make -s -j"$(nproc)" >/dev/null && mkdir -p "$citus_root.tmp/usr/lib/postgresql" "$citus_root.tmp/usr/share/postgresql" &&
    cp -a /usr/lib/postgresql/15 "$citus_root.tmp/usr/lib/postgresql/" && cp -a /usr/share/postgresql/15 "$citus_root.tmp/usr/share/postgresql/" &&
    make -s install DESTDIR="$citus_root.tmp" >/dev/null)
  rm -rf "$work" "$citus_root" && mv "$citus_root.tmp" "$citus_root"
fi
ln -sfn "$citus_root/usr/lib/postgresql/15/bin" "$bin/postgresql-citus"

ln -sf "temporal-$TEMPORAL_CLI_VERSION-sqlite-$TEMPORAL_SQLITE_VERSION" "$bin/temporal"
ln -sf "kratos-$KRATOS_VERSION" "$bin/kratos"
ln -sf "keto-$KETO_VERSION" "$bin/keto"
ln -sf "sqlc-$SQLC_VERSION" "$bin/sqlc"

if [[ ! -d $here/../node_modules || $here/../package-lock.json -nt $here/../node_modules/.package-lock.json ]]; then
  log "npm ci"
  (cd "$here/.." && npm ci --no-audit --no-fund --loglevel=error)
fi
