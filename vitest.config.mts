import { defineConfig } from "vitest/config";
import path from "node:path";

const alias = { "@": path.resolve(import.meta.dirname) };

// Test files run in parallel, one per vitest worker; each worker has servers and a database of its
// own (lib/testing/global-setup.ts). why 3 on two cores: an integration file mostly waits on its
// servers and Chromium, so a third file keeps the cores busy. FOLIO_TEST_WORKERS=1 for one file.
const maxWorkers = Number(process.env.FOLIO_TEST_WORKERS) || 3;

export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["lib/**/*.unit.test.ts", "packages/**/*.unit.test.ts"],
          environment: "node",
          // why not isolated: no unit test mocks a module, and those that set environment variables put
          // them back; loading the modules afresh for each file made the unit tests take 13 s instead of 7.
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["{app,lib,worker,packages}/**/*.test.ts"],
          exclude: ["**/*.unit.test.ts", "node_modules/**"],
          environment: "node",
          globalSetup: ["lib/testing/global-setup.ts"],
          setupFiles: ["lib/testing/setup-env.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
          // why not isolated: a file's imports (the app's modules, drizzle, the AWS SDK) took 187 s of
          // the run when each file loaded them afresh, 50 s when a worker keeps them. A worker's files
          // share its servers and database anyway; no integration test mocks a module.
          isolate: false,
        },
      },
    ],
  },
});
