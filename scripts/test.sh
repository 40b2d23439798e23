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
# why the typecheck beside the tests: it is one process for about 15 s, while vitest's first seconds
# mostly start servers; its result is waited for before the journeys.
# why the journeys beside vitest on two cores or more: both mostly wait (on servers, browsers,
# timers), and one after the other they left a core idle for much of 12 minutes; side by side the
# whole suite takes about 4 minutes less. On one core (taskset -c 0) they run one after the other.
# Each has its own servers and databases on the one test cluster (lib/testing/global-setup.ts).
echo "== typecheck, tests and console journeys"
tsc_log=$(mktemp)
# tsconfig.plain.json: the plain JavaScript of the process wing (sandbox host and harness, the
# helpers' entry), checked with // @ts-check against lib/processes/protocol.ts.
(tsc --noEmit && tsc --noEmit -p tsconfig.plain.json) >"$tsc_log" 2>&1 &
tsc_pid=$!
journeys_pid=""
journeys_log=""
if [ $# -eq 0 ] && [ "$(nproc)" -ge 2 ]; then
  journeys_log=$(mktemp)
  playwright test -c e2e/playwright.config.ts >"$journeys_log" 2>&1 &
  journeys_pid=$!
fi
vitest_status=0
vitest run "$@" || vitest_status=$?
tsc_status=0
wait "$tsc_pid" || tsc_status=$?
if [ "$tsc_status" -ne 0 ]; then echo "== typecheck failed"; fi
cat "$tsc_log"; rm -f "$tsc_log"
journeys_status=0
if [ -n "$journeys_pid" ]; then
  wait "$journeys_pid" || journeys_status=$?
  echo "== console journeys"; cat "$journeys_log"; rm -f "$journeys_log"
elif [ $# -eq 0 ] && [ "$vitest_status" -eq 0 ] && [ "$tsc_status" -eq 0 ]; then
  echo "== console journeys"; playwright test -c e2e/playwright.config.ts || journeys_status=$?
fi
[ "$vitest_status" -eq 0 ] && [ "$tsc_status" -eq 0 ] && [ "$journeys_status" -eq 0 ] || exit 1
