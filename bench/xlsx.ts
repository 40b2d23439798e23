/**
 * npm run bench:xlsx: workbook templates through the Reports API (issue 35's targets): a 1,000-row
 * XLSX report's time at p50 and p95, one at a time, answered and downloaded; and a 10,000-row one
 * made ten times over, with the web process's resident memory before and after (the growth a big
 * report leaves, the target under 100 MB) and the most its process tree held while they ran; and
 * an import of an archive of 100 Handlebars templates (target under 5 s). No worker: XLSX output
 * makes no render, an import renders nothing.
 *
 *   npm run bench:xlsx            30 reports of 1,000 rows, 10 of 10,000
 *   npm run bench:xlsx -- --quick 10 and 3
 */
import fs from "node:fs";
import path from "node:path";
import { benchDatabase } from "./database";
import { stats } from "./measure";

const quick = process.argv.includes("--quick");
const root = path.resolve(__dirname, "..");
const dataDir = path.join(root, ".data", "bench");
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Resident memory of a process and of its children (the workbook helpers, the sandbox), in MB. */
function rssMb(pid: number): { own: number; tree: number } {
  const rss = (p: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0) / 1024;
  const children = (p: number): number[] => {
    try {
      return fs.readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const all: number[] = [];
  const walk = (p: number) => {
    all.push(p);
    for (const c of children(p)) walk(c);
  };
  walk(pid);
  let tree = 0;
  for (const p of all) {
    try {
      tree += rss(p);
    } catch {
      // ended meanwhile
    }
  }
  return { own: rss(pid), tree };
}

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  const { buildPrograms, startWebServer } = await import("../lib/testing/server");
  buildPrograms();
  const { url: databaseUrl, runDir, drop } = await benchDatabase(dataDir, "xlsx");
  const env = { DATABASE_URL: databaseUrl, DATA_DIR: runDir, LOG_LEVEL: "warn", API_RATE_LIMIT_PER_MINUTE: "1000000" };
  const web = await startWebServer(env, runDir);
  try {
    const { bootstrap } = await import("../lib/workspaces/bootstrap");
    const { createKeyAsSystem } = await import("../lib/keys");
    const { systemCtx } = await import("../lib/auth/context");
    const { closeDb } = await import("../lib/db/client");
    const boot = await bootstrap();
    const key = (await createKeyAsSystem(systemCtx(boot.workspace.id, "bench"), "bench", ["render:create", "render:read", "template:read", "template:write", "template:publish", "asset:manage"], null)).secret;
    await closeDb();
    const { invoiceWorkbook } = await import("../lib/testing/workbooks");
    const { createHash } = await import("node:crypto");
    const api = async (p: string, body: unknown, method = "POST") => {
      const res = await fetch(`${web.baseUrl}${p}`, { method, headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const bytes = invoiceWorkbook();
    const reg = (await api("/v1/assets", { kind: "workbook", filename: "invoice.xlsx", mediaType: XLSX, size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") })) as { id: string; uploadUrl: string; uploadHeaders: Record<string, string> };
    const put = await fetch(reg.uploadUrl, { method: "PUT", headers: reg.uploadHeaders, body: new Uint8Array(bytes) });
    if (!put.ok) throw new Error(`upload: ${put.status}`);
    const t = (await api("/v1/templates", { name: "Bench workbook", kind: "workbook", content: { workbook: { assetId: reg.id } } })) as { id: string };
    await api(`/v1/templates/${t.id}/versions`, { expectedRevision: 1 });
    const data = (rows: number) => ({ number: "INV-1", customer: { name: "Bench" }, lines: Array.from({ length: rows }, (_, i) => ({ name: `Item ${i}`, qty: i % 7, price: 1.25 })) });
    const report = async (body: string) => {
      const started = performance.now();
      const res = await fetch(`${web.baseUrl}/v1/reports/render`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body });
      const file = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`report: ${res.status} ${Buffer.from(file).toString()}`);
      return { ms: performance.now() - started, bytes: file.byteLength };
    };
    const thousand = JSON.stringify({ format: "xlsx", template: { name: "Bench workbook" }, data: data(1000) });
    for (let i = 0; i < 5; i++) await report(thousand); // warm: helpers, sandbox, plan cache
    const times: number[] = [];
    let size = 0;
    for (let i = 0; i < (quick ? 10 : 30); i++) {
      const r = await report(thousand);
      times.push(r.ms);
      size = r.bytes;
    }
    const s = stats(times, 1);
    console.log(`XLSX report of 1,000 rows through the Reports API, one at a time: p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms (target p50 <= 300 ms), ${(size / 1024).toFixed(0)} KiB each`);

    const big = JSON.stringify({ format: "xlsx", template: { name: "Bench workbook" }, data: data(10_000) });
    await report(big);
    const before = rssMb(web.pid);
    let peakTree = before.tree;
    const sampler = setInterval(() => {
      peakTree = Math.max(peakTree, rssMb(web.pid).tree);
    }, 50);
    const bigTimes: number[] = [];
    for (let i = 0; i < (quick ? 3 : 10); i++) bigTimes.push((await report(big)).ms);
    clearInterval(sampler);
    const after = rssMb(web.pid);
    const b = stats(bigTimes, 1);
    console.log(
      `XLSX report of 10,000 rows (${(Buffer.byteLength(big) / 1e6).toFixed(1)} MB of data): p50 ${b.p50.toFixed(0)} ms; web process RSS ${before.own.toFixed(0)} -> ${after.own.toFixed(0)} MB (growth ${(after.own - before.own).toFixed(0)} MB, target < 100 MB); its process tree at most ${peakTree.toFixed(0)} MB (from ${before.tree.toFixed(0)} MB)`,
    );

    // An archive of 100 Handlebars templates, each with a partial, helpers and sample data, imported whole.
    const { templateFiles } = await import("../lib/archives/layout");
    const { ZipWriter } = await import("../lib/zip/zip");
    const w = new ZipWriter();
    w.add("folio.json", JSON.stringify({ format: "folio-export", version: 1 }));
    for (let i = 0; i < 100; i++) {
      const content = { templateHtml: `<h1>Report ${i} for {{customer}}</h1>{{#each rows}}{{> row}}{{/each}}`, partials: { row: "<p>{{name}}: {{money amount}}</p>" }, helpers: "function money(x) { return x.toFixed(2); }\n", sampleData: [{ name: "One", data: { customer: "Ann", rows: [{ name: "a", amount: 1 }] } }] };
      for (const [file, text] of templateFiles({ name: `Report ${i}`, kind: "handlebars", description: "", content })) w.add(`reports/Report ${i}.template/${file}`, text);
    }
    const archive = Buffer.concat(w.finish()).toString("base64");
    const importOnce = async () => {
      const started = performance.now();
      const res = await fetch(`${web.baseUrl}/v1/workspace-folders/import`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify({ archive, onConflict: "rename" }) });
      if (res.status !== 200) throw new Error(`import: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      return performance.now() - started;
    };
    const imports = [];
    for (let i = 0; i < 3; i++) imports.push(await importOnce());
    console.log(`Import of an archive of 100 Handlebars templates (${(archive.length / 1024).toFixed(0)} KiB base64): ${imports.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(", ")} (target under 5 s; the first starts the archive helper)`);
  } finally {
    await web.stop();
    await drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
