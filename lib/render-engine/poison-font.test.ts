import { execFileSync } from "node:child_process";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadAsset } from "@/lib/testing/assets";
import { startEnvironment, type Environment } from "@/lib/testing/environment";
import { readFont } from "@/lib/testing/images";
import { logLines } from "@/lib/testing/logs";
import { pdfText } from "@/lib/testing/pdf";
import { poisonFont } from "@/lib/testing/poison-font";
import { createRender, download, slowHtml, waitForState } from "@/lib/testing/renders";
import { programArgs, projectRoot } from "@/lib/testing/server";

// One workspace's font that makes the font parser allocate without bound must fail that
// workspace's render only: the worker's event loop (which renews every render's lease) and its
// process stay up, so renders of other workspaces beside it succeed on their first attempt.
// A Folio of its own, its worker's heap capped as on a host with bounded memory: parsed on the
// worker's main thread, the poison font ends the whole process (the renders of every workspace
// then wait for the reaper and are charged an attempt).

let env: Environment;
let sql: postgres.Sql;
/** Workspaces A's and B's keys (made with the admin CLI: the environment has its own database). */
let keyA: string;
let keyB: string;

beforeAll(async () => {
  env = await startEnvironment({ WORKER_CONCURRENCY: "2" });
  // The heap cap applies to the worker only (the environment's web server keeps its own).
  await env.worker.stop();
  env.worker = env.startWorker({ NODE_OPTIONS: [env.env.NODE_OPTIONS, "--max-old-space-size=640"].filter(Boolean).join(" ") });
  const cli = (...args: string[]) =>
    JSON.parse(execFileSync(process.execPath, [...programArgs("lib/cli/admin.ts"), ...args, "--json"], { cwd: projectRoot, env: { ...process.env, ...env.env }, encoding: "utf8" }));
  const workspaceKey = (name: string) => cli("key", "create", "--workspace", cli("workspace", "create", "--name", name).id, "--name", name, "--scopes", "all").secret as string;
  keyA = workspaceKey("Poisoner");
  keyB = workspaceKey("Bystander");
  sql = postgres(env.databaseUrl, { max: 2, onnotice: () => {} });
}, 120_000);

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await env?.stop();
});

const opts = () => ({ baseUrl: env.baseUrl });

async function attempts(id: string) {
  const [row] = await sql<{ attempts: number }[]>`select attempts from renders where id = ${id}`;
  return row!.attempts;
}

describe("a poison font in workspace A", () => {
  it("fails A's render (render_process_exited, naming the font) while B's renders beside it all succeed on their first attempt, and A's next render with a good font succeeds", { timeout: 180_000 }, async () => {
    const workerPid = env.worker.proc.pid;
    const font = { kind: "font" as const, mediaType: "font/ttf" };
    const poison = await uploadAsset(keyA, { ...font, filename: "poison.ttf", bytes: poisonFont() }, opts());

    // B's first render runs while A's font is parsed; more of B's are queued behind it.
    const first = await createRender(keyB, { document: { html: slowHtml(4000, "bystander first") }, waitMs: 0 }, opts());
    expect(first.status, first.text).toBe(202);
    await waitForState(keyB, first.body.id, ["processing"], { ...opts(), timeout: 60_000 });
    const a = await createRender(keyA, { document: { html: `<style>@font-face { font-family: P; src: url(http://assets.invalid/${poison.id}); }</style><p style="font-family: P">a</p>`, assetIds: [poison.id] }, waitMs: 0 }, opts());
    expect(a.status, a.text).toBe(202);
    const more = await Promise.all(
      [1, 2, 3].map((i) => createRender(keyB, { document: { html: `<p>bystander ${i}</p>` }, waitMs: 0 }, opts())),
    );
    for (const r of more) expect(r.status, r.text).toBe(202);

    const failed = await waitForState(keyA, a.body.id, undefined, { ...opts(), timeout: 60_000 });
    expect(failed.state).toBe("failed");
    // spec: Limits > Renders: other working memory (256 MiB) fails with render_process_exited.
    expect(failed.error).toMatchObject({ code: "RENDER_FAILED", diagnostic: "render_process_exited", message: `Font ${poison.id} could not be read: it needed more than 256 MiB of memory` });

    for (const [i, id] of [first.body.id, ...more.map((r) => r.body.id)].entries()) {
      const done = await waitForState(keyB, id, undefined, { ...opts(), timeout: 60_000 });
      expect(done.state, JSON.stringify(done)).toBe("succeeded");
      expect(await attempts(id), `B's render ${i} was charged another attempt`).toBe(1);
      const file = await download(done.result!.downloadUrl!);
      expect(pdfText(file.bytes).replace(/\s+/g, "")).toContain(i === 0 ? "bystanderfirst" : `bystander${i}`);
    }
    expect(await attempts(a.body.id)).toBe(1);

    // A again, with a good font: the poison left nothing behind.
    const good = await uploadAsset(keyA, { ...font, mediaType: "font/woff2", filename: "Inter.woff2", bytes: readFont("interWoff2") }, opts());
    const again = await createRender(keyA, { document: { html: `<style>@font-face { font-family: I; src: url(http://assets.invalid/${good.id}); }</style><p style="font-family: I">good font</p>`, assetIds: [good.id] }, waitMs: 0 }, opts());
    const ok = await waitForState(keyA, again.body.id, undefined, { ...opts(), timeout: 60_000 });
    expect(ok.state, JSON.stringify(ok)).toBe("succeeded");

    // The same worker process throughout, and it said nothing of a crash.
    expect(env.worker.proc.exitCode).toBeNull();
    expect(env.worker.proc.pid).toBe(workerPid);
    expect(logLines(env.worker.logFile).filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([]);
  });
});
