/**
 * Where the web process spends CPU per request on the render path, without a worker: POST
 * /v1/renders (no wait) and the download of a stored file. For work on the hot path:
 *   npx tsx bench/web-cost.ts
 */
import fs from "node:fs";
import path from "node:path";
import { measureCpu, treeOf, type Proc } from "./cpu";
import { benchDatabase } from "./database";
import { invoiceHtml } from "./documents";

const root = path.resolve(__dirname, "..");
const dataDir = path.join(root, ".data", "bench");

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  const { buildPrograms, startWebServer } = await import("../lib/testing/server");
  buildPrograms(); // the server starts from the compiled programs, as in production
  const { url: databaseUrl, runDir, drop } = await benchDatabase(dataDir, "webcost");
  const env = { DATABASE_URL: databaseUrl, DATA_DIR: runDir, LOG_LEVEL: "warn", API_RATE_LIMIT_PER_MINUTE: "1000000" };
  const web = await startWebServer(env, runDir);
  process.env.PUBLIC_URL = web.baseUrl;
  const { bootstrap } = await import("../lib/workspaces/bootstrap");
  const { createKeyAsSystem } = await import("../lib/keys");
  const { systemCtx } = await import("../lib/auth/context");
  const { fileStore } = await import("../lib/files/store");
  const { downloadLink } = await import("../lib/files/links");
  const boot = await bootstrap();
  const key = (await createKeyAsSystem(systemCtx(boot.workspace.id, "bench"), "bench", ["render:create", "render:read"], null)).secret;
  const pdf = fs.readFileSync(path.join(root, "bench", "..", "package.json"));
  await fileStore().put("bench/file.pdf", new Uint8Array(Buffer.concat(Array(8).fill(pdf))), "application/pdf");

  const groups = { web: treeOf(web.pid), postgres: (p: Proc) => p.comm === "postgres", bench: (p: Proc) => p.pid === process.pid };
  const html = invoiceHtml(1);
  const run = async (label: string, n: number, one: () => Promise<void>) => {
    for (let i = 0; i < 50; i++) await one();
    const done = measureCpu(groups);
    let left = n;
    await Promise.all([0, 1].map(async () => { while (left-- > 0) await one(); }));
    const cpu = done();
    console.log(`${label.padEnd(28)} ${Object.entries(cpu).map(([k, v]) => `${k} ${(v / n).toFixed(2)}`).join("  ")} ms per request`);
  };
  const post = async () => {
    const res = await fetch(`${web.baseUrl}/v1/renders`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify({ document: { html } }) });
    if (res.status !== 202) throw new Error(`POST: ${res.status}`);
    await res.arrayBuffer();
  };
  const url = downloadLink({ key: "bench/file.pdf", contentType: "application/pdf", filename: "f.pdf" }).url;
  const get = async () => {
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`GET: ${res.status}`);
    await res.arrayBuffer();
  };
  const waitPost = async () => {
    const res = await fetch(`${web.baseUrl}/v1/renders`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify({ document: { html }, waitMs: 1 }) });
    if (res.status !== 202) throw new Error(`POST: ${res.status}`);
    await res.arrayBuffer();
  };
  {
    const done = measureCpu(groups);
    await new Promise((r) => setTimeout(r, 10_000));
    const cpu = done();
    console.log(`idle for 10 s                ${Object.entries(cpu).map(([k, v]) => `${k} ${(v / 10).toFixed(1)}`).join("  ")} ms per second`);
  }
  for (let k = 0; k < 2; k++) {
    await run("POST /v1/renders (no wait)", 1000, post);
    await run("POST /v1/renders (waitMs 1)", 1000, waitPost);
    await run("GET download", 2000, get);
  }
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  await run("sparse: POST waitMs 1, 40ms", 200, async () => { await waitPost(); await sleep(40); });
  await run("sparse: GET, 40 ms", 200, async () => { await get(); await sleep(40); });
  await web.stop();
  await drop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
