/**
 * Isolation-design benchmark for HTML -> PDF rendering with playwright-core + Chromium.
 *
 *   tsx bench/isolation.ts                # full run (~150 timed renders per design/concurrency)
 *   N=20 WARM=3 tsx bench/isolation.ts    # quick smoke run
 *   ONLY=bench|net|leak|stuck|oom|micro|procs  (comma separated) to run a subset
 *
 * Designs (see runDesign):
 *   a   RAW           reused page per slot: setContent + pdf
 *   b   NEWCTX        newContext + newPage + setContent + pdf + context.close per render
 *   c   PRECTX        pool pre-creates the next context+page while the current render runs
 *   d   ROUTE-GOTO    reused page; goto http://r-<n>.folio.invalid/ fulfilled by context.route
 *                     (everything else aborted); pdf; goto about:blank
 *   d2  ROUTE-SETC    same, but the route serves an empty doc and the HTML goes in via setContent
 *   d3  ROUTE-NOBLANK like d, without the about:blank hop (extra)
 *   e   CDP-RESET     reused page; setContent; pdf; goto about:blank + Storage.clearDataForOrigin
 *                     + Network.clearBrowserCookies + Network.clearBrowserCache
 *   e0  BLANK-RESET   like e, without the CDP calls (extra)
 */
import { chromium } from "playwright-core";
import type { Browser, BrowserContext, Page, CDPSession, Route } from "playwright-core";
import http from "node:http";
import dgram from "node:dgram";
import type { AddressInfo, Socket } from "node:net";
import fs from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";

const N = Number(process.env.N ?? 100); // timed renders per fast design and concurrency
const N_SLOW = Number(process.env.N_SLOW ?? 30); // for b/c (new context per render), which run at ~1.5 r/s here
const ROUNDS = Number(process.env.ROUNDS ?? 4); // designs are interleaved in this many rounds to spread background-load noise
const WARM = Number(process.env.WARM ?? 10);
const ONLY = new Set((process.env.ONLY ?? "bench,net,leak,stuck,oom,micro,procs").split(","));
const EXE = "/usr/bin/chromium";
const PROXY_ARGS = ["--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"];
const BASE_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  ...PROXY_ARGS,
];
const PDF_OPTS = { format: "A4", printBackground: true } as const;

const now = () => performance.now();
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "-");
const log = (...a: unknown[]) => console.log(...a);

async function launch(extraArgs: string[] = [], withProxy = true): Promise<Browser> {
  const args = withProxy ? [...BASE_ARGS, ...extraArgs] : [...BASE_ARGS.filter((a) => !PROXY_ARGS.includes(a)), ...extraArgs];
  return chromium.launch({ executablePath: EXE, args, headless: true });
}

// ---------------------------------------------------------------------------------------------
// Invoice generator
// ---------------------------------------------------------------------------------------------
const ITEMS = [
  "Consulting services - backend architecture review",
  "Cloud hosting (compute, eu-west), monthly",
  "Managed PostgreSQL instance, 4 vCPU / 16 GB",
  "Object storage, 2 TB tier incl. egress",
  "On-call support retainer (business hours)",
  "Design system components license",
  "Security audit & penetration test report",
  "Data migration from legacy ERP",
  "Training workshop, half-day, up to 12 people",
  "Custom PDF template development",
  "API usage overage (per 10k requests)",
  "Travel expenses (rail, 2nd class)",
];

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);
}

