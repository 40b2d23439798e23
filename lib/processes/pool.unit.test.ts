/**
 * The one pool (lib/processes/pool.ts) with real processes: a small program written here that
 * answers the pool's protocol and misbehaves on request. What each test checks is what a caller
 * of the pool sees: answers, errors, order, and which process ran a job.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HelperLimitError, PoolBusyError, ProcessPool, startFailure, type PoolOptions } from "./pool";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-pool-test-"));
const program = path.join(dir, "program.mjs");
fs.writeFileSync(
  program,
  `
const pid = process.pid;
process.on("message", (m) => {
  const [arg] = m.args ?? [];
  switch (m.job) {
    case "echo": return process.send({ id: m.id, ok: true, value: { pid, arg } });
    case "wait": return setTimeout(() => process.send({ id: m.id, ok: true, value: { pid, arg } }), arg);
    // Answers for ids it guesses first, then for its own job.
    case "liar":
      process.send({ id: 1, ok: true, value: "forged" });
      process.send({ id: m.id + "x", ok: true, value: "forged" });
      return setTimeout(() => process.send({ id: m.id, ok: true, value: "real" }), 20);
    case "step": process.send({ id: m.id, step: "footer" }); return setTimeout(() => process.kill(pid, "SIGSEGV"), 20);
    case "exit": return process.exit(3);
    case "grow": { const keep = []; for (let i = 0; i < 400; i++) keep.push(Buffer.alloc(1 << 20, 1)); globalThis.keep = keep; return setTimeout(() => process.send({ id: m.id, ok: true, value: keep.length }), 2000); }
    // Takes most of its memory, then works on without answering: a heap that thrashes at its limit.
    case "hoard": { const keep = []; for (let i = 0; i < 60; i++) keep.push(Buffer.alloc(1 << 20, 1)); globalThis.keep = keep; return; }
    case "throw": return process.send({ id: m.id, ok: false, error: { name: "RangeError", message: arg } });
    // Messages that are no object, then the real answer.
    case "odd": process.send(1); process.send("x"); process.send(null); return process.send({ id: m.id, ok: true, value: "after odd" });
  }
});
process.on("message", (m) => {
  if (m.cancel) process.send({ id: m.id, ok: false, error: { name: "Error", message: "cancelled" } });
});
process.on("disconnect", () => process.exit(0));
process.send({ ready: true });
`,
);
const pools: ProcessPool[] = [];
const pool = (more: Partial<PoolOptions> = {}) => {
  const p = new ProcessPool({ name: "test pool", warm: 1, max: 2, memoryMb: 64, timeoutMs: 10_000, launch: () => ({ command: process.execPath, args: [program], env: { PATH: "/usr/bin:/bin" } }), ...more });
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});
type Echo = { pid: number; arg: unknown };

describe("ProcessPool", () => {
  it("answers a job with its own reply only: replies for other ids are ignored", async () => {
    const p = pool();
    expect(await p.run("liar", [])).toBe("real");
    expect(await p.run<Echo>("echo", ["after"])).toMatchObject({ arg: "after" });
  });

  it("charges a process's crash to the step its job reported last, and the next job gets a fresh process", async () => {
    const p = pool();
    const first = (await p.run<Echo>("echo", [1])).pid;
    const e = await p.run("step", []).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HelperLimitError);
    expect(e).toMatchObject({ limit: "crashed", step: "footer", message: "its process crashed (SIGSEGV)" });
    const next = (await p.run<Echo>("echo", [2])).pid;
    expect(next).not.toBe(first);
  });

  it("kills a job's process past its resident-memory growth and fails that job alone", { timeout: 30_000 }, async () => {
    const p = pool({ rssGrowthMb: 100, max: 2, warm: 2 });
    await p.warm();
    const growing = p.run("grow", []).catch((x: unknown) => x);
    const beside = p.run<Echo>("wait", [300]);
    expect(await growing).toMatchObject({ limit: "memory", message: "it needed more than 64 MiB of memory" });
    expect((await beside).arg).toBe(300);
  });

  it("answers a job at its time limit that had taken most of its memory as out of memory, whatever the machine's speed", async () => {
    const p = pool({ timeoutMs: 1500 });
    expect(await p.run("hoard", []).catch((x: unknown) => x)).toMatchObject({ limit: "memory", message: "it needed more than 64 MiB of memory" });
    expect(await p.run("wait", [5000]).catch((x: unknown) => x)).toMatchObject({ limit: "time", message: "it took longer than 1.5 s" });
  });

  it("runs a job whose process died for no reason of its own once more, on a fresh process, when asked to", async () => {
    const p = pool({ retryUnexplained: true, warm: 1, max: 1 });
    await p.warm();
    const [pid] = p.pids;
    const running = p.run<Echo>("wait", [500]);
    await new Promise((r) => setTimeout(r, 100));
    process.kill(pid!, "SIGKILL");
    const r = await running;
    expect(r.arg).toBe(500);
    expect(r.pid).not.toBe(pid);
    // Twice: the job fails (exit code 3, its own doing each time).
    expect(await p.run("exit", []).catch((x: unknown) => x)).toMatchObject({ limit: "exited", message: "its process stopped (exit code 3)" });
  });

  it("recycles a process after its number of jobs", async () => {
    const p = pool({ recycle: { jobs: 2, ms: 60_000 }, warm: 1, max: 1 });
    const pids = [];
    for (let i = 0; i < 4; i++) pids.push((await p.run<Echo>("echo", [i])).pid);
    expect(pids[0]).toBe(pids[1]);
    expect(pids[2]).toBe(pids[3]);
    expect(pids[2]).not.toBe(pids[0]);
  });

  it("takes tenants' turns round robin within their bounds, and refuses past a tenant's waiting bound", async () => {
    const p = pool({ warm: 1, max: 1, fairness: { running: 1, waiting: 3, totalWaiting: 10 } });
    await p.warm();
    const order: string[] = [];
    const job = (tenant: string, n: number) => p.run<Echo>("wait", [10], { tenant }).then(() => void order.push(`${tenant}${n}`));
    const all = [job("a", 1), job("a", 2), job("a", 3), job("a", 4)];
    expect(await p.run("echo", [0], { tenant: "a" }).catch((x: unknown) => x)).toBeInstanceOf(PoolBusyError);
    all.push(job("b", 1), job("b", 2));
    await Promise.all(all);
    // a1 was running when b's jobs came: from then on the two take turns.
    expect(order).toEqual(["a1", "a2", "b1", "a3", "b2", "a4"]);
  });

  it("ignores messages that are no object, from a process an escape may have taken over", async () => {
    const p = pool();
    expect(await p.run("odd", [])).toBe("after odd");
  });

  it("answers an aborted job at once and lets its process end the job, without a new process", async () => {
    const p = pool({ warm: 1, max: 1 });
    await p.warm();
    const [pid] = p.pids;
    const controller = new AbortController();
    const running = p.run("wait", [5000], { signal: controller.signal }).catch((x: unknown) => x);
    await new Promise((r) => setTimeout(r, 100));
    controller.abort("went away");
    expect(await running).toBe("went away");
    // The program answers a cancel at once: the same process takes the next job.
    expect((await p.run<Echo>("echo", [1])).pid).toBe(pid);
  });

  it("fails a job at once when its process cannot even be launched, and starts later when it can", { timeout: 30_000 }, async () => {
    let broken = true;
    const p = pool({
      warm: 0,
      max: 1,
      launch: () => {
        if (broken) throw new Error("The render user folio-render does not exist");
        return { command: process.execPath, args: [program], env: { PATH: "/usr/bin:/bin" } };
      },
    });
    expect(await p.run("echo", [1]).catch((x: unknown) => x)).toMatchObject({ limit: "start", message: "its process did not start: The render user folio-render does not exist" });
    broken = false;
    await expect.poll(async () => (await p.run<Echo>("echo", [2]).catch(() => undefined))?.arg, { timeout: 20_000 }).toBe(2);
  });

  it("fails what waits when processes cannot start, and starts again after a backoff", { timeout: 30_000 }, async () => {
    let broken = true;
    const p = pool({ warm: 0, max: 1, launch: () => ({ command: process.execPath, args: [broken ? path.join(dir, "missing.mjs") : program], env: { PATH: "/usr/bin:/bin" } }) });
    const e = await p.run("echo", [1]).catch((x: unknown) => x);
    expect(e).toMatchObject({ limit: "start" });
    broken = false;
    await expect.poll(async () => (await p.run<Echo>("echo", [2]).catch(() => undefined))?.arg, { timeout: 10_000 }).toBe(2);
  });
});

describe("startFailure", () => {
  it("names the error a process died of at start, not the version line Node prints after the stack", () => {
    const stderr = [
      "file:///app/lib/helper-process/entry.mjs:23",
      "  if (!Object.hasOwn(jobs, name)) throw new Error(`no helper job named ${name} to preload`);",
      "                                  ^",
      "",
      "Error: no helper job named parseFonts to preload",
      "    at file:///app/lib/helper-process/entry.mjs:23:41",
      "",
      "Node.js v24.21.0",
    ].join("\n");
    expect(startFailure(stderr)).toBe("Error: no helper job named parseFonts to preload");
    expect(startFailure("TypeError [ERR_X]: bad\n    at x\nNode.js v24")).toBe("TypeError [ERR_X]: bad");
    expect(startFailure("setpriv: cannot find user\n")).toBe("setpriv: cannot find user");
    expect(startFailure("")).toBe("");
  });
});
