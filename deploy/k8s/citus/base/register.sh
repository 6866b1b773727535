#!/bin/sh
# Joins this namespace's Citus cluster: the coordinator learns its own address and every worker that exists
# (worker-0 … worker-N-1, N the StatefulSet's replicas); Citus connects between nodes with the postgres password
# (pg_dist_authinfo). Creates the application role aporta, which `aporta migrate` uses to create and distribute the
# tables. Idempotent: run it again after scaling the workers, then SELECT citus_rebalance_start() on the coordinator.
set -eu
ns=$POD_NAMESPACE
coordinator=citus-coordinator.$ns.svc
export PGUSER=postgres PGDATABASE=aporta PGPASSWORD=$POSTGRES_PASSWORD PGCONNECT_TIMEOUT=5
until pg_isready -h "$coordinator" -q; do sleep 2; done
q() { psql -h "$coordinator" -v ON_ERROR_STOP=1 -qtA "$@"; }
q -c "CREATE EXTENSION IF NOT EXISTS citus"
q -v pw="password=$POSTGRES_PASSWORD" -c "INSERT INTO pg_dist_authinfo (nodeid, rolename, authinfo)
  VALUES (0, 'postgres', :'pw') ON CONFLICT (nodeid, rolename) DO UPDATE SET authinfo = EXCLUDED.authinfo"
q -c "SELECT citus_set_coordinator_host('$coordinator', 5432)"
i=0
while [ "$i" -lt "$CITUS_WORKERS" ]; do
  host=citus-worker-$i.citus-workers.$ns.svc
  until pg_isready -h "$host" -q; do sleep 2; done
  psql -h "$host" -v ON_ERROR_STOP=1 -qtA -c "CREATE EXTENSION IF NOT EXISTS citus"
  q -c "SELECT citus_add_node('$host', 5432) WHERE NOT EXISTS (SELECT 1 FROM pg_dist_node WHERE nodename = '$host')"
  i=$((i + 1))
done
# Citus propagates the role to every worker.
q -v pw="$APORTA_PASSWORD" <<'SQL'
SELECT format('CREATE ROLE aporta LOGIN PASSWORD %L', :'pw') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'aporta') \gexec
SELECT format('ALTER ROLE aporta PASSWORD %L', :'pw') \gexec
-- PostgreSQL 15+: the database owner owns the schema public (pg_database_owner), where migrate creates the tables.
ALTER DATABASE aporta OWNER TO aporta;
SQL
q -c "SELECT nodename, noderole FROM pg_dist_node ORDER BY nodeid"
