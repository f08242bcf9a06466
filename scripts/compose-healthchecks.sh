#!/usr/bin/env bash
# Podman records a container's health only when something runs its check (no systemd timers here), and compose's
# `service_healthy` waits for that record. This loop runs the checks of one compose project every 2 s until killed;
# under Docker it is not needed (the engine runs them itself). Usage: compose-healthchecks.sh PROJECT &
project="$1"
while true; do
  for name in $(podman ps --filter "label=com.docker.compose.project=$project" --format '{{.Names}}' 2>/dev/null); do
    podman healthcheck run "$name" >/dev/null 2>&1 || true
  done
  sleep 2
done
