import { defineConfig } from "vitest/config";
import path from "node:path";

const alias = { "@": path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["lib/**/*.unit.test.ts"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["{app,lib,worker}/**/*.test.ts"],
          exclude: ["**/*.unit.test.ts", "node_modules/**"],
          environment: "node",
          globalSetup: ["lib/testing/global-setup.ts"],
          setupFiles: ["lib/testing/setup-env.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
        },
      },
    ],
  },
});
