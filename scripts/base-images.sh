#!/usr/bin/env bash
# Local stand-ins for the base images where no image registry is reachable (source this file after
# scripts/container-engine.sh): a Node 24 runtime, Postgres with btree_gist and pg_trgm, and NATS with JetStream,
# built from Debian packages by ops/images/build.sh once per machine. Exports NODE_IMAGE, POSTGRES_IMAGE and
# NATS_IMAGE, which the Dockerfile, docker-compose.yml, the test harness and the test kit read; without them they use
# the official images. `podman images localhost/scheduling-shop-base/*` lists what was built.
if _bi_exports="$(bash "$(dirname "${BASH_SOURCE[0]}")/../ops/images/build.sh")"; then
  eval "$_bi_exports"
  echo "base images: NODE_IMAGE=$NODE_IMAGE POSTGRES_IMAGE=$POSTGRES_IMAGE NATS_IMAGE=$NATS_IMAGE" >&2
  unset _bi_exports
else
  unset _bi_exports
  echo "base images: could not build the local stand-ins (see above)" >&2
  return 1 2>/dev/null || exit 1
fi
