import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { createDatabase, ensureEmbeddedPostgres } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { buildPrograms, projectRoot, startProcess, startWebServer, type Started, type WebServer } from "./server";

/** Fixed credentials of the test server's bootstrap owner and deploy key. */
export const TEST_ADMIN = { email: "owner@folio.test", password: "correct-horse-battery" };
export const TEST_DEPLOY_KEY = `folio_DeployKeyForTests${"0".repeat(23)}`;

/** What a test file reaches through inject(): its server set's addresses (lib/testing/setup-env.ts). */
export type ServerSet = {
  baseUrl: string;
  databaseUrl: string;
  adminUrl: string;
  dataDir: string;
  serverEnv: Record<string, string>;
  /** A migrated database that CREATE DATABASE ... TEMPLATE copies (lib/testing/database.ts). */
  templateDatabase: string;
};

declare module "vitest" {
  export interface ProvidedContext extends ServerSet {
    /** One server set per vitest worker, by VITEST_POOL_ID - 1. */
    serverSets: ServerSet[];
    /** GET /v1/openapi.json as the first server set served it: lib/testing/openapi.ts checks answers against it. */
    openapiDocument: string;
  }
}

export type TestServers = ServerSet & { stop: () => Promise<void> };

/**
 * A real PostgreSQL (the embedded cluster under .data/test, started the same way as in
 * production), a fresh database, and the web server and worker as real processes. vitest's
 * integration project and the Playwright journeys (e2e/global-setup.ts) both start theirs here;
 * `extraEnv` adds to (or overrides) the servers' settings.
 */
export async function startTestServers(extraEnv: Record<string, string> = {}): Promise<TestServers> {
  const [set] = await startServerSets(1, extraEnv);
  return set!;
}

/**
 * `count` independent server sets on one PostgreSQL: each a database of its own (a copy of one
 * migrated template: copying is much faster than migrating), a data folder, a web server and a
 * worker. vitest runs test files in parallel, one set per worker process, so a file sees a server
 * as quiet as when files ran one at a time: no other file's renders in its worker's queue or
 * lines in its logs.
 */
export async function startServerSets(count: number, extraEnv: Record<string, string> = {}): Promise<TestServers[]> {
  const testRoot = path.join(projectRoot, ".data", "test");
  const runId = `${Date.now()}_${process.pid}`;
  removeOldRunFolders(path.join(testRoot, "runs"));
  buildPrograms();

  const pg = await ensureEmbeddedPostgres({
    dir: path.join(testRoot, "postgres"),
    database: "postgres",
    // why: test data is thrown away; durability only costs time here.
    extraConf: ["fsync = off", "synchronous_commit = off", "full_page_writes = off"],
  });
  const adminUrl = pg.url;
  await dropOldTestDatabases(adminUrl);
  const templateDatabase = `folio_test_${runId}_template`;
  await createDatabase(adminUrl, templateDatabase);
  await runMigrations(adminUrl.replace(/\/postgres$/, `/${templateDatabase}`));
  const databases: string[] = [];
  const databaseDropped = async (database: string) => {
    const othersRunning = await dropDatabase(adminUrl, database);
    databases.splice(databases.indexOf(database), 1);
    // The last set to stop drops the template, and stops the cluster unless another run (the
    // journeys beside vitest, scripts/test.sh) still uses it, whichever of them started it.
    if (databases.length === 0) {
      await dropDatabase(adminUrl, templateDatabase);
      if (!othersRunning) pg.stop();
    }
  };

  const sets: Promise<TestServers>[] = [];
  for (let i = 1; i <= count; i++) {
    const database = `folio_test_${runId}_${i}`;
    await copyDatabase(adminUrl, templateDatabase, database);
    databases.push(database);
    const dataDir = path.join(testRoot, "runs", count === 1 ? runId : `${runId}_${i}`);
    fs.mkdirSync(dataDir, { recursive: true });
    const databaseUrl = adminUrl.replace(/\/postgres$/, `/${database}`);
    sets.push(startServers(databaseUrl, dataDir, extraEnv).then(({ serverEnv, baseUrl, stop }) => ({
      baseUrl,
      databaseUrl,
      adminUrl,
      dataDir,
      serverEnv,
      templateDatabase,
      stop: async () => {
        await stop();
        await databaseDropped(database);
      },
    })));
  }
  return Promise.all(sets);
}

/** The web server and the worker on a database, with the test settings. */
async function startServers(databaseUrl: string, dataDir: string, extraEnv: Record<string, string>) {
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
    // why: Next.js loads every route at a server's start by default; most of the suite's servers answer a few.
    FOLIO_PRELOAD_ROUTES: "0",
    // why: the servers a test starts for itself (a rate limit, a database outage, a crash) seldom run a
    // template; their sandbox starts at the first template job. The set's own web server starts it warm.
    FOLIO_WARM_SANDBOX: "0",
    ...extraEnv,
  };
  const worker: Started = startProcess("worker/index.ts", { ...serverEnv, FOLIO_PROCESS: "worker" }, path.join(dataDir, "worker.log"));
  let web: WebServer;
  try {
    web = await startWebServer({ ...serverEnv, FOLIO_WARM_SANDBOX: "1" }, dataDir);
  } catch (e) {
    await worker.stop();
    throw e;
  }
  return { serverEnv, baseUrl: web.baseUrl, stop: () => Promise.all([web.stop(), worker.stop()]).then(() => {}) };
}

/**
 * A new database, a copy of the migrated `template`. PostgreSQL copies a template only while no
 * session is connected to it; none ever is (migrations ran before and closed theirs), but a copy
 * refused for that (55006) is tried again rather than failing a test.
 */
export async function copyDatabase(adminUrl: string, template: string, database: string) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await sql.unsafe(`create database "${database}" template "${template}"`);
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== "55006" || attempt === 10) throw e;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Once per `vitest run`: one server set per vitest worker (see startServerSets), their addresses
 * provided to the tests; lib/testing/setup-env.ts gives each test file its worker's set.
 */
export default async function setup(project: TestProject) {
  // As many as vitest runs files at once (vitest.config.mts), but no more than there are files
  // to run: `vitest run some.test.ts` needs one set. why filenamePattern: vitest gives the global
  // setup no list of the run's files; the filters of the command line are the closest (a name
  // filter that vitest refines later only means a set too many).
  const maxWorkers = Math.max(1, Number(project.config.maxWorkers ?? project.vitest.config.maxWorkers) || 1);
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern ?? [];
  const files = (await project.globTestFiles(filters)).testFiles.length;
  const sets = await startServerSets(Math.max(1, Math.min(maxWorkers, files)));
  const { stop: _stop, ...first } = sets[0]!;
  for (const [key, value] of Object.entries(first)) project.provide(key as keyof ServerSet, value as never);
  project.provide("serverSets", sets.map(({ stop: _s, ...set }) => set));
  // why fetched once here: every worker checks answers against the document the servers serve, and
  // none pays for importing every route module to build it (seconds per worker).
  const doc = await fetch(`${first.baseUrl}/v1/openapi.json`);
  if (doc.status !== 200) throw new Error(`GET /v1/openapi.json answered ${doc.status}: ${(await doc.text()).slice(0, 500)}`);
  project.provide("openapiDocument", await doc.text());
  return async () => {
    await Promise.all(sets.map((s) => s.stop()));
  };
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
