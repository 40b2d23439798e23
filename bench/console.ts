/**
 * npm run bench:console: how fast the console's pages are served, on the embedded database with
 * 1,000 templates and 10,000 renders, and how much JavaScript each page loads first.
 *
 * - Server time: a signed-in GET of each page's HTML (the whole streamed body), one at a time
 *   after a warm-up; p50 and p95. Target: p50 under 100 ms.
 * - First-load JavaScript: the scripts a page's HTML loads (script and preloaded script tags, not
 *   the nomodule polyfills a current browser skips), gzip-compressed from .next/static. `next build` of Next 16 no longer prints "First Load JS",
 *   so this is what its figure was. Target: under 200 kB, the template editor apart.
 *
 * - Editor preview round trip: what the editor does once typing has been idle for its 300 ms:
 *   POST /v1/templates/{id}/preview with the edited content and the sample data, as PNG page 1,
 *   and the image read whole (the bench invoice template, 30 rows; each request changes a value,
 *   as typing would). Target: p50 under 500 ms.
 *
 * Needs a production build (`npx next build`) of the current code. Run it on a quiet machine.
 *
 *   npm run bench:console              40 requests per page
 *   npm run bench:console -- --quick   a smoke run: 100 templates, 1,000 renders, 5 requests per page
 */
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { benchDatabase } from "./database";

const args = new Set(process.argv.slice(2));
const quick = args.has("--quick");
const root = path.resolve(__dirname, "..");
const dataDir = path.join(root, ".data", "bench-console");
const TEMPLATES = quick ? 100 : 1_000;
const RENDERS = quick ? 1_000 : 10_000;
const REQUESTS = quick ? 5 : 40;
const WARM = quick ? 2 : 5;
const ADMIN = { email: "owner@bench.test", password: "bench-console-password" };

// why before any import of lib/: config() reads the environment once.
process.env.ADMIN_EMAIL = ADMIN.email;
process.env.ADMIN_PASSWORD = ADMIN.password;
process.env.LOG_LEVEL ??= "warn";

type Seeded = { workspaceId: string; templateId: string; renderId: string; failedRenderId: string };

/** 1,000 templates and 10,000 renders in batches, through the repositories' bulk inserts. */
async function seed(workspaceId: string): Promise<Seeded> {
  const { db } = await import("../lib/db/client");
  const { newId } = await import("../lib/db/ids");
  const { insertTemplateRows } = await import("../lib/templates/repository");
  const { insertRenderRows } = await import("../lib/renders/repository");
  const { tableTemplateContent } = await import("./documents");
  const draft = tableTemplateContent() as Record<string, unknown>;
  const now = Date.now();
  const templateIds: string[] = [];
  for (let i = 0; i < TEMPLATES; i += 500) {
    const rows = Array.from({ length: Math.min(500, TEMPLATES - i) }, (_, j) => {
      const n = i + j;
      const at = new Date(now - (TEMPLATES - n) * 3_600_000);
      const id = newId("tpl");
      templateIds.push(id);
      return { id, workspaceId, name: `Invoice ${String(n).padStart(4, "0")}`, draft, createdAt: at, updatedAt: at };
    });
    await insertTemplateRows(db(), rows);
  }
  const renderIds: string[] = [];
  let failedRenderId = "";
  for (let i = 0; i < RENDERS; i += 1_000) {
    const rows = Array.from({ length: Math.min(1_000, RENDERS - i) }, (_, j) => {
      const n = i + j;
      // 30 days of renders, newest last; 95 % succeeded, 3 % failed, 2 % cancelled; 1 in 10 a test; half from templates.
      const created = new Date(now - Math.round(((RENDERS - n) / RENDERS) * 30 * 86_400_000));
      const state = n % 100 < 95 ? "succeeded" : n % 100 < 98 ? "failed" : "cancelled";
      const id = newId("rnd");
      renderIds.push(id);
      if (state === "failed") failedRenderId = id;
      const fromTemplate = n % 2 === 0;
      return {
        id,
        workspaceId,
        state: state as "succeeded" | "failed" | "cancelled",
        test: n % 10 === 0,
        source: fromTemplate ? "templateVersion" : "document",
        templateId: fromTemplate ? templateIds[n % templateIds.length] : undefined,
        format: "pdf" as const,
        attempts: 1,
        createdAt: created,
        updatedAt: created,
        startedAt: new Date(created.getTime() + 20),
        finishedAt: new Date(created.getTime() + 150),
        pageCount: state === "succeeded" ? 1 + (n % 4) : undefined,
        outputBytes: state === "succeeded" ? 16_000 + n : undefined,
        durationMs: state === "succeeded" ? 120 + (n % 80) : undefined,
        error: state === "failed" ? { code: "RENDER_FAILED", diagnostic: "document_invalid", message: "pageRanges selects none of the document's pages" } : undefined,
      };
    });
    await insertRenderRows(db(), rows);
  }
  await db().execute((await import("drizzle-orm")).sql`analyze`);
  return { workspaceId, templateId: templateIds.at(-1)!, renderId: renderIds.at(-1)!, failedRenderId };
}

