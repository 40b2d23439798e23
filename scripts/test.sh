#!/usr/bin/env bash
# npm test: the whole suite. Lint, typecheck, unit tests, then integration tests against a real
# PostgreSQL, a real Chromium and a server started over real HTTP (lib/testing/global-setup.ts),
# then the console's journeys in Debian's Chromium (Playwright Test, e2e/playwright.config.ts).
# Arguments go to vitest; with any, the journeys are skipped (a run aimed at some test files).
set -euo pipefail
cd "$(dirname "$0")/.."
# why side by side: on a fresh machine both mostly wait on downloads (Debian's packages, npm's).
system_status=0
bash scripts/ensure-system.sh --test &
system_pid=$!
bash scripts/ensure-node-modules.sh
wait "$system_pid" || system_status=$?
[ "$system_status" -eq 0 ] || exit 1
export PATH="$PWD/node_modules/.bin:$PATH" NEXT_TELEMETRY_DISABLED=1
# Lint runs beside the build (eslint is one process; the build leaves a core idle much of the time).
echo "== lint and build"
lint_log=$(mktemp)
eslint . --max-warnings=0 >"$lint_log" 2>&1 &
lint_pid=$!
build_status=0
bash scripts/ensure-build.sh || build_status=$? # before the typecheck: Next.js writes route types it checks
lint_status=0
wait "$lint_pid" || lint_status=$?
cat "$lint_log"; rm -f "$lint_log"
[ "$lint_status" -eq 0 ] && [ "$build_status" -eq 0 ] || exit 1
# why the typecheck beside the tests: it is one process for about 12 s, while vitest's first seconds
# mostly start servers; its result is waited for before the journeys.
echo "== typecheck and tests"
tsc_log=$(mktemp)
# tsconfig.plain.json: the plain JavaScript of the process wing (sandbox host and harness, the
# helpers' entry), checked with // @ts-check against lib/processes/protocol.ts.
# why TypeScript 7 (the native compiler, package typescript7), on one thread: it checks the same project
# with the same rules in 12 s of CPU against 41 s for TypeScript 5.9's tsc, and its other threads would
# only take the cores from the tests beside it (docs/architecture.md, "Type checking").
tsc7=(node node_modules/typescript7/bin/tsc --noEmit --singleThreaded)
("${tsc7[@]}" && "${tsc7[@]}" -p tsconfig.plain.json) >"$tsc_log" 2>&1 &
tsc_pid=$!
vitest_status=0
vitest run "$@" || vitest_status=$?
tsc_status=0
wait "$tsc_pid" || tsc_status=$?
if [ "$tsc_status" -ne 0 ]; then echo "== typecheck failed"; fi
cat "$tsc_log"; rm -f "$tsc_log"
[ "$vitest_status" -eq 0 ] && [ "$tsc_status" -eq 0 ] || exit 1
if [ $# -eq 0 ]; then
  echo "== console journeys"; playwright test -c e2e/playwright.config.ts
fi
