import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { createDatabase, ensureEmbeddedPostgres } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { projectRoot, startProcess, startWebServer, type Started, type WebServer } from "./server";

/** Fixed credentials of the test server's bootstrap owner and deploy key. */
export const TEST_ADMIN = { email: "owner@folio.test", password: "correct-horse-battery" };
export const TEST_DEPLOY_KEY = `folio_DeployKeyForTests${"0".repeat(23)}`;

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    adminUrl: string;
    dataDir: string;
    serverEnv: Record<string, string>;
  }
}

export type TestServers = {
  baseUrl: string;
  databaseUrl: string;
  adminUrl: string;
  dataDir: string;
  serverEnv: Record<string, string>;
  stop: () => Promise<void>;
};

/**
 * A real PostgreSQL (the embedded cluster under .data/test, started the same way as in
 * production), a fresh database, and the web server and worker as real processes. vitest's
 * integration project and the Playwright journeys (e2e/global-setup.ts) both start theirs here;
 * `extraEnv` adds to (or overrides) the servers' settings.
 */
export async function startTestServers(extraEnv: Record<string, string> = {}): Promise<TestServers> {
  const testRoot = path.join(projectRoot, ".data", "test");
  const runId = `${Date.now()}_${process.pid}`;
  const dataDir = path.join(testRoot, "runs", runId);
  removeOldRunFolders(path.join(testRoot, "runs"));
  fs.mkdirSync(dataDir, { recursive: true });

  const pg = await ensureEmbeddedPostgres({
    dir: path.join(testRoot, "postgres"),
    database: "postgres",
    // why: test data is thrown away; durability only costs time here.
    extraConf: ["fsync = off", "synchronous_commit = off", "full_page_writes = off"],
  });
  const adminUrl = pg.url;
  const database = `folio_test_${runId}`;
  await dropOldTestDatabases(adminUrl);
  await createDatabase(adminUrl, database);
  const databaseUrl = adminUrl.replace(/\/postgres$/, `/${database}`);
  await runMigrations(databaseUrl);

  const serverEnv: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    API_RATE_LIMIT_PER_MINUTE: "1000000",
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    DEPLOY_API_KEY: TEST_DEPLOY_KEY,
    LOG_LEVEL: "info",
    // why: tests' object stores (s3rver and scripted S3 servers) listen on loopback.
    DESTINATION_ALLOW_PRIVATE_NETWORKS: "true",
    // why: webhook tests deliver to receivers on loopback (lib/testing/webhooks.ts).
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    ...extraEnv,
  };
  const web: WebServer = await startWebServer(serverEnv, dataDir);
  const worker: Started = startProcess("worker/index.ts", { ...serverEnv, FOLIO_PROCESS: "worker" }, path.join(dataDir, "worker.log"));

  return {
    baseUrl: web.baseUrl,
    databaseUrl,
    adminUrl,
    dataDir,
    serverEnv,
    stop: async () => {
      await Promise.all([web.stop(), worker.stop()]);
      const othersRunning = await dropDatabase(adminUrl, database);
      if (pg.startedHere && !othersRunning) pg.stop();
    },
  };
}

/** Once per `vitest run`: the servers of startTestServers, their addresses provided to the tests. */
export default async function setup(project: TestProject) {
  const servers = await startTestServers();
  project.provide("baseUrl", servers.baseUrl);
  project.provide("databaseUrl", servers.databaseUrl);
  project.provide("adminUrl", servers.adminUrl);
  project.provide("dataDir", servers.dataDir);
  project.provide("serverEnv", servers.serverEnv);
  return servers.stop;
}

/** Folders (logs, files) of runs that started more than an hour ago; a recent run's logs stay to be read. */
function removeOldRunFolders(runsDir: string) {
  if (!fs.existsSync(runsDir)) return;
  for (const name of fs.readdirSync(runsDir)) {
    const startedAt = Number(name.split("_")[0]);
    if (startedAt < Date.now() - 3_600_000) fs.rmSync(path.join(runsDir, name), { recursive: true, force: true });
  }
}

/** Databases of runs that ended more than an hour ago (a run that crashed leaves its own). */
async function dropOldTestDatabases(adminUrl: string) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ datname: string }[]>`select datname from pg_database where datname like 'folio_test_%'`;
    for (const r of rows) {
      const startedAt = Number(r.datname.split("_")[2]);
      if (startedAt < Date.now() - 3_600_000) await sql.unsafe(`drop database if exists "${r.datname}" with (force)`);
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Drops this run's database; tells whether other runs are still using the cluster. */
async function dropDatabase(adminUrl: string, database: string): Promise<boolean> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${database}" with (force)`);
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname like 'folio_test_%'`;
    return (row?.n ?? 0) > 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
