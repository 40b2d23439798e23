import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { cuttableDatabase } from "@/lib/testing/cuttable-database";
import { startWebServer } from "@/lib/testing/server";

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-readyz-"));
afterAll(() => fs.rmSync(logDir, { recursive: true, force: true }));

/** The JSON log lines of a file (anything else printed is skipped). */
const logLines = (file: string) =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as { msg?: string; level?: number; err?: { message?: string } }];
      } catch {
        return [];
      }
    });

const readyz = async (baseUrl: string) => {
  const res = await fetch(`${baseUrl}/readyz`);
  return { status: res.status, body: (await res.json()) as unknown };
};

describe("GET /readyz of a web process", () => {
  it("names the database when it does not answer, never the error, which goes to the log", { timeout: 120_000 }, async () => {
    const database = await cuttableDatabase(inject("adminUrl"));
    const web = await startWebServer({ ...inject("serverEnv"), DATABASE_URL: database.url }, logDir);
    try {
      expect(await readyz(web.baseUrl)).toEqual({ status: 200, body: { ok: true, checks: { database: "ok" } } });

      database.cut();
      // Exactly these fields and words: no message, code, address or port of the failure.
      expect(await readyz(web.baseUrl)).toEqual({ status: 503, body: { ok: false, checks: { database: "unreachable" } } });
      await expect
        .poll(() => logLines(web.logFile).find((l) => l.msg === "not ready: the database does not answer"), { timeout: 5000 })
        .toMatchObject({ level: 50, err: { message: expect.any(String) } });

      database.restore();
      await expect.poll(async () => (await readyz(web.baseUrl)).status, { timeout: 15_000 }).toBe(200);
    } finally {
      await web.stop();
      await database.close();
    }
  });
});
