import fs from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cuttableDatabase, type CuttableDatabase } from "@/lib/testing/cuttable-database";
import { signIn } from "@/lib/testing/factories";
import { TEST_ADMIN } from "@/lib/testing/global-setup";
import { api, expectError } from "@/lib/testing/http";
import { logLine } from "@/lib/testing/logs";
import { adminJson } from "@/lib/testing/admin-cli";
import { startWebServer, type WebServer } from "@/lib/testing/server";

// A web server of its own on a database a test can take away (or make refuse a statement).
let database: CuttableDatabase;
let web: WebServer;
let key: string;
const logDir = path.join(inject("dataDir"), `db-failures-${process.pid}`);
/**
 * The server's deadline for a database that does not answer (DATABASE_CONNECT_TIMEOUT_SECONDS, 5 by default).
 * why 3: every wait below is one or two of it, and at 5 these tests waited 64 s, the suite's longest file. The
 * deadline is one setting whatever its value; 3 s still gives a loaded machine room to answer a new connection.
 */
const DEADLINE_S = 3;

beforeAll(async () => {
  fs.mkdirSync(logDir, { recursive: true });
  database = await cuttableDatabase(inject("adminUrl"));
  web = await startWebServer({ ...inject("serverEnv"), DATABASE_URL: database.url, DATABASE_CONNECT_TIMEOUT_SECONDS: String(DEADLINE_S) }, logDir);
  const workspaces = (await admin("workspace", "list")) as { items: { id: string }[] };
  key = ((await admin("key", "create", "--workspace", workspaces.items[0]!.id, "--name", "failures", "--scopes", "all")) as { secret: string }).secret;
}, 120_000);

/** The admin CLI's JSON answer, run against this file's database. */
function admin(...args: string[]): Promise<unknown> {
  return adminJson(args, { ...inject("serverEnv"), DATABASE_URL: database.url });
}

afterAll(async () => {
  await web?.stop();
  await database?.close();
});

const listRenders = () => api("/v1/renders?limit=1", { baseUrl: web.baseUrl, key });

describe("a statement the database refuses", () => {
  it("is logged with its class, code and constraint, never with the values it was given", { timeout: 60_000 }, async () => {
    const secret = `caller-secret-${randomBytes(8).toString("hex")}`;
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    // Every new render input is refused: PostgreSQL's error then carries the row in its detail,
    // and drizzle's the document in its message and params.
    await sql.unsafe(`alter table render_inputs add constraint refuse_every_input check (false) not valid`);
    try {
      const res = await api("/v1/renders", { baseUrl: web.baseUrl, key, body: { document: { html: `<p>${secret}</p>` } } });
      expectError(res, 500, "INTERNAL");
      const requestId = res.headers.get("x-request-id");
      const line = (await logLine(web.logFile, (l) => l.msg === "unexpected error" && l.requestId === requestId)) as { err?: Record<string, unknown> };
      expect(line.err).toMatchObject({
        type: "DrizzleQueryError",
        message: "Failed query",
        query: expect.stringContaining("render_inputs"),
        stack: expect.stringContaining("    at "),
        cause: { type: "PostgresError", code: "23514", constraint_name: "refuse_every_input", table_name: "render_inputs" },
      });
      expect(line.err).not.toHaveProperty("params");
      expect(fs.readFileSync(web.logFile, "utf8")).not.toContain(secret);
    } finally {
      await sql.unsafe(`alter table render_inputs drop constraint refuse_every_input`);
      await sql.end({ timeout: 5 });
    }
  });
});

