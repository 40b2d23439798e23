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
  // why 3 in all but 2 for the console project: the machine has 2 cores, shared with the server,
  // the worker and PostgreSQL, so 2 journeys at once do the work; the third worker only runs the
  // typing journey, which mostly waits between keystrokes and would otherwise hold one of the two
  // (half a minute on a loaded machine; two minutes in the soak script) (projects below).
  workers: 3,
  fullyParallel: true,
  retries: 0,
  reporter: "list",
  // why generous: the machine's 2 cores run the browser, the server, the worker and PostgreSQL.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  outputDir: "../.data/e2e-results",
  use: {
    browserName: "chromium",
    // why --max-opt=1 (V8's interpreter and Sparkplug, no optimizing tier): the journeys' browser is most
    // of the suite's CPU, and its pages' code runs briefly. The template journeys' browser used 55 s of
    // CPU with it against 61 s with --max-opt=2 (Maglev), two runs each; every tier cost more than Maglev.
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--js-flags=--max-opt=1"] },
    viewport: { width: 1280, height: 800 },
    // why opt-in: recording a trace (a screencast and DOM snapshots of every action) cost about a
    // quarter of the journeys' time on two cores, for files CI does not keep. FOLIO_E2E_TRACE=1 to debug.
    trace: process.env.FOLIO_E2E_TRACE === "1" ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
  },
  // why this order: the typing journey is among the longest; listed first, it starts at once.
  projects: [
    { name: "typing", testMatch: "editor-previews.spec.ts", workers: 1 },
    { name: "console", testIgnore: "editor-previews.spec.ts", workers: 2 },
  ],
});
