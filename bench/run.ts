/**
 * npm run bench: end-to-end renders through the running service against raw Chromium, in the same
 * run, and the ratios. Raw is a reused warm page (setContent + pdf) of the worker's browser (the
 * headless shell, CHROMIUM_PATH), launched plainly: no sandbox, no other user, no routing; the
 * fastest any renderer on that browser can go here, and the limit the ratios are taken against.
 * Raw full Chromium (RAW_CHROMIUM_PATH, default /usr/bin/chromium) is measured after them, in the
 * same run, and printed beside it. End to end is POST /v1/renders with waitMs, then downloading the file.
 *
 *   npm run bench                 invoice and report, concurrency 1 and 2
 *   npm run bench -- --memory     also worker memory over 1,000 invoice renders
 *   npm run bench -- --quick      fewer renders (a smoke run)
 *   npm run bench -- --cpu        also CPU milliseconds per render of each process group (the web
 *                                 server's template sandbox apart from it)
 *   npm run bench -- --invoice    only the invoice, as PDF and as PNG (for iterating on the hot path)
 *   npm run bench -- --brand      only the brand rows: headers and footers with fonts and a logo
 *   npm run bench -- --sandbox    only the template sandbox (bench/sandbox.ts): a step's overhead over
 *                                 plain Handlebars, the 500-row table with two helpers, the run after a
 *                                 limit-killed one, the sandbox process's RSS over 1,000 runs
 *   npm run bench -- --handlebars only the invoice as a Handlebars template (partial, helper, script)
 *                                 against the same HTML sent as a caller document, one and two at a
 *                                 time (also in the default run and --invoice)
 *   npm run bench -- --delivery   only issue 11's rows (bench/delivery.ts): a storage destination (s3rver)
 *                                 and a webhook against neither, render by render; and N webhook
 *                                 deliveries queued at once (--deliveries N, default 1,000; 500 with
 *                                 --quick) to a 50 ms receiver during a steady render stream. Its end
 *                                 to end is the answer of POST /v1/renders with waitMs, without the
 *                                 download (a render that keeps no copy has none), for every arm alike.
 *                                 --overhead or --burst runs only the first or the second row.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { measureCpu, treeOf, type Proc } from "./cpu";
import { benchDatabase } from "./database";
import { assetsServed, brandedReport, brandFiles, brandTemplate, dataUrl, uploadAsset, type Api } from "./brand";
import { invoiceHandlebarsContent, invoiceHandlebarsData, invoiceHtml, reportHtml, tableTemplateContent, tableTemplateData } from "./documents";
import { drive, merge, stats, warm, type Run, type Stats } from "./measure";

const args = new Set(process.argv.slice(2));
type Format = "pdf" | "png";
const quick = args.has("--quick");
const root = path.resolve(__dirname, "..");
const dataDir = path.join(root, ".data", "bench");

async function main() {
  process.env.LOG_LEVEL ??= "warn";
  if (args.has("--sandbox")) {
    // No server or database: the sandbox is driven directly.
    const { sandboxBench } = await import("./sandbox");
    for (const line of await sandboxBench({ quick })) console.log(line);
    return;
  }
  const { buildPrograms, startProcess, startWebServer } = await import("../lib/testing/server");
  buildPrograms(); // the servers start from the compiled programs, as in production
  const { chromiumArgs } = await import("../lib/render-engine/browser");
  const { url: databaseUrl, runDir, drop } = await benchDatabase(dataDir, "bench");

  const delivery = args.has("--delivery");
  const env = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: runDir,
    LOG_LEVEL: "warn",
    API_RATE_LIMIT_PER_MINUTE: "1000000",
    WORKER_CONCURRENCY: "2",
    // why: the delivery mode's object store (s3rver) and webhook receivers listen on loopback.
    ...(delivery ? { DESTINATION_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } : {}),
  };
  const web = await startWebServer(env, runDir);
  const worker = startProcess("worker/index.ts", { ...env, FOLIO_PROCESS: "worker" }, path.join(runDir, "worker.log"));
  // why: a run that fails midway must not leave its server and worker running, to weigh on the next.
  stopOnFailure = async () => {
    await Promise.all([web.stop(), worker.stop()]);
    await drop();
  };

  const { bootstrap } = await import("../lib/workspaces/bootstrap");
  const { createKeyAsSystem } = await import("../lib/keys");
  const { systemCtx } = await import("../lib/auth/context");
  const { closeDb } = await import("../lib/db/client");
  const boot = await bootstrap();
  const key = (
    await createKeyAsSystem(systemCtx(boot.workspace.id, "bench"), "bench", ["render:create", "render:read", "template:read", "template:write", "template:publish", "asset:manage"], null)
  ).secret;
  // why: the benchmark sends renders far faster than the default allowances admit (60 a minute).
  const { setLimits } = await import("../lib/workspaces");
  await setLimits(systemCtx(boot.workspace.id, "bench"), { maxActiveRenders: 100_000, rendersPerMinute: 1_000_000 });
  await closeDb();

  if (delivery) {
    const { deliveryBench } = await import("./delivery");
    const at = process.argv.indexOf("--deliveries");
    const deliveries = at > 0 ? Number(process.argv[at + 1]) : quick ? 500 : 1000;
    if (!Number.isInteger(deliveries) || deliveries < 1) throw new Error("--deliveries takes a whole number");
    try {
      // --overhead or --burst: only that row (both when neither is given).
      const rows = args.has("--overhead") || args.has("--burst") ? { overhead: args.has("--overhead"), burst: args.has("--burst") } : { overhead: true, burst: true };
      const workerPid = worker.proc.pid!;
      const cpuGroups = {
        // The bench and its receiver process (web and worker are its children too, so they are left out of it).
        bench: (p: Proc, all: Map<number, Proc>) => treeOf(process.pid)(p, all) && !treeOf(web.pid)(p, all) && !treeOf(workerPid)(p, all),
        web: treeOf(web.pid),
        worker: (p: Proc) => p.pid === workerPid,
        workerChromium: (p: Proc, all: Map<number, Proc>) => p.pid !== workerPid && treeOf(workerPid)(p, all),
        // why this cluster's processes only: other clusters on a shared machine are not the bench's.
        postgres: treeOf(Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0])),
      };
      for (const line of await deliveryBench({ baseUrl: web.baseUrl, quick, deliveries, cpuGroups, rows })) console.log(line);
    } finally {
      await Promise.all([web.stop(), worker.stop()]);
      await drop();
    }
    return;
  }

  const { config } = await import("../lib/config");
  /** A plainly launched browser with two warm pages, one per lane. */
  const rawBrowser = async (executablePath: string) => {
    const browser = await chromium.launch({ executablePath, args: chromiumArgs(), headless: true });
    return { browser, pages: await Promise.all([browser.newPage(), browser.newPage()]) };
  };
  const shell = await rawBrowser(config().CHROMIUM_PATH);

  const { ppmToPng } = await import("../lib/render-engine/png");
  /**
   * A PNG's raw path: the page's PDF through a plainly started pdftoppm (no launcher, no other
   * user, no limits) with the arguments Folio's rasteriser uses, at A4's 96-dpi size.
   */
  const rawPng = (pdf: Buffer) =>
    new Promise<Buffer>((resolve, reject) => {
      const child = spawn("pdftoppm", ["-scale-to-x", "794", "-scale-to-y", "1123", "-singlefile", "-f", "1", "-l", "1", "-"]);
      const out: Buffer[] = [];
      child.stdout.on("data", (b: Buffer) => out.push(b));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(ppmToPng(Buffer.concat(out))) : reject(new Error(`pdftoppm exited ${code}`))));
      child.stdin.end(pdf);
    });
  const rawOn = (pages: Page[]) => (html: string, format: Format = "pdf") => async (_i: number, lane: number) => {
    await pages[lane]!.setContent(html, { waitUntil: "load" });
    const pdf = await pages[lane]!.pdf({ format: "A4", printBackground: true, margin: { top: "10mm", right: "10mm", bottom: "10mm", left: "10mm" } });
    if (format === "png") await rawPng(pdf);
  };
  const raw = rawOn(shell.pages);
  const e2e = (html: string, format: Format = "pdf") => renderThroughApi({ document: { html }, format });
  /** POST /v1/renders with waitMs, then the download: one end-to-end render. */
  const renderThroughApi = (source: Record<string, unknown>) => async () => {
    const res = await fetch(`${web.baseUrl}/v1/renders`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ ...source, waitMs: 60_000 }),
    });
    const r = (await res.json()) as { state: string; result?: { downloadUrl: string }; error?: unknown };
    if (res.status !== 200 || r.state !== "succeeded") throw new Error(`render did not succeed: ${res.status} ${JSON.stringify(r)}`);
    const file = await fetch(r.result!.downloadUrl);
    if (!file.ok) throw new Error(`download failed: ${file.status}`);
    await file.arrayBuffer();
  };

  const self = process.pid;
  const isSandbox = (p: Proc) => {
    try {
      return fs.readFileSync(`/proc/${p.pid}/cmdline`, "utf8").split("\0").some((a) => a.endsWith("host.mjs"));
    } catch {
      return false;
    }
  };
  const workerPid = worker.proc.pid!;
  const cpuGroups = {
    bench: (p: Proc) => p.pid === self,
    // The raw browsers are the bench's children; web and worker are too, so they are left out of it.
    rawChromium: (p: Proc, all: Map<number, Proc>) => p.pid !== self && treeOf(self)(p, all) && !treeOf(web.pid)(p, all) && !treeOf(workerPid)(p, all),
    web: (p: Proc, all: Map<number, Proc>) => treeOf(web.pid)(p, all) && !isSandbox(p),
    // The template sandbox (lib/sandbox/host.mjs), the web server's child, apart from it.
    sandbox: (p: Proc, all: Map<number, Proc>) => treeOf(web.pid)(p, all) && isSandbox(p),
    worker: (p: Proc) => p.pid === workerPid,
    workerChromium: (p: Proc, all: Map<number, Proc>) => p.pid !== workerPid && treeOf(workerPid)(p, all),
    postgres: (p: Proc) => p.comm === "postgres",
  };
  const cpu = new Map<string, { renders: number; ms: Record<string, number> }>();
  /** Runs `total` renders; with --cpu, adds the CPU ms of each group during them to `label`'s account. */
  const measured = async (label: string, total: number, c: number, one: (i: number, lane: number) => Promise<void>) => {
    const done = args.has("--cpu") ? measureCpu(cpuGroups) : undefined;
    const r = await drive(total, c, one);
    if (done) {
      const entry = cpu.get(label) ?? { renders: 0, ms: {} };
      for (const [k, v] of Object.entries(done())) entry.ms[k] = (entry.ms[k] ?? 0) + v;
      entry.renders += total;
      cpu.set(label, entry);
    }
    return r;
  };
  /**
   * Raw headless shell and end to end, `total` renders each after a warm-up, in alternating blocks:
   * a machine whose speed drifts during the run (a noisy neighbour) slows both alike, not one of
   * them. Then raw full Chromium, for comparison only, in a phase of its own with its browser
   * launched for it: an idle second browser costs CPU that would be charged to the others' blocks.
   */
  const compare = async (label: string, total: number, c: number, warmup: number, html: string, format: Format = "pdf") => {
    await warm(warmup, c, raw(html, format));
    await warm(warmup, c, e2e(html, format));
    const blocks = quick ? 2 : 5;
    const runs = { raw: [] as Run[], e2e: [] as Run[] };
    for (let b = 0; b < blocks; b++) {
      const n = Math.round((total * (b + 1)) / blocks) - Math.round((total * b) / blocks);
      runs.raw.push(await measured(`${label} raw`, n, c, raw(html, format)));
      runs.e2e.push(await measured(`${label} e2e`, n, c, e2e(html, format)));
    }
    const full = await rawBrowser(process.env.RAW_CHROMIUM_PATH ?? "/usr/bin/chromium");
    await warm(warmup, c, rawOn(full.pages)(html, format));
    const fullRun = await measured(`${label} full`, total, c, rawOn(full.pages)(html, format));
    await full.browser.close();
    return { raw: merge(runs.raw), full: merge([fullRun]), e2e: merge(runs.e2e) };
  };

  const results: { doc: string; c: number; raw: Stats; full: Stats; e2e: Stats }[] = [];
  const brandOnly = args.has("--brand");
  const handlebarsOnly = args.has("--handlebars");
  const plan = brandOnly || handlebarsOnly ? [] : [
    { doc: "invoice (1 page)", html: invoiceHtml(1), counts: quick ? [30, 40] : [150, 200], warmup: 10 },
    // why: PNG and JPEG renders go through the contained rasteriser (lib/render-engine/raster.ts).
    { doc: "invoice PNG", html: invoiceHtml(1), format: "png" as const, counts: quick ? [20, 30] : [60, 80], warmup: 5 },
    ...(args.has("--invoice") ? [] : [{ doc: "report (20 pages)", html: reportHtml(1), counts: quick ? [6, 8] : [20, 30], warmup: 3 }]),
  ];
  for (const p of plan) {
    for (const [ci, c] of [1, 2].entries()) {
      const r = await compare(`${p.doc} c=${c}`, p.counts[ci]!, c, p.warmup, p.html, "format" in p ? p.format : "pdf");
      results.push({ doc: p.doc, c, ...r });
    }
  }

  /** A 500-row table template against the same final document sent as caller HTML, one at a time. */
  const tableTemplate = async () => {
    const api = async (path: string, body: unknown) => {
      const res = await fetch(`${web.baseUrl}${path}`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const content = tableTemplateContent();
    const data = tableTemplateData(500);
    const template = await api("/v1/templates", { name: "Bench table", content });
    const version = await api(`/v1/templates/${template.id as string}/versions`, { expectedRevision: 1 });
    const { prepareDocument } = await import("../lib/templates/prepare");
    const { ComponentContent } = await import("../lib/templates/schema");
    const finalDocument = await prepareDocument(ComponentContent.parse(content), data, "de-CH");
    // why: expanding its header and footer started a template sandbox in this process, which would
    // keep the bench from exiting once its results are printed.
    const { stopSandbox } = await import("../lib/sandbox");
    await stopSandbox();
    const n = quick ? 10 : 30;
    const asDocument = renderThroughApi({ document: finalDocument });
    const asTemplate = renderThroughApi({ templateVersionId: version.id, data });
    await warm(3, 1, asDocument);
    await warm(3, 1, asTemplate);
    const d = await measured("table 500 rows, document", n, 1, asDocument);
    const t = await measured("table 500 rows, template", n, 1, asTemplate);
    const [docStats, templateStats] = [stats(d.latencies, d.seconds), stats(t.latencies, t.seconds)];
    return `\nTable template (500 rows) e2e p50 ${templateStats.p50.toFixed(1)} ms against the same HTML as a document ${docStats.p50.toFixed(1)} ms: ratio ${(templateStats.p50 / docStats.p50).toFixed(2)} (<= 1.3)`;
  };
  const tableLine = args.has("--invoice") || brandOnly || handlebarsOnly ? undefined : await tableTemplate();

  /**
   * The invoice as a Handlebars template (a row partial, a helpers.js format, a beforeRender script:
   * every step in the sandbox) against exactly the HTML it produces sent as a caller document, in
   * alternating blocks (issue 33: throughput >= 0.90): one at a time, where each render's latency
   * counts, then two at a time, as many as the worker prints at once, where the machine's CPU does.
   * why in the order ABBA (template, document, document, template, ...): measured in one order
   * only, whichever came first in a pair lost 5 to 10% at c=1 (the same run gave 0.89 one way and
   * 0.97 the other); with each arm first as often as second, what a block leaves behind for the
   * next (garbage to collect, pages to settle) falls on both arms alike.
   */
  const handlebarsInvoice = async () => {
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${web.baseUrl}${path}`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const template = await post("/v1/templates", { name: "Bench Handlebars invoice", kind: "handlebars", content: invoiceHandlebarsContent() });
    const version = await post(`/v1/templates/${template.id as string}/versions`, { expectedRevision: 1 });
    const asTemplate = renderThroughApi({ templateVersionId: version.id, data: invoiceHandlebarsData(1) });
    // why these settings: the document the template makes carries them (the render language, the
    // template's name as the PDF title); the caller document differs from it in nothing else.
    const asDocument = renderThroughApi({ document: { html: invoiceHtml(1), settings: { locale: "en-US", title: "Bench Handlebars invoice" } } });
    await warm(5, 1, asTemplate);
    await warm(5, 1, asDocument);
    const [blocks, each] = quick ? [2, 10] : [6, 20];
    const line = async (c: number) => {
      const runs = { template: [] as Run[], document: [] as Run[] };
      const template = async () => runs.template.push(await measured(`invoice, Handlebars template, c=${c}`, each * c, c, asTemplate));
      const document = async () => runs.document.push(await measured(`invoice, caller document, c=${c}`, each * c, c, asDocument));
      for (let b = 0; b < blocks; b++) {
        if (b % 2 === 0) await template().then(document);
        else await document().then(template);
      }
      const [tm, dc] = [merge(runs.template), merge(runs.document)];
      return (
        `Invoice as a Handlebars template, c=${c}: e2e p50 ${tm.p50.toFixed(1)} ms, ${tm.perSecond.toFixed(2)} r/s; the same HTML as a caller document ` +
        `${dc.p50.toFixed(1)} ms, ${dc.perSecond.toFixed(2)} r/s: throughput ratio ${(tm.perSecond / dc.perSecond).toFixed(2)} (>= 0.90)`
      );
    };
    return `\n${await line(1)}\n${await line(2)}`;
  };
  const handlebarsLine = brandOnly ? undefined : await handlebarsInvoice();

  const headers = { "x-api-key": key, "content-type": "application/json" };
  const call: Api = Object.assign(
    async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${web.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
    },
    { baseUrl: web.baseUrl, headers },
  );
  /**
   * The 20-page report with a header (logo and the serif) and a footer (the sans, page N of M)
   * against the same report without them, one at a time, in alternating blocks. The fonts and the
   * logo are assets served by the worker when this build has the assets API, else data: URLs.
   */
  const headerFooter = async () => {
    const files = brandFiles();
    const ids = { sans: await uploadAsset(call, files.sans), serif: await uploadAsset(call, files.serif), logo: await uploadAsset(call, files.logo) };
    const served = ids.sans !== undefined && ids.serif !== undefined && ids.logo !== undefined && (await assetsServed(call, ids.logo));
    const url = (k: keyof typeof ids) => (served ? `http://assets.invalid/${ids[k]}` : dataUrl(files[k]));
    const { html, header, footer } = brandedReport({ sans: url("sans"), serif: url("serif"), logo: url("logo") });
    const assetIds = served ? Object.values(ids) : undefined;
    const plain = renderThroughApi({ document: { html, assetIds } });
    const margins = renderThroughApi({ document: { html, header, footer, assetIds } });
    await warm(3, 1, plain);
    await warm(3, 1, margins);
    const runs = { plain: [] as Run[], margins: [] as Run[] };
    const [blocks, each] = quick ? [2, 4] : [5, 6];
    for (let b = 0; b < blocks; b++) {
      runs.plain.push(await measured("report, brand fonts", each, 1, plain));
      runs.margins.push(await measured("report, brand fonts + header/footer", each, 1, margins));
    }
    const [p, m] = [merge(runs.plain), merge(runs.margins)];
    return (
      `\nReport (20 pages) with a header and footer in 2 web fonts with a logo (${served ? "assets" : "data: URLs"}): e2e p50 ${m.p50.toFixed(1)} ms ` +
      `against ${p.p50.toFixed(1)} ms without them: +${((m.p50 / p.p50 - 1) * 100).toFixed(1)}% (<= 15%); throughput ${m.perSecond.toFixed(2)} against ${p.perSecond.toFixed(2)} r/s`
    );
  };
  /**
   * A template with 2 fonts, a logo and a stylesheet (workspace files and assets, served by the
   * worker) against the same document sent as plain HTML with the files inlined as data: URLs.
   */
  const brandTemplateRow = async () => {
    const t = await brandTemplate(call, brandFiles(), 30);
    if ("missing" in t) return `\nBrand template against inlined HTML: not measured, this build lacks ${t.missing}`;
    const asTemplate = renderThroughApi({ templateVersionId: t.versionId, data: t.data });
    const asHtml = renderThroughApi({ document: { html: t.html, settings: t.settings } });
    await warm(5, 1, asTemplate);
    await warm(5, 1, asHtml);
    const runs = { template: [] as Run[], html: [] as Run[] };
    const [blocks, each] = quick ? [2, 10] : [5, 20];
    for (let b = 0; b < blocks; b++) {
      runs.template.push(await measured("brand template", each, 1, asTemplate));
      runs.html.push(await measured("brand as inlined HTML", each, 1, asHtml));
    }
    const [tm, ht] = [merge(runs.template), merge(runs.html)];
    return (
      `\nTemplate with 2 fonts, a logo and a stylesheet: e2e p50 ${tm.p50.toFixed(1)} ms, ${tm.perSecond.toFixed(2)} r/s; the same as HTML with data: URLs ` +
      `${ht.p50.toFixed(1)} ms, ${ht.perSecond.toFixed(2)} r/s: throughput ratio ${(tm.perSecond / ht.perSecond).toFixed(2)} (>= 0.85)`
    );
  };
  const brandLines = args.has("--invoice") || handlebarsOnly ? [] : [await headerFooter(), await brandTemplateRow()];

  const f = (n: number) => n.toFixed(1).padStart(7);
  console.log("\nFolio benchmark (2 lanes of warm pages for raw; WORKER_CONCURRENCY=2 for the service)");
  console.log("raw: headless shell, the limit; full: raw full Chromium, for comparison; ratios are end to end against raw\n");
  console.log("document            c |  raw p50  raw p95  raw r/s | full p50 full r/s |  e2e p50  e2e p95  e2e r/s | thr ratio  p50 +ms");
  for (const r of results) {
    console.log(
      `${r.doc.padEnd(19)} ${r.c} | ${f(r.raw.p50)}  ${f(r.raw.p95)}  ${f(r.raw.perSecond)} | ${f(r.full.p50)}  ${f(r.full.perSecond)} | ${f(r.e2e.p50)}  ${f(r.e2e.p95)}  ${f(r.e2e.perSecond)} |    ${(r.e2e.perSecond / r.raw.perSecond).toFixed(2)}  ${f(r.e2e.p50 - r.raw.p50)}`,
    );
  }
  if (tableLine) console.log(tableLine);
  if (handlebarsLine) console.log(handlebarsLine);
  for (const line of brandLines) console.log(line);
  if (cpu.size) {
    const lines = [...cpu].map(([label, e]) => `${label.padEnd(26)} ${Object.entries(e.ms).map(([k, v]) => `${k} ${(v / e.renders).toFixed(1)}`).join("  ")}`);
    console.log(`\nCPU ms per render:\n${lines.join("\n")}`);
  }
  const inv2 = results.find((r) => r.doc === "invoice (1 page)" && r.c === 2);
  const inv1 = results.find((r) => r.doc === "invoice (1 page)" && r.c === 1);
  const png2 = results.find((r) => r.doc === "invoice PNG" && r.c === 2);
  if (inv1 && inv2) console.log(
    `\nTargets: invoice c=2 throughput ratio ${(inv2.e2e.perSecond / inv2.raw.perSecond).toFixed(2)} (>= 0.8 of raw headless shell); ` +
      `invoice c=1 p50 overhead ${(inv1.e2e.p50 - inv1.raw.p50).toFixed(1)} ms (<= 10); ` +
      `invoice c=2 end to end ${inv2.e2e.perSecond.toFixed(1)} r/s against raw full Chromium ${inv2.full.perSecond.toFixed(1)} r/s (x${(inv2.e2e.perSecond / inv2.full.perSecond).toFixed(2)})` +
      (png2 ? `; invoice PNG c=2 throughput ratio ${(png2.e2e.perSecond / png2.raw.perSecond).toFixed(2)} (raw: the PDF through a plain pdftoppm)` : ""),
  );

  if (args.has("--memory")) {
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${worker.proc.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
    const html = invoiceHtml(2);
    await drive(100, 2, e2e(html));
    const base = rss();
    const samples: number[] = [];
    for (let i = 0; i < 10; i++) {
      await drive(100, 2, e2e(html));
      samples.push(rss());
    }
    console.log(`\nWorker RSS over 1,000 invoice renders after 100 warm-up: start ${base.toFixed(0)} MB, samples ${samples.map((s) => s.toFixed(0)).join(" ")} MB, growth ${(Math.max(...samples) - base).toFixed(0)} MB (target < 50)`);
  }

  await shell.browser.close();
  await Promise.all([web.stop(), worker.stop()]);
  await drop();
}

/** Ends what main started, when it fails after starting its processes. */
let stopOnFailure: (() => Promise<void>) | undefined;

main().catch(async (err) => {
  console.error(err);
  await stopOnFailure?.().catch(() => {});
  process.exit(1);
});
