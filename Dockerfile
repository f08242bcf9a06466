# One image per service: docker build --build-arg SERVICE=bookings -t scheduling-shop/bookings .
# Multi-stage: install and build the whole workspace once, then ship only what the service needs at run time.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY packages packages
COPY services services
RUN npm ci --no-audit --no-fund
RUN npx turbo run build --output-logs=errors-only
RUN npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ARG SERVICE
ENV NODE_ENV=production SERVICE=${SERVICE}
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/packages/contracts/package.json packages/contracts/
COPY --from=build /app/packages/contracts/dist packages/contracts/dist
COPY --from=build /app/packages/service-kit/package.json packages/service-kit/
COPY --from=build /app/packages/service-kit/dist packages/service-kit/dist
COPY --from=build /app/packages/service-kit/migrations packages/service-kit/migrations
COPY --from=build /app/services/${SERVICE}/package.json services/${SERVICE}/
COPY --from=build /app/services/${SERVICE}/dist services/${SERVICE}/dist
COPY --from=build /app/services/${SERVICE}/migrations services/${SERVICE}/migrations
# The catalog's MEDIA_DIR in compose: a named volume takes the owner of the image's folder, so node may write.
RUN mkdir -p /data/media && chown node:node /data/media
USER node
# Without PORT a service listens on its default port (services/*/src/config.ts), and so is probed there.
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD node -e "const port=process.env.PORT||{gateway:3000,bookings:3001,scheduling:3002,catalog:3003,events:3004,'calendar-sync':3005}[process.env.SERVICE];fetch('http://127.0.0.1:'+port+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["sh", "-c", "exec node services/${SERVICE}/dist/server.js"]
