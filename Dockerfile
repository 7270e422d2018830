# One image for the whole gateway: its argument picks what the container runs, `all` (the default:
# every service in one process) or one service's name (`wsfe`: production runs one per container).
# The local tools (local/) and the tests are compiled in the build stage only, because the
# services' own tests use them; none of them, nor what they depend on, reaches the image
# (local/Dockerfile builds the stand-ins that docker-compose.yml runs beside it).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
# npm ci runs the root postinstall (patch-package): the driver patches must be there first.
COPY patches ./patches
COPY shared ./shared
COPY services ./services
COPY server ./server
COPY local ./local
COPY tests ./tests
RUN npm ci --no-audit --no-fund && npx tsc -b
# The production tree: the deployed workspaces alone, without dev dependencies. Dropping the
# local tools, the tests and the test helpers from the workspaces lets prune remove everything
# only they need (the SMTP server and parser, the simulators' libraries, vitest, testcontainers).
RUN rm -rf local tests shared/testing \
  && npm pkg set 'workspaces=["shared/*","services/*","server"]' --json \
  && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
  && find node_modules -mindepth 1 -maxdepth 1 -type d -empty -delete

FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/shared ./shared
COPY --from=build /app/services ./services
COPY --from=build /app/server ./server
# the pdf service's store: a volume mounted here takes this owner when it is created
RUN mkdir -p /data/pdf && chown node:node /data/pdf
USER node
ENTRYPOINT ["node", "server/dist/src/main.js"]
CMD ["all"]
