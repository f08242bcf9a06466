#!/usr/bin/env bash
# Podman records a container's health only when something runs its check (no systemd timers here), and compose's
# `service_healthy` waits for that record. This loop runs the checks of one compose project until killed; under Docker
# it is not needed (the engine runs them itself). Usage: compose-healthchecks.sh PROJECT &
#
# Each check is a podman exec (and, for the services, a node process): run for all ten containers every 2 s they kept
# a core of a 2-core machine busy, and the stack under test slowed to statement timeouts. So containers not yet healthy
# (starting, restarted, unhealthy) are checked every 2 s, and the healthy ones every 30 s, which still notices a
# container that becomes unhealthy.
project="$1"
containers() {
  podman ps --filter "label=com.docker.compose.project=$project" "$@" --format '{{.Names}}' 2>/dev/null
}
round=0
while true; do
  if ((round % 15 == 0)); then
    names=$(containers)
  else
    names=$(comm -23 <(containers | sort) <(containers --filter health=healthy | sort))
  fi
  for name in $names; do
    podman healthcheck run "$name" >/dev/null 2>&1 || true
  done
  round=$((round + 1))
  sleep 2
done
