#!/usr/bin/env bash
# PgBouncer in transaction pooling mode in front of Postgres, configured from the environment at start. Its users are
# the services' roles, read from their database URLs (one file per service named *_database_url, as compose and
# Kubernetes mount the services' secrets): the same login and password reach PgBouncer, which logs in to Postgres
# with them. Transaction pooling suits the services: they use no session state (no session advisory locks, no
# LISTEN, no named prepared statements); the search path and timeouts are role settings, applied at server login.
#   PGBOUNCER_USERS_DIR (/run/secrets)   the *_database_url files
#   PGBOUNCER_UPSTREAM_HOST (postgres), PGBOUNCER_UPSTREAM_PORT (5432)
#   PGBOUNCER_PORT (6432), PGBOUNCER_LISTEN_ADDR (0.0.0.0)
#   PGBOUNCER_DEFAULT_POOL_SIZE (10)     server connections per role and database
#   PGBOUNCER_MAX_DB_CONNECTIONS (60)    server connections per database, all roles together: the budget of docs/security.md
#   PGBOUNCER_MAX_CLIENT_CONN (2000)     client connections (the services' pools, every replica)
#   PGBOUNCER_CONFIG_DIR (/tmp/pgbouncer) where the generated files go (the image's root file system is read-only)
set -euo pipefail
percent_decoded() { printf '%b' "${1//%/\\x}"; }
dir="${PGBOUNCER_CONFIG_DIR:-/tmp/pgbouncer}"
mkdir -p "$dir"
umask 077
: >"$dir/userlist.txt"
for file in "${PGBOUNCER_USERS_DIR:-/run/secrets}"/*_database_url; do
  [ -e "$file" ] || { echo "pgbouncer: no *_database_url file in ${PGBOUNCER_USERS_DIR:-/run/secrets}" >&2; exit 1; }
  url="$(tr -d '\r\n' <"$file")"
  credentials="${url#*://}"
  credentials="${credentials%%@*}"
  user="${credentials%%:*}"
  password="${credentials#*:}"
  [ "$user" != "$credentials" ] || { echo "pgbouncer: $file has no password" >&2; exit 1; }
  # URL userinfo is percent-encoded; the userlist quotes each field and doubles a quote inside it.
  user="$(percent_decoded "$user")"
  password="$(percent_decoded "$password")"
  printf '"%s" "%s"\n' "${user//\"/\"\"}" "${password//\"/\"\"}" >>"$dir/userlist.txt"
done
cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = host=${PGBOUNCER_UPSTREAM_HOST:-postgres} port=${PGBOUNCER_UPSTREAM_PORT:-5432}

[pgbouncer]
listen_addr = ${PGBOUNCER_LISTEN_ADDR:-0.0.0.0}
listen_port = ${PGBOUNCER_PORT:-6432}
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $dir/userlist.txt
pool_mode = transaction
default_pool_size = ${PGBOUNCER_DEFAULT_POOL_SIZE:-10}
max_db_connections = ${PGBOUNCER_MAX_DB_CONNECTIONS:-60}
max_client_conn = ${PGBOUNCER_MAX_CLIENT_CONN:-2000}
; node-postgres sends extra_float_digits, and the services' pools a search_path in options: both are role settings here.
ignore_startup_parameters = extra_float_digits,options
; Longer than the services' DATABASE_POOL_TIMEOUT_MS: their own wait decides the 503, not PgBouncer's.
query_wait_timeout = 30
; After a failed server login (Postgres down, a failover under way) try again after 1 s, not the default 15: measured in
; the failover test (e2e/cluster), the 15 s were 15 s of 503s after the standby had already taken over.
server_login_retry = 1
EOF
exec pgbouncer "$dir/pgbouncer.ini"
