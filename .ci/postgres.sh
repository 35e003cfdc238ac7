#!/usr/bin/env bash
# Makes PostgreSQL available on a fresh Debian machine, run as root: installs
# the package if it is missing, starts a cluster, creates a role and a
# database for the tests, and prints the DSN on standard output (everything
# else goes to standard error), so that
#
#   export MORRIS_TEST_POSTGRES=$(bash .ci/postgres.sh)
#
# runs the store's test suite against PostgreSQL too. Running it again is
# harmless: what exists is kept, what is stopped is started.
set -euo pipefail

role=${MORRIS_PG_ROLE:-morris}
password=${MORRIS_PG_PASSWORD:-morris}
database=${MORRIS_PG_DATABASE:-morris_test}

log() { echo "postgres.sh: $*" >&2; }

if [ "$(id -u)" != 0 ]; then
  log "run me as root"; exit 1
fi

newest() { ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(newest)" ] || [ ! -x "/usr/lib/postgresql/$(newest)/bin/initdb" ]; then
  log "installing postgresql"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi
version=$(newest)
bin=/usr/lib/postgresql/$version/bin
log "PostgreSQL $version"

as_postgres() { runuser -u postgres -- "$@"; }

# A cluster managed by Debian's tools (pg_ctlcluster works without systemd);
# if that cannot be had (or MORRIS_PG_PRIVATE is set), a private cluster made
# with initdb in MORRIS_PG_DIR and started with pg_ctl on MORRIS_PG_PORT.
port=""
if [ -z "${MORRIS_PG_PRIVATE:-}" ] && command -v pg_ctlcluster >/dev/null; then
  if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -qx "$version main"; then
    log "creating cluster $version main"
    pg_createcluster "$version" main >&2 || true
  fi
  if pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $4}' | grep -qx online; then
    log "cluster $version main already running"
  else
    log "starting cluster $version main"
    pg_ctlcluster "$version" main start >&2 || true
  fi
  if pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $4}' | grep -qx online; then
    port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
  fi
fi
if [ -z "$port" ]; then
  dir=${MORRIS_PG_DIR:-/tmp/morris-postgres}
  port=${MORRIS_PG_PORT:-55432}
  if [ ! -f "$dir/PG_VERSION" ]; then
    log "initdb into $dir"
    mkdir -p "$dir"; chown postgres:postgres "$dir"; chmod 700 "$dir"
    # Local connections of the postgres user by peer, TCP by password.
    as_postgres "$bin/initdb" -D "$dir" -U postgres --auth-local=peer --auth-host=scram-sha-256 >&2
  fi
  if ! as_postgres "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
    log "starting the private cluster on port $port"
    as_postgres "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
      -o "-p $port -k /tmp -c listen_addresses=127.0.0.1" start >&2
  fi
  export PGHOST=/tmp
fi
export PGPORT=$port

for _ in $(seq 1 30); do
  as_postgres "$bin/pg_isready" -q -p "$port" ${PGHOST:+-h "$PGHOST"} && break
  sleep 1
done

psql_admin() { as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$port" ${PGHOST:+-h "$PGHOST"} "$@"; }

if [ "$(psql_admin -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$role'")" != 1 ]; then
  log "creating role $role"
  psql_admin -c "CREATE ROLE \"$role\" LOGIN PASSWORD '$password'"
fi
if [ "$(psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'")" != 1 ]; then
  log "creating database $database"
  psql_admin -c "CREATE DATABASE \"$database\" OWNER \"$role\""
fi

dsn="postgres://$role:$password@127.0.0.1:$port/$database?sslmode=disable"
PGPASSWORD=$password psql -X -q -tAc 'SELECT 1' "$dsn" >/dev/null
log "ready: $dsn"
echo "$dsn"
