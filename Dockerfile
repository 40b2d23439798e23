# syntax=docker/dockerfile:1
# Folio in one image: web, worker, the headless browser and the embedded PostgreSQL.
#   docker build -t folio .
#   docker run -p 3000:3000 -v folio-data:/data --security-opt seccomp=docker/seccomp-chromium.json folio
# and, for compose.yaml's scale-out, an image per role without what that role never runs:
#   docker build --target web -t folio-web .      docker build --target worker -t folio-worker .
# README "Run in a container" says why each flag; docs/architecture.md "One container" the design.
#
# why the official node:24.21.0-bookworm images: the same Node 24 the project pins (the `node`
# devDependency, 24.21.0) built and tested by Node's maintainers, on Debian 12 (bookworm), the release
# scripts/ensure-system.sh installs from on the development and test machines, so the browser
# (chromium-headless-shell), fonts, poppler and PostgreSQL 15 are the packages the test suite runs
# against. Debian's slim image with Node copied in from another stage would be the same bytes with
# one more thing to keep in step.

# Build: every npm package (the build needs the dev ones), the production Next.js build and Folio's
# own programs compiled into dist/server (`npm run build`), then the dev packages removed: tsx and
# esbuild among them, so nothing in the image runs TypeScript. why the full image here: it has the compilers node-gyp needs should
# isolated-vm's prebuilt binary not fit; none of them reach the runtime image.
FROM node:24.21.0-bookworm AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && rm -rf .next/cache \
 && npm prune --omit=dev --no-audit --no-fund

# The runtime images, one per role, all on Debian slim with the project's Node (docs/architecture.md,
# "One container"):
#   runtime (the default, `docker build .`): everything in one image, `docker run` above: web, worker
#     and the embedded PostgreSQL;
#   worker (`--target worker`, compose.yaml's workers): the browser, fonts and poppler, no PostgreSQL;
#   web (`--target web`, compose.yaml's web nodes and its bucket job): neither the browser, fonts,
#     poppler nor PostgreSQL. A web node renders nothing in a browser: its template sandbox and
#     helpers are Node, and renders are the workers' (about 0.6 GB smaller, estimated from Debian's
#     installed sizes: the headless shell and its libraries, the CJK fonts, PostgreSQL).
# Each takes the application last, so a code change rebuilds no package layer.

# base: what every role needs: tini as PID 1, perl (the seccomp filter's loader, lib/processes/seccomp.ts;
# essential in Debian, listed so no slimming removes it), CA certificates, the two users, the settings.
# setpriv and prlimit (the containment's launchers) come with util-linux, part of every Debian image.
FROM node:24.21.0-bookworm-slim AS base
RUN apt-get update \
 && apt-get install -y --no-install-recommends perl-base tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*

# Two users, neither root: `folio` runs web, worker and the embedded database and owns /data;
# `folio-render` (RENDER_USER) runs the browser, pdftoppm, the template sandbox and the helpers, owns nothing,
# and cannot read /data (0700). No home, no shell.
RUN useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin folio \
 && useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin folio-render \
 && mkdir -p /data \
 && chown folio:folio /data \
 && chmod 0700 /data

WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0 \
    CHROMIUM_PATH=/usr/bin/chromium-headless-shell \
    RENDER_USER=folio-render \
    FOLIO_SERVICE_USER=folio

# /data: the embedded database and its password, the secret key, local files, the quick-start
# key. Made on the first start, never in the image.
VOLUME /data
EXPOSE 3000

# why node and not curl: the slim image has no curl, and node is there anyway.
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# No USER: the image starts as root on purpose, and only the entry script runs as root. It makes
# /data the service user's, then drops to `folio` keeping CAP_SETUID, CAP_SETGID, CAP_CHOWN and
# CAP_KILL (to start and end the browser as `folio-render`) and nothing else (docs/architecture.md, "One container").
# tini is PID 1: it forwards SIGTERM to the start process, which stops web, worker and the
# database, and it reaps the browser's orphaned processes.
ENTRYPOINT ["/usr/bin/tini", "--", "/app/scripts/container-entry.sh"]
CMD ["start"]
# why 90 s in the README's `docker stop -t` and compose's stop_grace_period: a stopping worker lets
# running renders finish (render time limit, 60 s, plus 10 s).
STOPSIGNAL SIGTERM

# web: base and the application.
FROM base AS web
COPY --from=build /app /app
# why: Next.js writes its server-side cache (fetch, image) under .next/cache.
RUN mkdir -p /app/.next/cache && chown folio:folio /app/.next/cache
CMD ["web"]

# browser: what scripts/ensure-system.sh installs for rendering (the headless shell, fontconfig, the
# same fonts, poppler's pdftoppm for image renders). qpdf is not installed: no render path runs it.
FROM base AS browser
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      chromium-headless-shell fontconfig fonts-dejavu-core fonts-liberation fonts-noto-core fonts-noto-cjk poppler-utils \
 && rm -rf /var/lib/apt/lists/*

# worker: the browser and the application.
FROM browser AS worker
COPY --from=build /app /app
RUN mkdir -p /app/.next/cache && chown folio:folio /app/.next/cache
CMD ["worker"]

# runtime, the default (last) stage: the browser, PostgreSQL 15's server binaries for the embedded
# default database, and the application. why create_main_cluster = false: Folio makes its own
# cluster under /data at the first start; Debian's package would otherwise make an unused one.
FROM browser AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-common \
 && sed -ri 's/^#?\s*create_main_cluster\b.*/create_main_cluster = false/' /etc/postgresql-common/createcluster.conf \
 && apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /app /app
RUN mkdir -p /app/.next/cache && chown folio:folio /app/.next/cache
CMD ["start"]
