import { defineConfig } from "@playwright/test";

/**
 * The console's journeys (docs/architecture.md, "The console > End-to-end tests"): Playwright Test
 * in Debian's full Chromium against the real web server and worker on the embedded PostgreSQL,
 * started by global-setup.ts. Needs a current `next build` (scripts/ensure-build.sh).
 */
export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  globalSetup: "./global-setup.ts",
  // why 2: the machine has 2 cores, shared with the server, the worker and PostgreSQL.
  workers: 2,
  fullyParallel: true,
  retries: 0,
  reporter: "list",
  // why generous: the machine's 2 cores run the browser, the server, the worker and PostgreSQL.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  outputDir: "../.data/e2e-results",
  use: {
    browserName: "chromium",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
    viewport: { width: 1280, height: 800 },
    // why opt-in: recording a trace (a screencast and DOM snapshots of every action) cost about a
    // quarter of the journeys' time on two cores, for files CI does not keep. FOLIO_E2E_TRACE=1 to debug.
    trace: process.env.FOLIO_E2E_TRACE === "1" ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
  },
});
