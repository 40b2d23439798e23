import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFont } from "@/lib/testing/images";
import { alive } from "@/lib/testing/server";
import { findSystemUser } from "../private-files";
import { HelperJobError, HelperLimitError, HelperPool } from "./pool";

// Real helper processes (no server): each limit ends the helper that ran the job, only that job
// fails, and the pool answers the next job on a fresh helper.

const testJobs = path.resolve("lib/testing/helper-jobs.mjs");
const pool = new HelperPool({ name: "test", warmHelpers: 1, maxHelpers: 2, memoryMb: 96, timeoutMs: 1500, testJobs });
afterAll(() => pool.close());


describe("HelperPool", () => {
  it("runs jobs in a warm helper, passing bytes both ways, and reports a job's own error by its class", { timeout: 30_000 }, async () => {
    await pool.warm();
    expect(pool.pids).toHaveLength(1);
    const pid = pool.pids[0]!;
    expect(pid).not.toBe(process.pid);
    expect(await pool.run<number>("spin", [5])).toBe(5);
    const font = await pool.run<{ problem?: string; codePoints: Uint32Array }>("parseFont", [readFont("interWoff2")]);
    expect(font.problem).toBeUndefined();
    expect(font.codePoints).toBeInstanceOf(Uint32Array);
    expect(font.codePoints).toContain("A".codePointAt(0));
    const err = await pool.run("fail", ["no such page"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HelperJobError);
    expect(err).toMatchObject({ remoteName: "RangeError", message: "no such page" });
    expect(pool.pids).toEqual([pid]); // a job's error leaves its helper in service
  });

  it("loads the modules of its pool's own jobs before it is ready and no other pool's; a job not preloaded loads its own on first use", { timeout: 30_000 }, async () => {
    const fonts = new HelperPool({ name: "test-fonts", warmHelpers: 1, maxHelpers: 1, memoryMb: 96, timeoutMs: 10_000, testJobs, preload: ["parseFont"] });
    const pdfs = new HelperPool({ name: "test-pdf", warmHelpers: 1, maxHelpers: 1, memoryMb: 96, timeoutMs: 10_000, testJobs, preload: ["postProcessPdf"] });
    try {
      await Promise.all([fonts.warm(), pdfs.warm()]);
      expect([await fonts.run("loaded", ["fontkit"]), await fonts.run("loaded", ["pdf-lib"])]).toEqual([true, false]);
      expect([await pdfs.run("loaded", ["pdf-lib"]), await pdfs.run("loaded", ["fontkit"])]).toEqual([true, false]);
      // The font helper runs a PDF job all the same, loading pdf-lib then.
      const joined = await fonts.run<Uint8Array>("joinPdfs", [[]]);
      expect(Buffer.from(joined).subarray(0, 5).toString()).toBe("%PDF-");
      expect(await fonts.run("loaded", ["pdf-lib"])).toBe(true);
    } finally {
      await Promise.all([fonts.close(), pdfs.close()]);
    }
  });

  it("does not start a helper whose pool preloads a job it does not have", { timeout: 30_000 }, async () => {
    const typo = new HelperPool({ name: "test-typo", warmHelpers: 0, maxHelpers: 1, memoryMb: 96, timeoutMs: 10_000, preload: ["parseFonts"] });
    try {
      const err = await typo.run("parseFont", [readFont("interWoff2")]).catch((e: unknown) => e);
      expect(String((err as Error)?.message)).toMatch(/no helper job named parseFonts to preload/);
    } finally {
      await typo.close();
    }
  });

  it("ends a job past its time limit with its helper only; the job beside it and the next one succeed", { timeout: 30_000 }, async () => {
    await pool.warm();
    const [slow, beside] = [pool.run("spin", [60_000]).catch((e: unknown) => e), pool.run<number>("spin", [300])];
    const err = await slow;
    expect(err).toBeInstanceOf(HelperLimitError);
    expect(err).toMatchObject({ limit: "time", message: "it took longer than 1.5 s" });
    expect(await beside).toBe(300);
    expect(await pool.run<number>("spin", [1])).toBe(1);
  });

  it("ends a job past its heap limit with its helper (this process goes on) and starts another", { timeout: 60_000 }, async () => {
    // why a pool of its own with a long time limit: filling 96 MiB takes longer than 1.5 s on a
    // loaded machine, and the time limit must not end the job before the memory limit does.
    const roomy = new HelperPool({ name: "test-memory", warmHelpers: 1, maxHelpers: 1, memoryMb: 96, timeoutMs: 45_000, testJobs });
    try {
      await roomy.warm();
      const before = roomy.pids[0]!;
      const err = await roomy.run("exhaust", []).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HelperLimitError);
      expect(err).toMatchObject({ limit: "memory", message: "it needed more than 96 MiB of memory" });
      expect(alive(before)).toBe(false);
      expect(await roomy.run<number>("spin", [1])).toBe(1);
      expect(roomy.pids).not.toContain(before);
    } finally {
      await roomy.close();
    }
  });

  it("ends a running job's helper when its signal fires, rejecting with the signal's reason", { timeout: 30_000 }, async () => {
    await pool.warm();
    const controller = new AbortController();
    const running = pool.run("spin", [60_000], { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort("cancelled"), 200);
    expect(await running).toBe("cancelled");
    expect(await pool.run<number>("spin", [1])).toBe(1);
  });

  it("gives helpers none of the process's settings", { timeout: 30_000 }, async () => {
    process.env.FOLIO_POOL_TEST_SECRET = "x";
    try {
      const names = await pool.run<string[]>("environment", []);
      expect(names).not.toContain("FOLIO_POOL_TEST_SECRET");
      expect(names).not.toContain("DATABASE_URL");
      expect(names).not.toContain("SECRET_KEY");
      expect(names).toContain("PATH");
      // Issue 33: contained as the sandbox is (lib/processes/launch.ts): no capability, no_new_privs,
      // and, when this process is root, the render user in a network namespace of its own.
      for (const pid of pool.pids) {
        const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
        expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
        expect(status).toMatch(/^CapEff:\s+0+$/m);
        if (process.getuid!() === 0) {
          const uid = findSystemUser(process.env.RENDER_USER ?? process.env.CHROMIUM_USER ?? "folio-render")!.uid;
          expect(status).toMatch(new RegExp(`^Uid:\\s+${uid}\\s`, "m"));
          expect(fs.readlinkSync(`/proc/${pid}/ns/net`)).not.toBe(fs.readlinkSync("/proc/self/ns/net"));
        }
      }
    } finally {
      delete process.env.FOLIO_POOL_TEST_SECRET;
    }
  });
});
