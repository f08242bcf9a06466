# One image per service: docker build --build-arg SERVICE=bookings -t scheduling-shop/bookings .
# NODE_IMAGE picks the base (default: the official image; scripts/base-images.sh builds a stand-in from Debian
# packages where no registry is reachable). The image holds only what the service needs at run time: its own
# production dependencies (no Prisma CLI, no other service's packages), the built code and the migrations.
ARG NODE_IMAGE=node:24-bookworm-slim

# 1. The sources, and apart from them every workspace manifest with the lockfile: the dependency layer below is
#    rebuilt only when a manifest or the lockfile changes, not on every code change.
FROM ${NODE_IMAGE} AS source
WORKDIR /app
COPY . .
# Workspace bins (the kit's prisma-generate) go with the manifests: npm ci links them only if they exist.
RUN mkdir /manifests && cp package-lock.json /manifests/ \
 && find . -name package.json -exec cp --parents {} /manifests/ \; \
 && find packages services -path '*/bin/*' -type f -exec cp --parents {} /manifests/ \;

# 2. Every dependency (dev tools included), then the build of every workspace: one build serves all six images.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=source /manifests/ ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY --from=source /app/ ./
RUN npx turbo run build --output-logs=errors-only

# 3. Production dependencies of the service and of the workspaces it uses, nothing else: npm installs one workspace's
#    tree (`--workspace`). Optional ones are left out too: the Prisma CLI is an optional peer of @prisma/client
#    (about 250 MB with its studio and PGlite), and nothing optional is needed at run time. @prisma/client also
#    ships a query compiler for every other database it supports (about 60 MB); these services speak only PostgreSQL.
#    Type declarations, source maps and docs are never loaded at run time (about a third of what is left).
FROM ${NODE_IMAGE} AS production-dependencies
ARG SERVICE
WORKDIR /app
COPY --from=source /manifests/ ./
RUN test -n "${SERVICE}" || { echo "build with --build-arg SERVICE=<name of a folder in services/>" >&2; exit 1; }
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --omit=optional --workspace="@app/${SERVICE}" --no-audit --no-fund \
 && find node_modules/@prisma/client/runtime -regextype egrep -regex '.*[._](cockroachdb|mysql|sqlite|sqlserver)[._].*' -delete \
 && mkdir -p /out && mv node_modules /out/ \
 && for link in /out/node_modules/@app/*; do \
      dir="$(readlink "$link" | sed 's|^\.\./\.\./||')" && echo "$dir" >>/workspaces \
      && if [ -d "$dir/node_modules" ]; then mkdir -p "/out/$dir" && mv "$dir/node_modules" "/out/$dir/"; fi; \
    done \
 && find /out -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' -o -name '*.md' \) -delete

# 4. For each of those workspaces, what runs: the manifest, the build and the migrations.
FROM build AS workspaces
COPY --from=production-dependencies /workspaces /workspaces
RUN for dir in $(cat /workspaces); do \
      mkdir -p "/runtime/$dir" && cp -r "$dir/package.json" "$dir/dist" "/runtime/$dir/" \
      && if [ -d "$dir/migrations" ]; then cp -r "$dir/migrations" "/runtime/$dir/"; fi; \
    done

FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
ENV NODE_ENV=production SERVICE=${SERVICE}
WORKDIR /app
COPY --from=production-dependencies /out ./
COPY --from=workspaces /runtime ./
# The catalog's MEDIA_DIR in compose: a named volume takes the owner of the image's folder, so node may write.
# Everything else stays owned by root: the service cannot change its own code.
RUN mkdir -p /data/media && chown node:node /data/media
USER node
# Without PORT a service listens on its default port (services/*/src/config.ts), and so is probed there.
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD node -e "const port=process.env.PORT||{gateway:3000,bookings:3001,scheduling:3002,catalog:3003,events:3004,'calendar-sync':3005,webhooks:3006}[process.env.SERVICE];fetch('http://127.0.0.1:'+port+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SERVICE_NODE_FLAGS: V8 flags on node's command line (NODE_OPTIONS refuses most); unset or empty, one garbage-collection
# thread and no allocation-site pretenuring, as @app/dev-stack (packages/dev-stack/src/start-env.ts) starts the services, and why.
CMD ["sh", "-c", "exec node ${SERVICE_NODE_FLAGS:---single-threaded-gc --no-allocation-site-pretenuring} services/${SERVICE}/dist/server.js"]
