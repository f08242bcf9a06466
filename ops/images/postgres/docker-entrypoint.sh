#!/bin/bash
# The official image's contract, in short: initialise PGDATA on first start (a superuser with POSTGRES_PASSWORD,
# the database POSTGRES_DB, scripts in /docker-entrypoint-initdb.d), then run the server listening everywhere.
# Each of POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB may come from a file named by the same name + _FILE.
# As there, the first start runs a temporary server for the set-up, so "ready to accept connections" is logged twice.
set -euo pipefail
if [ "${1:-postgres}" != postgres ] && [ "${1:0:1}" != - ]; then exec "$@"; fi
[ "${1:-}" = postgres ] && shift

for name in POSTGRES_USER POSTGRES_PASSWORD POSTGRES_DB; do
  file_name="${name}_FILE"
  if [ -n "${!file_name:-}" ]; then
    [ -z "${!name:-}" ] || { echo "both $name and $file_name are set; set only one" >&2; exit 1; }
    export "$name=$(cat "${!file_name}")"
  fi
done

user="${POSTGRES_USER:-postgres}"
database="${POSTGRES_DB:-$user}"
auth="${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "$auth" != trust ]; then
    echo "Database is uninitialized and superuser password is not specified: set POSTGRES_PASSWORD" >&2
    echo "(or POSTGRES_HOST_AUTH_METHOD=trust to allow connections without one)" >&2
    exit 1
  fi
  mkdir -p "$PGDATA" && chmod 700 "$PGDATA"
  initdb --username="$user" --pwfile=<(printf '%s\n' "${POSTGRES_PASSWORD:-}") --auth-local=trust \
    --auth-host="$auth" --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  printf 'host all all all %s\n' "$auth" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -k /var/run/postgresql" -w start
  if [ "$database" != postgres ]; then
    psql -v ON_ERROR_STOP=1 -h /var/run/postgresql -U "$user" -d postgres -c "CREATE DATABASE \"$database\""
  fi
  for script in /docker-entrypoint-initdb.d/*; do
    case "$script" in
      *.sql) psql -v ON_ERROR_STOP=1 -h /var/run/postgresql -U "$user" -d "$database" -f "$script" ;;
      *.sh) . "$script" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
  echo "PostgreSQL init process complete; ready for start up."
fi
exec postgres -c listen_addresses='*' -k /var/run/postgresql "$@"
