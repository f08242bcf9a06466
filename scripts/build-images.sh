#!/usr/bin/env bash
# `npm run images`: builds the seven service images as docker-compose.yml names them (${IMAGE_PREFIX:-scheduling-shop}/
# <service>:${IMAGE_TAG:-latest}), which the test kit starts by default. Sets up podman and the local base images
# where needed, as test:containers does.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node24.sh
source scripts/containers.sh
# A build reads no secret, but compose checks that the files exist: ./secrets (git-ignored) gets random ones.
export SECRETS_DIR="${SECRETS_DIR:-$PWD/secrets}"
node scripts/compose-secrets.mjs >/dev/null
if docker compose version >/dev/null 2>&1; then compose=(docker compose); else compose=(docker-compose); fi
"${compose[@]}" build "$@"