/** next-auth's credentials flow, as the sign-in form makes it: the session cookie. */
async function signIn(baseUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie(), origin: new URL(baseUrl).origin },
    body: new URLSearchParams({ csrfToken, email: ADMIN.email, password: ADMIN.password, json: "true" }).toString(),
  });
  keep(res);
  const name = [...jar.keys()].find((k) => k.endsWith("next-auth.session-token"));
  if (!name) throw new Error(`sign-in failed: ${res.status}`);
  return `${name}=${jar.get(name)}`;
}

type PageResult = { name: string; path: string; status: number; p50: number; p95: number; jsRaw: number; jsGzip: number; scripts: number };

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** The scripts a page's HTML loads first (script src and preloaded scripts), raw and gzip bytes. */
function firstLoadJs(html: string) {
  const srcs = new Set<string>();
  for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
    const src = /\ssrc="([^"]+\.js[^"]*)"/.exec(tag)?.[1];
    // why: the nomodule polyfills are for browsers without modules, which the console does not serve.
    if (src && !/\snomodule\b/i.test(tag)) srcs.add(src);
  }
  for (const m of html.matchAll(/<link[^>]*rel="preload"[^>]*as="script"[^>]*href="([^"]+)"|<link[^>]*href="([^"]+\.js)"[^>]*as="script"/g)) srcs.add((m[1] ?? m[2])!);
  let raw = 0;
  let gzip = 0;
  for (const src of srcs) {
    const rel = decodeURIComponent(src.split("?")[0]!).replace(/^\/_next\//, "");
    const file = path.join(root, ".next", rel);
    if (!fs.existsSync(file)) continue;
    const bytes = fs.readFileSync(file);
    raw += bytes.length;
    gzip += gzipSync(bytes).length;
  }
  return { raw, gzip, scripts: srcs.size };
}

async function measure(baseUrl: string, cookie: string, name: string, pagePath: string): Promise<PageResult> {
  const get = async () => {
    const t = performance.now();
    const res = await fetch(`${baseUrl}${pagePath}`, { headers: { cookie }, redirect: "manual" });
    const html = await res.text();
    return { ms: performance.now() - t, status: res.status, html };
  };
  for (let i = 0; i < WARM; i++) await get();
  const times: number[] = [];
  let last = await get();
  for (let i = 0; i < REQUESTS; i++) {
    last = await get();
    times.push(last.ms);
  }
  times.sort((a, b) => a - b);
  const js = firstLoadJs(last.html);
  return { name, path: pagePath, status: last.status, p50: at(times, 0.5), p95: at(times, 0.95), jsRaw: js.raw, jsGzip: js.gzip, scripts: js.scripts };
}

