import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { signIn } from "./factories";
import { copyDatabase } from "./global-setup";
import { api } from "./http";
import { startProcess, startWebServer, type Started, type WebServer } from "./server";

export type Environment = {
  baseUrl: string;
  databaseUrl: string;
  dataDir: string;
  env: Record<string, string>;
  /** Secret of a key with every scope in the environment's Default workspace. */
  key: string;
  web: WebServer;
  worker: Started;
  /** Starts another worker (after the first was killed, say). */
  startWorker: (overrides?: Record<string, string>) => Started;
  stop: () => Promise<void>;
};

let counter = 0;

/** The owner every environment bootstraps; tests sign in as it to make keys with other scopes. */
export const ENVIRONMENT_OWNER = { email: "owner@env.folio.test", password: "env-owner-password" } as const;

/**
 * A whole Folio of its own: a new database on the test cluster, a web server and a worker, with
 * the given settings (a low render time limit, the S3 file store, ...). Its workers never take
 * the shared test server's jobs, so a test may kill them.
 */
export async function startEnvironment(overrides: Record<string, string> = {}): Promise<Environment> {
  const name = `folio_test_${Date.now()}_env${process.pid}_${counter++}`;
  const adminUrl = inject("adminUrl");
  await copyDatabase(adminUrl, inject("templateDatabase"), name);
  const databaseUrl = adminUrl.replace(/\/postgres$/, `/${name}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-env-"));
  const owner = ENVIRONMENT_OWNER;
  const env: Record<string, string> = {
    ...inject("serverEnv"),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    ADMIN_EMAIL: owner.email,
    ADMIN_PASSWORD: owner.password,
    ...overrides,
  };
  const web = await startWebServer(env, dataDir);
  const workers: Started[] = [];
  const startWorker = (more: Record<string, string> = {}) => {
    const w = startProcess("worker/index.ts", { ...env, ...more, FOLIO_PROCESS: "worker" }, path.join(dataDir, `worker-${workers.length}.log`));
    workers.push(w);
    return w;
  };
  const worker = startWorker();
  const cookie = await signIn(owner.email, owner.password, web.baseUrl);
  const scopes = ["render:create", "render:read", "render:cancel", "audit:read", "usage:read"];
  const res = await api("/v1/api-keys", { baseUrl: web.baseUrl, cookie, body: { name: "env", scopes } });
  if (res.status !== 201) throw new Error(`could not create a key in the environment: ${res.text}`);
  return {
    baseUrl: web.baseUrl,
    databaseUrl,
    dataDir,
    env,
    key: res.body.secret,
    web,
    worker,
    startWorker,
    stop: async () => {
      await Promise.all([web.stop(), ...workers.map((w) => w.stop())]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
