# One image for every service; SERVICE picks the entry point (services/<SERVICE>/dist/src/main.js).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
# npm ci runs the root postinstall (patch-package): the driver patches must be there first.
COPY patches ./patches
COPY shared ./shared
COPY services ./services
COPY tests/tsconfig.json ./tests/tsconfig.json
COPY tests/setup ./tests/setup
COPY tests/support ./tests/support
RUN npm ci --no-audit --no-fund && npx tsc -b && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
# the pdf service's store: a volume mounted here takes this owner when it is created
RUN mkdir -p /data/pdf && chown node:node /data/pdf
USER node
ARG SERVICE=edge
ENV SERVICE=${SERVICE}
CMD ["sh", "-c", "exec node services/${SERVICE}/dist/src/main.js"]