export function invoiceHtml(seq: number, extraBody = ""): string {
  const money = (n: number) => n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  let subtotal = 0;
  const rows: string[] = [];
  for (let i = 0; i < 30; i++) {
    const qty = 1 + ((seq * 3 + i * 7) % 9);
    const price = 12.5 + ((i * 37 + seq * 11) % 200) * 1.75;
    const total = qty * price;
    subtotal += total;
    rows.push(
      `<tr class="${i % 2 ? "odd" : ""}"><td class="num">${i + 1}</td><td>SKU-${(1000 + ((i * 13 + seq) % 9000)).toString()}</td>` +
        `<td>${esc(ITEMS[(i + seq) % ITEMS.length] ?? "")}</td><td class="num">${qty}</td>` +
        `<td class="num">${money(price)}</td><td class="num">${money(total)}</td></tr>`,
    );
  }
  const vat = subtotal * 0.2;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Invoice INV-${String(seq).padStart(6, "0")}</title>
<style>
@page { size: A4; margin: 12mm 14mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 9pt; color: #1f2933; margin: 0; }
header { display: flex; justify-content: space-between; align-items: flex-start; border-bottom: 3px solid #2f6fed; padding-bottom: 8px; }
.brand { font-size: 18pt; font-weight: 700; color: #2f6fed; letter-spacing: .5px; }
.brand small { display: block; font-size: 8pt; color: #52606d; font-weight: 400; }
.meta { text-align: right; }
.meta h1 { margin: 0 0 4px; font-size: 16pt; text-transform: uppercase; color: #323f4b; }
.meta table td { padding: 1px 0 1px 12px; }
.parties { display: flex; gap: 24px; margin: 12px 0; }
.party { flex: 1; background: #f5f7fa; border-radius: 4px; padding: 8px 10px; line-height: 1.35; }
.party h3 { margin: 0 0 3px; font-size: 8pt; text-transform: uppercase; color: #7b8794; }
table.items { width: 100%; border-collapse: collapse; }
table.items th { background: #323f4b; color: #fff; text-align: left; padding: 4px 6px; font-size: 8pt; }
table.items td { padding: 3px 6px; border-bottom: 1px solid #e4e7eb; }
table.items tr.odd td { background: #fafbfc; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.totals { margin-left: auto; width: 42%; margin-top: 10px; border-collapse: collapse; }
.totals td { padding: 3px 6px; }
.totals tr.grand td { border-top: 2px solid #323f4b; font-weight: 700; font-size: 11pt; }
footer { margin-top: 14px; font-size: 7.5pt; color: #616e7c; border-top: 1px solid #cbd2d9; padding-top: 6px; display: flex; justify-content: space-between; }
.badge { display: inline-block; padding: 2px 8px; border-radius: 10px; background: #e3f8ff; color: #0b69a3; font-weight: 600; }
</style></head>
<body>
<header>
  <div class="brand">Folio Consulting GmbH<small>Musterstraße 12 · 10115 Berlin · VAT DE123456789</small></div>
  <div class="meta"><h1>Invoice</h1><table>
    <tr><td>Invoice no.</td><td><b>INV-${String(seq).padStart(6, "0")}</b></td></tr>
    <tr><td>Date</td><td>2025-0${1 + (seq % 9)}-1${seq % 10}</td></tr>
    <tr><td>Due</td><td>Net 30</td></tr>
    <tr><td>Status</td><td><span class="badge">Open</span></td></tr></table></div>
</header>
<section class="parties">
  <div class="party"><h3>Bill to</h3><b>Acme Widgets Ltd. #${seq % 97}</b><br>Attn: Accounts Payable<br>221B Example Road<br>London NW1 6XE, United Kingdom</div>
  <div class="party"><h3>Ship to</h3><b>Acme Widgets Ltd. – Warehouse</b><br>Unit 4, Dockside Park<br>Tilbury RM18 7AA<br>United Kingdom</div>
  <div class="party"><h3>Payment</h3>IBAN DE89 3704 0044 0532 0130 00<br>BIC COBADEFFXXX<br>Reference INV-${String(seq).padStart(6, "0")}</div>
</section>
<table class="items"><thead><tr><th class="num">#</th><th>SKU</th><th>Description</th><th class="num">Qty</th><th class="num">Unit (EUR)</th><th class="num">Amount (EUR)</th></tr></thead>
<tbody>${rows.join("")}</tbody></table>
<table class="totals">
  <tr><td>Subtotal</td><td class="num">${money(subtotal)}</td></tr>
  <tr><td>VAT 20%</td><td class="num">${money(vat)}</td></tr>
  <tr class="grand"><td>Total due</td><td class="num">EUR ${money(subtotal + vat)}</td></tr>
</table>
<footer><span>Thank you for your business. Please pay within 30 days.</span><span>Page 1 of 1</span></footer>
${extraBody}
</body></html>`;
}

function pdfPageCount(buf: Buffer): number {
  return (buf.toString("latin1").match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
}

// ---------------------------------------------------------------------------------------------
// Designs
// ---------------------------------------------------------------------------------------------
type RenderOpts = { pdf?: boolean; probe?: (page: Page) => Promise<unknown> };
type RenderResult = { pdf: Buffer | null; probe?: unknown; latency: number; cycle: number; phases: Record<string, number> };
interface Slot {
  render(html: string, opts?: RenderOpts): Promise<RenderResult>;
  close(): Promise<void>;
  /** Wait for background work (pool refills, async resets) to finish. */
  idle?(): Promise<void>;
}
type Design = { key: string; name: string; bench?: boolean; makeSlot(browser: Browser): Promise<Slot> };

let originCounter = 0;

/** Helper that times named phases. */
function phaseTimer() {
  const phases: Record<string, number> = {};
  let last = now();
  const start = last;
  return {
    mark(name: string) {
      const t = now();
      phases[name] = (phases[name] ?? 0) + (t - last);
      last = t;
    },
    since: () => now() - start,
    phases,
  };
}

async function doOpts(page: Page, opts: RenderOpts | undefined, t: ReturnType<typeof phaseTimer>) {
  let probe: unknown;
  if (opts?.probe) probe = await opts.probe(page);
  let pdf: Buffer | null = null;
  if (opts?.pdf !== false) {
    pdf = await page.pdf(PDF_OPTS);
    t.mark("pdf");
  }
  return { pdf, probe };
}

const RAW: Design = {
  key: "a",
  name: "RAW (reused page, setContent)",
  async makeSlot(browser) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    return {
      async render(html, opts) {
        const t = phaseTimer();
        await page.setContent(html);
        t.mark("setContent");
        const r = await doOpts(page, opts, t);
        const latency = t.since();
        return { ...r, latency, cycle: latency, phases: t.phases };
      },
      close: () => ctx.close(),
    };
  },
};

const NEWCTX: Design = {
  key: "b",
  name: "NEW CONTEXT per render",
  async makeSlot(browser) {
    return {
      async render(html, opts) {
        const t = phaseTimer();
        const ctx = await browser.newContext();
        t.mark("newContext");
        const page = await ctx.newPage();
        t.mark("newPage");
        await page.setContent(html);
        t.mark("setContent");
        const r = await doOpts(page, opts, t);
        const latency = t.since();
        await ctx.close();
        t.mark("ctxClose");
        return { ...r, latency, cycle: t.since(), phases: t.phases };
      },
      close: async () => {},
    };
  },
};

const PRECTX: Design = {
  key: "c",
  name: "PRE-CREATED contexts (pool)",
  async makeSlot(browser) {
    const create = async () => {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      return { ctx, page };
    };
    let next = create();
    next.catch(() => {});
    const closing = new Set<Promise<void>>();
    return {
      async render(html, opts) {
        const t = phaseTimer();
        const { ctx, page } = await next;
        t.mark("waitPool");
        next = create();
        next.catch(() => {});
        await page.setContent(html);
        t.mark("setContent");
        const r = await doOpts(page, opts, t);
        const latency = t.since();
        const p = ctx.close().catch(() => {});
        closing.add(p);
        void p.then(() => closing.delete(p));
        return { ...r, latency, cycle: latency, phases: t.phases };
      },
      idle: async () => {
        await Promise.all(closing);
        await next;
      },
      close: async () => {
        await Promise.all(closing);
        const { ctx } = await next;
        await ctx.close();
      },
    };
  },
};

const EMPTY_DOC = "<!doctype html><html><head><meta charset=utf-8></head><body></body></html>";

/** Context whose every request is aborted except documents registered in `docs`. */
async function routedContext(browser: Browser) {
  const ctx = await browser.newContext();
  const docs = new Map<string, string>();
  await ctx.route("**/*", (route: Route) => {
    const req = route.request();
    const body = req.resourceType() === "document" ? docs.get(req.url()) : undefined;
    if (body !== undefined) return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body });
    return route.abort("blockedbyclient");
  });
  // A render must not leave popups behind (window.open) -- close any page we did not create.
  return { ctx, docs };
}

function routeDesign(key: string, name: string, mode: "goto" | "setContent", blankHop: boolean, uniqueSite = false, bench = true): Design {
  return {
    key,
    name,
    bench,
    async makeSlot(browser) {
      const { ctx, docs } = await routedContext(browser);
      const page = await ctx.newPage();
      return {
        async render(html, opts) {
          const t = phaseTimer();
          const url = uniqueSite ? `http://r-${++originCounter}.invalid/` : `http://r-${++originCounter}.folio.invalid/`;
          docs.set(url, mode === "goto" ? html : EMPTY_DOC);
          await page.goto(url, { waitUntil: "load" });
          docs.delete(url);
          t.mark("goto");
          if (mode === "setContent") {
            await page.setContent(html);
            t.mark("setContent");
          }
          const r = await doOpts(page, opts, t);
          const latency = t.since();
          if (blankHop) {
            await page.goto("about:blank");
            t.mark("blank");
          }
          return { ...r, latency, cycle: t.since(), phases: t.phases };
        },
        close: () => ctx.close(),
      };
    },
  };
}

function blankResetDesign(key: string, name: string, cdpCleanup: boolean, bench = true): Design {
  return {
    key,
    name,
    bench,
    async makeSlot(browser) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      const cdp: CDPSession = await ctx.newCDPSession(page);
      return {
        async render(html, opts) {
          const t = phaseTimer();
          await page.setContent(html);
          t.mark("setContent");
          const r = await doOpts(page, opts, t);
          const latency = t.since();
          await page.goto("about:blank");
          t.mark("blank");
          if (cdpCleanup) {
            // setContent documents live on about:blank (opaque origin); clear a concrete origin anyway so
            // the measured cost is that of a real clear call.
            await cdp.send("Storage.clearDataForOrigin", { origin: "http://render.folio.invalid", storageTypes: "all" });
            t.mark("cdpClearOrigin");
            await cdp.send("Network.clearBrowserCookies");
            t.mark("cdpClearCookies");
            await cdp.send("Network.clearBrowserCache");
            t.mark("cdpClearCache");
          }
          return { ...r, latency, cycle: t.since(), phases: t.phases };
        },
        close: () => ctx.close(),
      };
    },
  };
}


/**
 * Recommended shape: warm context + page(s) per slot, HTML via setContent into an about:blank
 * (opaque-origin) document, every request aborted, reset = navigate to about:blank (new Document +
 * new Window => JS globals, timers, workers, listeners gone), window.name cleared by an init script,
 * popups closed. With pagesPerSlot=2 the reset of one page overlaps the render on the other.
 */
/** Context used by R/R2/R3: everything aborted, window.name wiped on every new document. */
async function hardenedContext(browser: Browser): Promise<BrowserContext> {
  const ctx = await browser.newContext({ serviceWorkers: "block" });
  await ctx.route("**/*", (r) => r.abort("blockedbyclient"));
  await ctx.addInitScript(() => {
    window.name = "";
  });
  return ctx;
}

/** One navigation per render to a data: URL (fresh Document/Window, opaque origin); no separate reset. */
function dataUrlDesign(key: string, name: string): Design {
  return {
    key,
    name,
    async makeSlot(browser) {
      const ctx = await hardenedContext(browser);
      const page = await ctx.newPage();
      page.on("popup", (pp) => void pp.close().catch(() => {}));
      return {
        async render(html, opts) {
          const t = phaseTimer();
          for (const p of ctx.pages()) if (p !== page) await p.close().catch(() => {});
          await page.goto("data:text/html;base64," + Buffer.from(html, "utf8").toString("base64"));
          t.mark("gotoData");
          const r = await doOpts(page, opts, t);
          const latency = t.since();
          return { ...r, latency, cycle: latency, phases: t.phases };
        },
        close: () => ctx.close(),
      };
    },
  };
}

function hardenedDesign(key: string, name: string, pagesPerSlot: number): Design {
  return {
    key,
    name,
    async makeSlot(browser) {
      const ctx = await hardenedContext(browser);
      const pages: Page[] = [];
      for (let i = 0; i < pagesPerSlot; i++) {
        const p = await ctx.newPage();
        p.on("popup", (pp) => void pp.close().catch(() => {}));
        pages.push(p);
      }
      const own = new Set(pages);
      const ready: Promise<void>[] = pages.map(() => Promise.resolve());
      let turn = 0;
      const reset = async (page: Page) => {
        await page.goto("about:blank");
        for (const p of ctx.pages()) if (!own.has(p)) await p.close().catch(() => {});
      };
      return {
        async render(html, opts) {
          const t = phaseTimer();
          const i = turn++ % pages.length;
          const page = pages[i] as Page;
          await ready[i];
          t.mark("waitReset");
          await page.setContent(html);
          t.mark("setContent");
          const r = await doOpts(page, opts, t);
          const latency = t.since();
          const rp = reset(page);
          if (pages.length === 1) {
            await rp;
            t.mark("blank");
          } else {
            ready[i] = rp.catch(() => {});
          }
          return { ...r, latency, cycle: t.since(), phases: t.phases };
        },
        idle: async () => {
          await Promise.all(ready);
        },
        close: async () => {
          await Promise.all(ready);
          await ctx.close();
        },
      };
    },
  };
}

const DESIGNS: Design[] = [
  RAW,
  NEWCTX,
  PRECTX,
  routeDesign("d", "WARM + UNIQUE ORIGIN (route-fulfilled goto)", "goto", true),
  routeDesign("d2", "WARM + UNIQUE ORIGIN blank doc + setContent", "setContent", true),
  routeDesign("d3", "d without about:blank hop", "goto", false, false, false),
  routeDesign("d4", "d with unique site r-N.invalid", "goto", true, true, false),
  blankResetDesign("e", "WARM + about:blank + CDP clears", true),
  blankResetDesign("e0", "WARM + about:blank only", false, false),
  hardenedDesign("R", "RECOMMENDED: e0 + route-abort + name reset + popup kill", 1),
  hardenedDesign("R2", "R with 2 pages/slot, reset off critical path", 2),
  dataUrlDesign("R3", "R but one goto(data: URL) per render, no reset hop"),
];

// ---------------------------------------------------------------------------------------------
// Bench driver
// ---------------------------------------------------------------------------------------------
let seqNo = 0;
type RunResult = {
  key: string;
  conc: number;
  rps: number;
  p50: number;
  p95: number;
  cycleP50: number;
  phases: Record<string, number>;
  pages: number;
  bytes: number;
  load: string;
  cpuMsPerRender: number;
};

/** CPU ms used so far by this node process plus all its descendants (chromium), incl. reaped children. */
function cpuMsTotal(): number {
  const u = process.cpuUsage();
  let ms = (u.user + u.system) / 1000;
  const t = procTable();
  const kids = new Map<number, number[]>();
  for (const p of t) kids.set(p.ppid, [...(kids.get(p.ppid) ?? []), p.pid]);
  const stack = [process.pid];
  const seen = new Set<number>();
  while (stack.length) {
    const p = stack.pop() as number;
    for (const k of kids.get(p) ?? []) {
      if (seen.has(k)) continue;
      seen.add(k);
      stack.push(k);
      try {
        const stat = fs.readFileSync(`/proc/${k}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        ms += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10; // CLK_TCK=100
      } catch {
        /* gone */
      }
    }
  }
  return ms;
}

async function drive(slots: Slot[], total: number) {
  let next = 0;
  const lat: number[] = [];
  const cyc: number[] = [];
  const phases: Record<string, number[]> = {};
  let firstPdf: Buffer | null = null;
  const t0 = now();
  await Promise.all(
    slots.map(async (s) => {
      while (next < total) {
        next++;
        const r = await s.render(invoiceHtml(++seqNo));
        lat.push(r.latency);
        cyc.push(r.cycle);
        for (const [k, v] of Object.entries(r.phases)) (phases[k] ??= []).push(v);
        if (!firstPdf && r.pdf) firstPdf = r.pdf;
      }
    }),
  );
  const wall = now() - t0;
  return { wall, lat, cyc, phases, firstPdf: firstPdf as Buffer | null };
}

async function bench() {
  const browser = await launch();
  log(`chromium ${browser.version()}  cpus=${os.cpus().length}  N=${N} N_SLOW=${N_SLOW} WARM=${WARM} ROUNDS=${ROUNDS}`);
  const results: RunResult[] = [];
  const t0 = now();
  const designs = DESIGNS.filter((d) => d.bench !== false);
  for (const conc of [1, 2]) {
    type Acc = { slots: Slot[]; wall: number; cpu: number; lat: number[]; cyc: number[]; phases: Record<string, number[]>; n: number; pdf: Buffer | null; loads: number[] };
    const acc = new Map<string, Acc>();
    for (const d of designs) {
      const slots = await Promise.all(Array.from({ length: conc }, () => d.makeSlot(browser)));
      await drive(slots, WARM);
      await Promise.all(slots.map((s) => s.idle?.()));
      acc.set(d.key, { slots, wall: 0, cpu: 0, lat: [], cyc: [], phases: {}, n: 0, pdf: null, loads: [] });
    }
    for (let round = 0; round < ROUNDS; round++) {
      // rotate the order each round
      const order = designs.map((_, i) => designs[(i + round) % designs.length] as Design);
      for (const d of order) {
        const a = acc.get(d.key) as Acc;
        const total = d.key === "b" || d.key === "c" ? N_SLOW : N;
        const n = Math.round(((round + 1) * total) / ROUNDS) - Math.round((round * total) / ROUNDS);
        a.loads.push(os.loadavg()[0] ?? 0);
        const c0 = cpuMsTotal();
        const t = now();
        const r = await drive(a.slots, n);
        await Promise.all(a.slots.map((s) => s.idle?.()));
        a.wall += now() - t;
        a.cpu += cpuMsTotal() - c0;
        a.n += n;
        a.lat.push(...r.lat);
        a.cyc.push(...r.cyc);
        for (const [k, v] of Object.entries(r.phases)) (a.phases[k] ??= []).push(...v);
        a.pdf ??= r.firstPdf;
      }
    }
    for (const d of designs) {
      const a = acc.get(d.key) as Acc;
      await Promise.all(a.slots.map((s) => s.close()));
      const phaseP50: Record<string, number> = {};
      for (const [k, v] of Object.entries(a.phases)) phaseP50[k] = pct(v, 50);
      const r: RunResult = {
        key: d.key,
        conc,
        rps: (a.n / a.wall) * 1000,
        p50: pct(a.lat, 50),
        p95: pct(a.lat, 95),
        cycleP50: pct(a.cyc, 50),
        phases: phaseP50,
        pages: a.pdf ? pdfPageCount(a.pdf) : -1,
        bytes: a.pdf?.length ?? -1,
        load: (a.loads.reduce((x, y) => x + y, 0) / a.loads.length).toFixed(1),
        cpuMsPerRender: a.cpu / a.n,
      };
      results.push(r);
      log(
        `  [${d.key} c=${conc}] n=${a.n} ${f1(r.rps)} r/s p50=${f1(r.p50)}ms p95=${f1(r.p95)}ms cycle=${f1(r.cycleP50)}ms ` +
          `cpu=${f1(r.cpuMsPerRender)}ms/render pdfPages=${r.pages} ${r.bytes}B load1m=${r.load} phases=${JSON.stringify(Object.fromEntries(Object.entries(r.phases).map(([k, v]) => [k, Number(v.toFixed(1))])))}`,
      );
    }
  }
  log(`bench wall ${((now() - t0) / 1000).toFixed(1)}s`);
  await browser.close();

  log("\n| design | c | renders/s | p50 ms | p95 ms | cycle p50 | rps/RAW | p50/RAW | CPU ms/render | CPU/RAW |");
  log("|---|---|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    const raw = results.find((x) => x.key === "a" && x.conc === r.conc);
    log(
      `| ${r.key} ${DESIGNS.find((d) => d.key === r.key)?.name ?? ""} | ${r.conc} | ${f1(r.rps)} | ${f1(r.p50)} | ${f1(r.p95)} | ${f1(r.cycleP50)} | ` +
        `${raw ? (r.rps / raw.rps).toFixed(2) : "-"} | ${raw ? (r.p50 / raw.p50).toFixed(2) : "-"} | ${f1(r.cpuMsPerRender)} | ${raw ? (r.cpuMsPerRender / raw.cpuMsPerRender).toFixed(2) : "-"} |`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Micro: setContent alone vs pdf alone, plus goto-route alone
// ---------------------------------------------------------------------------------------------
async function micro() {
  const browser = await launch();
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  for (let i = 0; i < 10; i++) {
    await page.setContent(invoiceHtml(++seqNo));
    await page.pdf(PDF_OPTS);
  }
  const sc: number[] = [];
  const pd: number[] = [];
  for (let i = 0; i < 50; i++) {
    let t = now();
    await page.setContent(invoiceHtml(++seqNo));
    sc.push(now() - t);
    t = now();
    await page.pdf(PDF_OPTS);
    pd.push(now() - t);
  }
  const pdOnly: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t = now();
    await page.pdf(PDF_OPTS);
    pdOnly.push(now() - t);
  }
  const blank: number[] = [];
  const blankCommit: number[] = [];
  for (let i = 0; i < 40; i++) {
    await page.setContent(invoiceHtml(++seqNo));
    const t = now();
    await page.goto("about:blank", { waitUntil: i % 2 ? "commit" : "load" });
    (i % 2 ? blankCommit : blank).push(now() - t);
  }
  await ctx.close();
  const { ctx: rctx, docs } = await routedContext(browser);
  const rpage = await rctx.newPage();
  const go: number[] = [];
  for (let i = 0; i < 50; i++) {
    const url = `http://r-${++originCounter}.folio.invalid/`;
    docs.set(url, invoiceHtml(++seqNo));
    const t = now();
    await rpage.goto(url);
    if (i >= 10) go.push(now() - t);
    docs.delete(url);
  }
  const dataGo: number[] = [];
  const dpage = await (await hardenedContext(browser)).newPage();
  for (let i = 0; i < 40; i++) {
    const u = "data:text/html;base64," + Buffer.from(invoiceHtml(++seqNo), "utf8").toString("base64");
    const t = now();
    await dpage.goto(u);
    if (i >= 10) dataGo.push(now() - t);
  }
  await dpage.context().close();
  const nc: number[] = [];
  const np: number[] = [];
  const cc: number[] = [];
  for (let i = 0; i < 20; i++) {
    let t = now();
    const c = await browser.newContext();
    nc.push(now() - t);
    t = now();
    await c.newPage();
    np.push(now() - t);
    t = now();
    await c.close();
    cc.push(now() - t);
  }
  await browser.close();
  log(
    `micro p50 ms (c=1): setContent=${f1(pct(sc, 50))} pdf(after setContent)=${f1(pct(pd, 50))} pdf(repeat same doc)=${f1(pct(pdOnly, 50))} ` +
      `goto(about:blank)=${f1(pct(blank, 50))} goto(about:blank,commit)=${f1(pct(blankCommit, 50))} goto(route-fulfilled invoice)=${f1(pct(go, 50))} goto(data: invoice)=${f1(pct(dataGo, 50))} newContext=${f1(pct(nc, 50))} newPage=${f1(pct(np, 50))} ctx.close=${f1(pct(cc, 50))}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Process probe: distinct renderer processes used over 20 sequential renders per design
// ---------------------------------------------------------------------------------------------
function procTable() {
  const out: { pid: number; ppid: number; cmd: string }[] = [];
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmd = fs.readFileSync(`/proc/${d}/cmdline`, "utf8").replace(/\0/g, " ");
      out.push({ pid: Number(d), ppid, cmd });
    } catch {
      /* gone */
    }
  }
  return out;
}
function rendererPids(): number[] {
  const t = procTable();
  const kids = new Map<number, number[]>();
  for (const p of t) kids.set(p.ppid, [...(kids.get(p.ppid) ?? []), p.pid]);
  const desc = new Set<number>();
  const stack = [process.pid];
  while (stack.length) {
    const p = stack.pop() as number;
    for (const k of kids.get(p) ?? []) {
      if (desc.has(k)) continue;
      desc.add(k);
      stack.push(k);
    }
  }
  return t.filter((p) => desc.has(p.pid) && p.cmd.includes("--type=renderer")).map((p) => p.pid);
}
function cpuTicks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]);
  } catch {
    return NaN;
  }
}
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function procs() {
  const browser = await launch();
  const parts: string[] = [];
  for (const d of DESIGNS) {
    const slot = await d.makeSlot(browser);
    const seen = new Set<number>();
    for (let i = 0; i < 5; i++) {
      await slot.render(invoiceHtml(++seqNo), { pdf: i % 3 === 0 });
      for (const p of rendererPids()) seen.add(p);
    }
    await slot.close();
    parts.push(`${d.key}=${seen.size}`);
  }
  await browser.close();
  log(`distinct renderer pids seen over 5 renders: ${parts.join(" ")}`);
}

// ---------------------------------------------------------------------------------------------
// Leak probe: what state from render k is visible in render k+1 on the same slot?
// ---------------------------------------------------------------------------------------------
const SETTER = `<script>
(function(){
  window.__leak = "set";
  try { localStorage.setItem("leak", "1"); } catch (e) {}
  try { sessionStorage.setItem("leak", "1"); } catch (e) {}
  try { document.cookie = "hostc=1; path=/"; } catch (e) {}
  try { document.cookie = "domc=1; path=/; domain=" + location.hostname.split(".").slice(1).join("."); } catch (e) {}
  try { window.name = "leak"; } catch (e) {}
  try { indexedDB.open("leakdb"); } catch (e) {}
  try { caches.open("leak"); } catch (e) {}
  setInterval(function(){ try { document.documentElement.setAttribute("data-tick", "1"); } catch (e) {} }, 5);
  try { window.open("about:blank", "_blank"); } catch (e) {}
})();
</script>`;

async function readLeaks(page: Page) {
  const r = await page.evaluate(async () => {
    const w = window as unknown as Record<string, unknown>;
    const o: Record<string, unknown> = { origin: location.origin, secure: isSecureContext, global: w.__leak !== undefined };
    try { o.localStorage = localStorage.getItem("leak"); } catch { o.localStorage = "throws"; }
    try { o.sessionStorage = sessionStorage.getItem("leak"); } catch { o.sessionStorage = "throws"; }
    try { o.cookie = document.cookie; } catch { o.cookie = "throws"; }
    o.windowName = window.name;
    try { o.idb = (await indexedDB.databases()).map((d) => d.name).join(","); } catch { o.idb = "throws"; }
    try { o.caches = (await caches.keys()).join(","); } catch { o.caches = "n/a"; }
    await new Promise((res) => setTimeout(res, 100));
    o.oldTimerTouchesNewDoc = document.documentElement.hasAttribute("data-tick");
    return o;
  });
  return { ...r, pagesInContext: page.context().pages().length };
}

async function leaks() {
  const browser = await launch();
  for (const d of DESIGNS) {
    const slot = await d.makeSlot(browser);
    await slot.render(invoiceHtml(++seqNo, SETTER), { pdf: false });
    await sleep(50);
    const r = await slot.render(invoiceHtml(++seqNo), { pdf: false, probe: readLeaks });
    await slot.close();
    log(`leak[${d.key}] ${JSON.stringify(r.probe)}`);
  }
  await browser.close();
}

// ---------------------------------------------------------------------------------------------
// Network-blocking verification
// ---------------------------------------------------------------------------------------------
async function netblock() {
  const hits = { tcp: 0, http: [] as string[], upgrade: [] as string[], udp: 0 };
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith("/doc")) {
      const v = new URL(req.url, "http://x").searchParams.get("v") ?? "";
      res.writeHead(200, { "content-type": "text/html" });
      res.end(vectorDoc(port, v, "ctl"));
      return;
    }
    hits.http.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" });
    res.end("x");
  });
  server.on("connection", (s: Socket) => {
    hits.tcp++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("upgrade", (req, sock: Socket) => {
    hits.upgrade.push(req.url ?? "");
    sock.destroy();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const udp = dgram.createSocket("udp4");
  udp.on("message", () => hits.udp++);
  await new Promise<void>((r) => udp.bind(port, "127.0.0.1", r));

  const VECTORS = ["img", "cssbg", "fetch", "beacon", "iframe", "ws", "stun"];
  function vectorDoc(p: number, v: string, tag: string): string {
    const u = `http://127.0.0.1:${p}/${v}-${tag}`;
    const body: Record<string, string> = {
      img: `<img src="${u}">`,
      cssbg: `<div style="width:10px;height:10px;background:url(${u})"></div>`,
      fetch: `<script>fetch("${u}").catch(function(){})</script>`,
      beacon: `<script>try{navigator.sendBeacon("${u}","x")}catch(e){}</script>`,
      iframe: `<iframe src="${u}"></iframe>`,
      ws: `<script>try{var w=new WebSocket("ws://127.0.0.1:${p}/${v}-${tag}");w.onerror=function(){}}catch(e){}</script>`,
      stun: `<script>(async function(){try{var pc=new RTCPeerConnection({iceServers:[{urls:"stun:127.0.0.1:${p}"}]});pc.createDataChannel("x");await pc.setLocalDescription(await pc.createOffer());}catch(e){}})()</script>`,
    };
    return `<!doctype html><html><body><p>${v}</p>${body[v] ?? ""}</body></html>`;
  }

  type Cfg = { name: string; proxy: boolean; extraArgs?: string[]; route: boolean; wsRoute?: boolean; load: "server" | "setContent" | "goto" };
  const CFGS: Cfg[] = [
    { name: "control: no proxy, doc served from the test server", proxy: false, route: false, load: "server" },
    { name: "no proxy, setContent (about:blank), no route", proxy: false, route: false, load: "setContent" },
    { name: "no proxy, route abort, unique-origin goto", proxy: false, route: true, load: "goto" },
    { name: "no proxy, route abort + routeWebSocket, unique-origin goto", proxy: false, route: true, wsRoute: true, load: "goto" },
    { name: "proxy flags only, setContent, no route", proxy: true, route: false, load: "setContent" },
    { name: "DESIGN d: proxy flags + route abort, unique-origin goto", proxy: true, route: true, load: "goto" },
    {
      name: "d + --webrtc-ip-handling-policy=disable_non_proxied_udp",
      proxy: true,
      route: true,
      load: "goto",
      extraArgs: ["--webrtc-ip-handling-policy=disable_non_proxied_udp"],
    },
  ];
  for (const cfg of CFGS) {
    const browser = await launch(cfg.extraArgs ?? [], cfg.proxy);
    const parts: string[] = [];
    for (const v of VECTORS) {
      let ctx: BrowserContext;
      let docs: Map<string, string> | null = null;
      if (cfg.route) ({ ctx, docs } = await routedContext(browser));
      else ctx = await browser.newContext();
      if (cfg.wsRoute) await ctx.routeWebSocket(/.*/, (ws) => void ws.close());
      const page = await ctx.newPage();
      const errs: string[] = [];
      page.on("requestfailed", (r) => errs.push(`${r.resourceType()}:${r.failure()?.errorText ?? "?"}`));
      page.on("websocket", (ws) => ws.on("socketerror", (e) => errs.push(`ws:${e}`)));
      const before = { tcp: hits.tcp, http: hits.http.length, up: hits.upgrade.length, udp: hits.udp };
      try {
        if (cfg.load === "server") await page.goto(`http://127.0.0.1:${port}/doc?v=${v}`, { timeout: 5000 });
        else if (cfg.load === "setContent") await page.setContent(vectorDoc(port, v, "t"), { timeout: 5000 });
        else {
          const url = `http://r-${++originCounter}.folio.invalid/`;
          docs?.set(url, vectorDoc(port, v, "t"));
          await page.goto(url, { timeout: 5000 });
        }
      } catch (e) {
        errs.push(`load:${(e as Error).message.split("\n")[0]}`);
      }
      await sleep(600);
      await ctx.close();
      await sleep(50);
      const tcp = hits.tcp - before.tcp - (cfg.load === "server" ? 0 : 0);
      const req = hits.http.length - before.http;
      const up = hits.upgrade.length - before.up;
      const u = hits.udp - before.udp;
      const got = cfg.load === "server" ? `req=${req} up=${up} udp=${u}` : `tcp=${tcp} req=${req} up=${up} udp=${u}`;
      parts.push(`${v}{${got}${errs.length ? " err=" + [...new Set(errs)].join("|") : ""}}`);
    }
    await browser.close();
    log(`net[${cfg.name}]\n    ${parts.join("\n    ")}`);
  }
  for (const s of sockets) s.destroy();
  server.close();
  udp.close();
}

// ---------------------------------------------------------------------------------------------
// Stuck page (while(true){}) and OOM behaviour
// ---------------------------------------------------------------------------------------------
async function timed<T>(p: Promise<T>, ms: number): Promise<{ ms: number; ok: boolean; err?: string }> {
  const t = now();
  let timer: NodeJS.Timeout | undefined;
  const r = await Promise.race([
    p.then(
      () => ({ ok: true as boolean, err: undefined as string | undefined }),
      (e: Error) => ({ ok: false, err: e.message.split("\n")[0] }),
    ),
    new Promise<{ ok: boolean; err?: string }>((res) => (timer = setTimeout(() => res({ ok: false, err: `timeout ${ms}ms` }), ms))),
  ]);
  clearTimeout(timer);
  return { ms: now() - t, ...r };
}

async function busyRenderers(): Promise<string> {
  const pids = rendererPids();
  const a = new Map(pids.map((p) => [p, cpuTicks(p)]));
  await sleep(1000);
  const hz = 100;
  return pids.map((p) => `${p}:${Math.round(((cpuTicks(p) - (a.get(p) ?? 0)) / hz) * 100)}%`).join(" ") || "(none)";
}

async function stuck() {
  const browser = await launch();
  for (const how of ["page.close", "context.close"] as const) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const other = await ctx.newPage();
    await page.setContent("<p>spin</p>");
    await other.setContent("<p>other</p>");
    const pidsBefore = rendererPids();
    void page.evaluate(() => {
      for (;;) {
        /* spin */
      }
    }).catch(() => {});
    await sleep(500);
    const pdfWhileStuck = await timed(page.pdf(PDF_OPTS), 3000);
    const r = await timed(how === "page.close" ? page.close() : ctx.close(), 20000);
    const otherOk = how === "page.close" ? await timed(other.setContent("<p>ok</p>"), 5000) : null;
    await sleep(300);
    log(
      `stuck[${how}] pdf-while-stuck: ${pdfWhileStuck.ok ? "ok" : pdfWhileStuck.err} after ${f1(pdfWhileStuck.ms)}ms; ` +
        `${how} -> ${r.ok ? "returned" : r.err} in ${f1(r.ms)}ms; other page in same ctx usable: ${otherOk ? otherOk.ok + " (" + f1(otherOk.ms) + "ms)" : "n/a"}; ` +
        `renderers before=${pidsBefore.join(",")} cpu over next 1s: ${await busyRenderers()}`,
    );
    if (how === "page.close") await ctx.close();
  }
  // A fresh render still works afterwards?
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const ok = await timed(page.setContent(invoiceHtml(1)).then(() => page.pdf(PDF_OPTS)), 10000);
  log(`stuck: render in a new context afterwards ${ok.ok ? "ok" : ok.err} (${f1(ok.ms)}ms)`);
  await ctx.close();
  await browser.close();
}

async function oomOnce(extraArgs: string[], timeoutMs: number) {
  const browser = await launch(extraArgs);
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.setContent("<p>alloc</p>");
  let peak = 0;
  const sampler = setInterval(() => {
    const total = rendererPids().reduce((s, p) => s + rssMb(p), 0);
    peak = Math.max(peak, total);
  }, 200);
  const t0 = now();
  const crashed = new Promise<number>((res) => page.once("crash", () => res(now() - t0)));
  let evalErr = "";
  void page
    .evaluate(() => {
      const keep: number[][] = [];
      for (;;) keep.push(new Array(1 << 20).fill(Math.random()));
    })
    .catch((e: Error) => (evalErr = e.message.split("\n")[0] ?? ""));
  const crashMs = await Promise.race([crashed, sleep(timeoutMs).then(() => -1)]);
  clearInterval(sampler);
  const closeT = await timed(page.close(), 15000);
  const p2 = await ctx.newPage();
  const after = await timed(p2.setContent(invoiceHtml(2)).then(() => p2.pdf(PDF_OPTS)), 10000);
  await browser.close();
  return `crash=${crashMs < 0 ? `NO crash within ${timeoutMs}ms` : f1(crashMs) + "ms"} peakRendererRSS=${Math.round(peak)}MB evalErr="${evalErr}" ` +
    `page.close after: ${closeT.ok ? "ok" : closeT.err} ${f1(closeT.ms)}ms; new page in same ctx renders: ${after.ok ? "ok" : after.err}`;
}

async function oom() {
  log(`oom[--js-flags=--max-old-space-size=256] ${await oomOnce(["--js-flags=--max-old-space-size=256"], 60000)}`);
  log(`oom[default heap limit] ${await oomOnce([], 40000)}`);
}

async function main() {
  const t0 = now();
  log(`load avg at start: ${os.loadavg().map((x) => x.toFixed(2)).join("/")}`);
  const step = async (name: string, fn: () => Promise<void>) => {
    if (!ONLY.has(name)) return;
    const t = now();
    log(`\n== ${name} ==`);
    try {
      await fn();
    } catch (e) {
      log(`${name} FAILED: ${(e as Error).stack}`);
    }
    log(`(${name} took ${((now() - t) / 1000).toFixed(1)}s)`);
  };
  await step("leak", leaks);
  await step("net", netblock);
  await step("procs", procs);
  await step("micro", micro);
  await step("bench", bench);
  await step("stuck", stuck);
  await step("oom", oom);
  log(`\ntotal ${((now() - t0) / 1000).toFixed(1)}s`);
}

void main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
