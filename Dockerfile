# syntax=docker/dockerfile:1
# Multi-stage: install and build with dev dependencies, ship only what runs.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    BUILD_ON_START=false \
    DATA_DIR=/data
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/app ./app
COPY --from=build --chown=node:node /app/db ./db
COPY --from=build --chown=node:node /app/server ./server
# The sample corpus a server without search keys indexes at boot (SEARCH_PROVIDER open or corpus).
COPY --from=build --chown=node:node /app/corpus ./corpus
USER node
EXPOSE 3000
# Node 24 runs the TypeScript server directly; migrations run at boot.
CMD ["node", "server/main.ts"]
