#!/usr/bin/env bash
# CI: `npm start` on a machine where nothing answers on 5432 and 4222, simulated with START_INFRA=embedded and an
# empty data folder: it must get to "Ready", take the README's Getting-started booking (201), stop on Ctrl-C (SIGINT
# to its process group, as a terminal sends it) with the embedded Postgres shut down, and, started again, find the
# same development key and booking. Prints how long each start took to its first 201 / to "Ready".
set -euo pipefail
cd "$(dirname "$0")/.."
data="$(mktemp -d)"
chmod 755 "$data"
log="$data/start.log"
trap 'kill -INT -- "-$pid" 2>/dev/null || true; rm -rf "$data"' EXIT

start() {
  : >"$log"
  # PORT: the README's 3000 unless the caller names another (0: ports the OS picks, on a shared machine).
  START_INFRA=embedded START_DATA_DIR="$data" PORT="${PORT:-3000}" setsid npm start >"$log" 2>&1 &
  pid=$!
  local i
  for i in $(seq 1 600); do
    grep -q '^Ready in' "$log" && break
    kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "start-smoke: npm start exited before it was ready" >&2; exit 1; }
    sleep 0.5
  done
  grep -q '^Ready in' "$log" || { tail -50 "$log"; echo "start-smoke: not ready in 300 s" >&2; exit 1; }
  grep -E '^(Postgres|NATS):' "$log"
  API="$(sed -n 's/^  Gateway:  \(http:[^ ]*\).*/\1/p' "$log")"
  KEY="$(cat .dev-api-key)"
}

stop() {
  kill -INT -- "-$pid"
  local code=0
  wait "$pid" || code=$?
  # npm itself answers a SIGINT with 130 once its script has exited; the script's own stop is in the log.
  [ "$code" = 0 ] || [ "$code" = 130 ] || { tail -30 "$log"; echo "start-smoke: npm start exited with $code on Ctrl-C" >&2; exit 1; }
  grep -q '^Stopping' "$log" || { tail -30 "$log"; echo "start-smoke: npm start did not stop its services" >&2; exit 1; }
  local i
  for i in $(seq 1 60); do [ -e "$data/postgres/postmaster.pid" ] || break; sleep 0.5; done
  grep -q 'database system is shut down' "$data/postgres.log" || { echo "start-smoke: Postgres was not shut down" >&2; exit 1; }
  [ ! -e "$data/postgres/postmaster.pid" ] || { echo "start-smoke: postmaster.pid left behind" >&2; exit 1; }
}

began=$SECONDS
start
# The README's Getting started, as written there.
SCHEDULE=$(curl -sf -X POST "$API/api/v1/schedules" -H "authorization: Bearer $KEY" -H 'content-type: application/json' \
  -d '{"name":"Consultations","timezone":"Europe/Berlin","slot_duration":30}' | node -p 'JSON.parse(require("fs").readFileSync(0)).data.id')
curl -sf "$API/api/bookings/slots?scheduleId=$SCHEDULE&startDate=2030-01-07&endDate=2030-01-07" >/dev/null
status=$(curl -s -o "$data/booking.json" -w '%{http_code}' -X POST "$API/api/v1/bookings" -H "authorization: Bearer $KEY" -H 'content-type: application/json' \
  -H "idempotency-key: $(node -p 'crypto.randomUUID()')" -d '{"schedule_id":"'"$SCHEDULE"'","start_time":"2030-01-07T09:00:00+01:00",
  "end_time":"2030-01-07T09:30:00+01:00","attendee":{"name":"Ada Lovelace","email":"ada@example.com"}}')
[ "$status" = 201 ] || { cat "$data/booking.json"; echo "start-smoke: the booking answered $status, not 201" >&2; exit 1; }
BOOKING=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1])).data.id' "$data/booking.json")
echo "start-smoke: first start to the booking's 201: $((SECONDS - began)) s"
stop

began=$SECONDS
start
echo "start-smoke: second start to Ready: $((SECONDS - began)) s"
curl -sf "$API/api/v1/bookings/$BOOKING" -H "authorization: Bearer $KEY" >/dev/null ||
  { echo "start-smoke: the second start did not find the booking" >&2; exit 1; }
! grep -q 'Created the development organization' "$log" || { echo "start-smoke: the second start made a new organization" >&2; exit 1; }
stop
trap 'rm -rf "$data"' EXIT
echo "start-smoke: ok"
