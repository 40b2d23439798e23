#!/usr/bin/env bash
# Builds the Next.js app when there is no build or a source file (app/, components/, lib/, styles,
# configuration) is newer than it; then compiles Folio's own programs (start, web, worker, admin, the
# helpers' jobs) into dist/server, which production starts (scripts/build-server.mjs, under a second).
set -euo pipefail
if [ ! -f .next/BUILD_ID ] || [ -n "$(find app lib components public next.config.ts postcss.config.mjs package-lock.json -newer .next/BUILD_ID ! -name '*.test.ts' ! -path 'lib/testing/*' -print -quit 2>/dev/null)" ]; then
  echo "Building the web app" >&2
  NEXT_TELEMETRY_DISABLED=1 npx next build >/tmp/folio-next-build.log 2>&1 || { cat /tmp/folio-next-build.log >&2; exit 1; }
fi
node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON scripts/build-server.mjs