describe("a database outage", () => {
  it("answers 503 INTERNAL, retryable, with Retry-After, within seconds; the console says so; both recover", { timeout: 120_000 }, async () => {
    const cookie = await signIn(TEST_ADMIN.email, TEST_ADMIN.password, web.baseUrl);
    const consolePage = async () => {
      const res = await fetch(`${web.baseUrl}/renders`, { headers: { cookie }, redirect: "manual" });
      return { status: res.status, text: await res.text() };
    };
    expect((await listRenders()).status).toBe(200);
    expect((await consolePage()).text).not.toContain("Folio is briefly unavailable");

    // The host is gone: open connections drop, new ones are never answered (the connect time-out).
    database.cut({ hang: true });
    try {
      for (let i = 0; i < 2; i++) {
        const started = Date.now();
        const res = await listRenders();
        const e = expectError(res, 503, "INTERNAL");
        expect(e.retryable).toBe(true);
        expect(e.message).toMatch(/briefly unavailable/);
        const retryAfter = Number(res.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(10);
        // The connect time-out; not tight: the driver's own default is 30 s.
        expect(Date.now() - started).toBeLessThan(20_000);
      }
      const page = await consolePage();
      expect(page.text).toContain("Folio is briefly unavailable");
      // The session check meets the outage too: "retry", never "signed out" with a cleared cookie.
      const check = await fetch(`${web.baseUrl}/api/auth/session`, { headers: { cookie } });
      expect(check.status).toBe(503);
      expect(check.headers.get("retry-after")).toBe("5");
      expect(check.headers.getSetCookie()).toEqual([]);
      expect(page.text).toContain("Try again in a few seconds");
      const line = await logLine(web.logFile, (l) => l.msg === "database unavailable");
      expect(line).toMatchObject({ level: 40, err: { type: "DrizzleQueryError", cause: { code: expect.stringMatching(/^(CONNECTION_CLOSED|CONNECT_TIMEOUT)$/) } } });
    } finally {
      database.restore();
    }

    // A database that refuses connections outright answers the same, at once.
    database.cut();
    try {
      const e = expectError(await listRenders(), 503, "INTERNAL");
      expect(e.retryable).toBe(true);
    } finally {
      database.restore();
    }

    await expect.poll(async () => (await listRenders()).status, { timeout: 30_000, interval: 500 }).toBe(200);
    const page = await consolePage();
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("Folio is briefly unavailable");
  });
});

describe("a database that stops answering (its processes stopped, a network dropping every packet)", () => {
  /** The answer of `p` and how long it took, failing the test past `ms` (the server's own statement_timeout does not apply). */
  async function timed<T>(p: Promise<T>, ms = 30_000): Promise<{ value: T; ms: number }> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const value = await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
    return { value, ms: Date.now() - started };
  }
  const readyz = async () => {
    const res = await fetch(`${web.baseUrl}/readyz`);
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it("answers 503 INTERNAL, retryable, within about twice the deadline, and /readyz 503 within the connect time-out; both recover", { timeout: 180_000 }, async () => {
    expect((await listRenders()).status).toBe(200);
    expect(await readyz()).toEqual({ status: 200, body: { ok: true, checks: { database: "ok" } } });

    // Nothing is closed: the pool's connections stay open and get no answer; new ones get none either.
    database.stall();
    try {
      // The first request meets a connection the pool holds; the next ones connections it opens anew.
      for (let i = 0; i < 3; i++) {
        const { value: res, ms } = await timed(listRenders());
        const e = expectError(res, 503, "INTERNAL");
        expect(e.retryable).toBe(true);
        expect(e.message).toMatch(/briefly unavailable/);
        expect(res.headers.get("retry-after")).toBe("5");
        // About twice the deadline (10 s by default): the deadline waiting, then as long for a new connection's
        // answer. Not tight, so a slow machine passes; without a deadline of its own the request got no answer at all.
        expect(ms).toBeLessThan(20_000);
      }
      const ready = await timed(readyz());
      expect(ready.value).toEqual({ status: 503, body: { ok: false, checks: { database: "unreachable" } } });
      expect(ready.ms).toBeLessThan(10_000);
      const dropped = await logLine(web.logFile, (l) => l.msg === "the database does not answer: its connections were dropped");
      expect(dropped).toMatchObject({ level: 40, dropped: expect.any(Number), waitedMs: expect.any(Number) });
    } finally {
      database.restore();
    }

    await expect.poll(async () => (await listRenders()).status, { timeout: 30_000, interval: 500 }).toBe(200);
    await expect.poll(async () => (await readyz()).status, { timeout: 30_000, interval: 500 }).toBe(200);
  });

  it("lets a statement wait past that deadline while the database answers (a lock held longer)", { timeout: 120_000 }, async () => {
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      // A transaction holds the renders table for longer than twice the deadline (the first check's answer, then
      // more): a list waits behind it, as an upload's statement waits behind the workspace's storage lock while a
      // large file is stored.
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const held = sql.begin(async (tx) => {
        await tx.unsafe("lock table renders in access exclusive mode");
        locked();
        await new Promise((r) => setTimeout(r, (3 * DEADLINE_S + 1) * 1000));
      });
      await isLocked;
      const { value: res, ms } = await timed(listRenders());
      expect(res.status).toBe(200);
      expect(ms).toBeGreaterThan(2 * DEADLINE_S * 1000);
      await held;
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});
