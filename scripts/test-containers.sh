#!/usr/bin/env bash
# `npm run test:containers`: the suites that need a container engine (CI runs them after `npm test`):
#   1. the e2e, fault and bookings suites with TEST_INFRA=containers: Postgres and NATS from containers, even where
#      local servers run (one of each for the whole run; the NATS outage tests stop and start a NATS container);
#   2. docker-compose.yml built and driven through the gateway (e2e/compose), then `down -v`;
#   3. the test kit (packages/testkit): its containers, and its docs/api.md example starting the whole system; then
#      npm start's kept containers (packages/dev-stack), which come from the kit;
#   4. the Kubernetes manifests run by `podman kube play` as one pod with the built images (podman only: Docker has
#      no kube play, and that part says so instead of running).
# Without a Docker engine, podman is set up (scripts/container-engine.sh); where the official base images cannot be
# pulled, local stand-ins are built from Debian packages (scripts/base-images.sh). Arguments: which of the three
# to run (`infra`, `compose`, `testkit`, `kube`; default all, in that order: compose builds the images the last two start).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node24.sh
source scripts/containers.sh

parts=("$@")
[ "${#parts[@]}" -gt 0 ] || parts=(infra compose testkit kube)
for part in "${parts[@]}"; do
  echo "
> test:containers $part"
  case "$part" in
    infra) npx turbo run build --output-logs=errors-only &&
      TEST_INFRA=containers node scripts/run-vitest.mjs --project e2e --project faults --project bookings ;;
    compose) node scripts/run-vitest.mjs --cwd e2e --config vitest.compose.config.ts ;;
    testkit) node scripts/run-vitest.mjs --cwd packages/testkit --config vitest.containers.config.ts &&
      node scripts/run-vitest.mjs --cwd packages/dev-stack --config vitest.containers.config.ts ;;
    kube) if [ "${CONTAINER_ENGINE}" = podman ]; then
        node scripts/run-vitest.mjs --cwd deploy/k8s --config vitest.kube-play.config.ts
      else
        echo "test:containers kube: needs podman (kube play); the engine here is ${CONTAINER_ENGINE}: not run"
      fi ;;
    *) echo "test:containers: unknown part $part (infra, compose, testkit or kube)" >&2; exit 2 ;;
  esac
done

# Image builds leave untagged layers behind; those older than a day are no longer a cache worth their disk.
"${CONTAINER_ENGINE}" image prune -f --filter until=24h >/dev/null 2>&1 || true