/** The editor's live-preview request, `n` times after a warm-up: milliseconds to the whole first page image. */
async function measurePreview(baseUrl: string, cookie: string, templateId: string): Promise<{ p50: number; p95: number; n: number }> {
  const { tableTemplateContent, tableTemplateData } = await import("./documents");
  const content = tableTemplateContent();
  const preview = async (i: number) => {
    const t = performance.now();
    const res = await fetch(`${baseUrl}/v1/templates/${templateId}/preview`, {
      method: "POST",
      headers: { cookie, origin: new URL(baseUrl).origin, "content-type": "application/json" },
      body: JSON.stringify({ content, data: { ...tableTemplateData(30), number: `2026-${i}` }, format: "png", image: { page: 1, scale: 1 } }),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`preview answered ${res.status}`);
    return performance.now() - t;
  };
  for (let i = 0; i < WARM; i++) await preview(i);
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await preview(WARM + i));
  times.sort((a, b) => a - b);
  return { p50: at(times, 0.5), p95: at(times, 0.95), n: times.length };
}

async function main() {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("No production build: run `npx next build` first");
  const { buildPrograms, startProcess, startWebServer } = await import("../lib/testing/server");
  buildPrograms(); // the servers start from the compiled programs, as in production
  const { url: databaseUrl, runDir, drop } = await benchDatabase(dataDir, "console");
  let web: Awaited<ReturnType<typeof startWebServer>> | undefined;
  let worker: ReturnType<typeof startProcess> | undefined;
  try {
    const { bootstrap } = await import("../lib/workspaces/bootstrap");
    const boot = await bootstrap();
    const t = performance.now();
    const seeded = await seed(boot.workspace.id);
    console.log(`seeded ${TEMPLATES} templates and ${RENDERS} renders in ${Math.round(performance.now() - t)} ms`);

    const env = { DATABASE_URL: databaseUrl, DATA_DIR: runDir, LOG_LEVEL: "warn", API_RATE_LIMIT_PER_MINUTE: "1000000", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
    web = await startWebServer(env, runDir);
    worker = startProcess("worker/index.ts", { ...env, FOLIO_PROCESS: "worker" }, path.join(runDir, "worker.log"));
    const cookie = await signIn(web.baseUrl);

    const pages: [string, string][] = [
      ["Home", "/"],
      ["Templates", "/templates"],
      ["Template editor", `/templates/${seeded.templateId}`],
      ["Renders", "/renders"],
      ["Renders, failed only", "/renders?state=failed"],
      ["Renders, test only", "/renders?test=true"],
      ["Render", `/renders/${seeded.renderId}`],
      ["Render, failed", `/renders/${seeded.failedRenderId}`],
      ["API keys", "/api-keys"],
      ["Audit log", "/audit"],
      ["People", "/people"],
      ["Settings", "/settings"],
    ];
    const results: PageResult[] = [];
    for (const [name, p] of pages) results.push(await measure(web.baseUrl, cookie, name, p));

    const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
    console.log(`\nConsole pages: ${RENDERS} renders, ${TEMPLATES} templates, ${REQUESTS} requests each (server time of the whole HTML)\n`);
    console.log(["page".padEnd(24), "status", "p50 ms".padStart(8), "p95 ms".padStart(8), "first-load JS (gzip)".padStart(22), "raw".padStart(10), "  target"].join(" "));
    for (const r of results) {
      const editor = r.name === "Template editor";
      const ok = r.status === 200 && r.p50 < 100 && (editor || r.jsGzip < 200_000);
      console.log(
        [r.name.padEnd(24), String(r.status).padStart(6), r.p50.toFixed(1).padStart(8), r.p95.toFixed(1).padStart(8), kB(r.jsGzip).padStart(22), kB(r.jsRaw).padStart(10), `  ${r.status !== 200 ? "n/a (no page)" : ok ? "met" : "MISSED"}`].join(" "),
      );
    }
    const preview = await measurePreview(web.baseUrl, cookie, seeded.templateId);
    console.log(
      `\nEditor preview round trip (bench invoice template, 30 rows, PNG page 1, ${preview.n} requests): p50 ${preview.p50.toFixed(0)} ms, p95 ${preview.p95.toFixed(0)} ms  target (p50 < 500 ms) ${preview.p50 < 500 ? "met" : "MISSED"}`,
    );
    fs.writeFileSync(path.join(dataDir, "console-results.json"), JSON.stringify({ at: new Date().toISOString(), quick, renders: RENDERS, templates: TEMPLATES, results, preview }, null, 2));
  } finally {
    await Promise.all([web?.stop(), worker?.stop()]);
    await drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
