#!/usr/bin/env bash
# Usage: scripts/with-postgres.sh <command...>
# Runs the command against a throw-away PostgreSQL cluster: a temporary directory, a free port on
# 127.0.0.1, a database `portal_test` owned by a password user that may create databases. Exports
# DATABASE_URL and TEST_DATABASE_URL, and always stops the cluster and removes the directory.
# The exit code is the command's.
set -euo pipefail

if (($# == 0)); then
  echo 'usage: scripts/with-postgres.sh <command...>' >&2
  exit 2
fi

find_pg_bin() {
  local dir best=''
  # Highest installed major version (Debian layout), else whatever is on PATH.
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do
    [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]] && best="$dir"
  done
  if [[ -z "$best" ]] && command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    best="$(dirname "$(command -v initdb)")"
  fi
  echo "$best"
}

PG_BIN="$(find_pg_bin)"
if [[ -z "$PG_BIN" ]]; then
  echo 'with-postgres: PostgreSQL server binaries (initdb, pg_ctl) not found; run scripts/ensure-system-deps.sh' >&2
  exit 1
fi

free_port() {
  node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"
}

PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/portal-pg.XXXXXX")"
PG_DATA="$PG_DIR/data"
PG_LOG="$PG_DIR/postgres.log"
PG_STARTED=0

# PostgreSQL refuses to run as root: run the server tools as the postgres user, which owns the dir.
if [[ "$(id -u)" == 0 ]]; then
  if ! id postgres >/dev/null 2>&1; then
    echo 'with-postgres: running as root but there is no postgres user to run the cluster as' >&2
    rm -rf "$PG_DIR"
    exit 1
  fi
  chown postgres: "$PG_DIR"
  as_pg() { (cd / && runuser -u postgres -- "$@"); }
else
  as_pg() { (cd / && "$@"); }
fi

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if ((PG_STARTED)); then
    as_pg "$PG_BIN/pg_ctl" stop -D "$PG_DATA" -m fast -w -t 20 >/dev/null 2>&1 ||
      as_pg "$PG_BIN/pg_ctl" stop -D "$PG_DATA" -m immediate -w -t 10 >/dev/null 2>&1 ||
      echo "with-postgres: could not stop the cluster in $PG_DATA" >&2
  fi
  rm -rf "$PG_DIR"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

DB_NAME='portal_test'
DB_USER='portal'
DB_PASS="pw$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"

as_pg "$PG_BIN/initdb" -D "$PG_DATA" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
  --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$PG_DIR/initdb.log" 2>&1 || {
  echo 'with-postgres: initdb failed:' >&2
  cat "$PG_DIR/initdb.log" >&2
  exit 1
}

# A port picked as free can be taken before the server binds it: try a few.
started=0
for attempt in 1 2 3 4 5; do
  PG_PORT="$(free_port)"
  # fsync and friends off: the cluster is thrown away, speed matters more than durability. Autovacuum
  # off: its workers (a superuser's processes) block the tests' `drop database ... with (force)`, which
  # the non-superuser test role may not terminate; the benchmark vacuums and analyzes itself.
  if as_pg "$PG_BIN/pg_ctl" start -D "$PG_DATA" -l "$PG_LOG" -w -t 30 -o "-p $PG_PORT -c listen_addresses=127.0.0.1 \
-c unix_socket_directories=$PG_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
-c max_connections=300 -c autovacuum=off" >/dev/null; then
    started=1
    break
  fi
  echo "with-postgres: start on port $PG_PORT failed (attempt $attempt)" >&2
done
if ((!started)); then
  cat "$PG_LOG" >&2 || true
  exit 1
fi
PG_STARTED=1

as_pg "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$PG_PORT" -U postgres -d postgres >/dev/null <<SQL
CREATE ROLE $DB_USER LOGIN CREATEDB PASSWORD '$DB_PASS';
CREATE DATABASE $DB_NAME OWNER $DB_USER;
SQL

export DATABASE_URL="postgres://$DB_USER:$DB_PASS@127.0.0.1:$PG_PORT/$DB_NAME"
export TEST_DATABASE_URL="$DATABASE_URL"
echo "with-postgres: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT (database $DB_NAME)"

# Run the command as a child we can wait on, so a TERM or INT reaches it and the cleanup still runs
# (bash would otherwise defer the trap until a foreground command ends). stdin stays attached.
"$@" <&0 &
child=$!
trap 'kill -TERM "$child" 2>/dev/null || true' INT TERM
set +e
wait "$child"
rc=$?
# wait returns early (status > 128) when a trapped signal arrives: wait again for the real status.
while kill -0 "$child" 2>/dev/null; do
  wait "$child"
  rc=$?
done
set -e
exit "$rc"
