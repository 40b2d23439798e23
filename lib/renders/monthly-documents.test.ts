import fs from "node:fs";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as schema from "@/lib/db/schema";
import { cuttableDatabase, type CuttableDatabase } from "@/lib/testing/cuttable-database";
import { api, expectError } from "@/lib/testing/http";
import { adminJson } from "@/lib/testing/admin-cli";
import { startWebServer, type WebServer } from "@/lib/testing/server";
import { deleteExpiredRenders } from "./repository";
import { endAttempt } from "./statements";

// A database and web server of their own, with no worker: the test ends renders with the worker's
// own end statement and deletes them with retention's own statement, at the moments it chooses.
let database: CuttableDatabase;
let web: WebServer;
let client: postgres.Sql;
let workspaceId: string;
let key: string;
const logDir = path.join(inject("dataDir"), `monthly-documents-${process.pid}`);

/** The admin CLI's JSON answer, run against this file's database. */
function admin(...args: string[]): Promise<unknown> {
  return adminJson(args, { ...inject("serverEnv"), DATABASE_URL: database.url });
}

beforeAll(async () => {
  fs.mkdirSync(logDir, { recursive: true });
  database = await cuttableDatabase(inject("adminUrl"));
  // A retention far shorter than a month (the shortest setting).
  web = await startWebServer({ ...inject("serverEnv"), DATABASE_URL: database.url, RETENTION_DAYS: "1" }, logDir);
  client = postgres(database.url, { max: 2, onnotice: () => {} });
  workspaceId = ((await admin("workspace", "list")) as { items: { id: string }[] }).items[0]!.id;
  key = ((await admin("key", "create", "--workspace", workspaceId, "--name", "monthly", "--scopes", "all")) as { secret: string }).secret;
}, 120_000);

afterAll(async () => {
  await client?.end({ timeout: 5 });
  await web?.stop();
  await database?.close();
});

const limits = async () => (await api("/v1/render-limits", { baseUrl: web.baseUrl, key })).body as { documentsThisMonth: number; documentsPerMonth: number | null };
const createRender = (test = false) => api("/v1/renders", { baseUrl: web.baseUrl, key, body: { document: { html: "<p>a document</p>" }, ...(test ? { test: true } : {}) } });

/** Ends a queued render as its worker would: claimed (processing, first attempt), then ended by the worker's end statement. */
async function finish(id: string, state: "succeeded" | "failed") {
  const db = drizzle({ client, schema });
  await client`update renders set state = 'processing', attempts = 1, started_at = now() where id = ${id}`;
  const final =
    state === "succeeded"
      ? ({ state, pageCount: 1, outputBytes: 1000, durationMs: 5, fileKey: null } as const)
      : ({ state, error: { code: "RENDER_FAILED", message: "failed for the test", diagnostic: "render_process_exited" } } as const);
  expect((await endAttempt(db, id, 1, final)).ended).toBe(true);
}

describe("documentsThisMonth with a retention shorter than the month", () => {
  it("keeps counting the month's documents after retention deleted their renders, and the allowance still refuses", { timeout: 120_000 }, async () => {
    await admin("workspace", "limits", workspaceId, "--documents-per-month", "3");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await createRender();
      expect(res.status, res.text).toBe(202);
      ids.push(res.body.id as string);
    }
    const test = await createRender(true);
    expect(test.status, test.text).toBe(202);
    expectError(await createRender(), 402, "QUOTA_EXCEEDED"); // three queued count already

    await finish(ids[0]!, "succeeded");
    await finish(ids[1]!, "succeeded");
    await finish(ids[2]!, "failed"); // frees its place: failed renders do not count
    await finish(test.body.id as string, "succeeded"); // never counts
    expect(await limits()).toMatchObject({ documentsThisMonth: 2, documentsPerMonth: 3 });

    // Retention, past the renders' age (RETENTION_DAYS=1 on a later day): every ended render goes.
    const db = drizzle({ client, schema });
    const deleted = await deleteExpiredRenders(db, new Date(Date.now() + 1000), 500);
    expect(deleted.map((r) => r.id).sort()).toEqual([...ids, test.body.id as string].sort());
    expect(await db.select().from(schema.renders).where(inArray(schema.renders.id, ids))).toEqual([]);
    expectError(await api(`/v1/renders/${ids[0]}`, { baseUrl: web.baseUrl, key }), 404, "NOT_FOUND");

    // The two succeeded documents still count, and the allowance of 3 lets exactly one more in.
    expect(await limits()).toMatchObject({ documentsThisMonth: 2, documentsPerMonth: 3 });
    const third = await createRender();
    expect(third.status, third.text).toBe(202);
    expect(await limits()).toMatchObject({ documentsThisMonth: 3 });
    expectError(await createRender(), 402, "QUOTA_EXCEEDED");

    // A second retention run over nothing new changes nothing.
    await deleteExpiredRenders(db, new Date(Date.now() + 1000), 500);
    expect(await limits()).toMatchObject({ documentsThisMonth: 3 });
  });
});
