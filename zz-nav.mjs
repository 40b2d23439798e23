import { chromium } from "playwright-core";
import fs from "node:fs";
const b = await chromium.launch({ executablePath: process.env.EXE ?? "/usr/bin/chromium", args: ["--js-flags=" + (process.env.JSF ?? "--max-opt=1"), ...(process.env.XARGS ? process.env.XARGS.split(" ") : [])] });
const cpu = () => { const by = {}; for (const p of fs.readdirSync("/proc")) { if (!/^\d+$/.test(p)) continue; try { const c = fs.readFileSync(`/proc/${p}/cmdline`, "utf8"); if (!c.includes("chrom")) continue; const f = fs.readFileSync(`/proc/${p}/stat`, "utf8"); const x = f.slice(f.lastIndexOf(")") + 2).split(" "); const type = (c.match(/--type=([a-z-]+)/) || [, "browser"])[1]; by[type] = (by[type] ?? 0) + (+x[11] + +x[12]); } catch {} } return by; };
const c = await b.newContext(); const p = await c.newPage();
const http = await import("node:http");
const srv = http.createServer((q, r) => { r.setHeader("content-type", "text/html"); r.end(`<title>t</title><p>hi ${q.url}</p>`); }).listen(0);
await new Promise((r) => srv.once("listening", r));
const base = `http://127.0.0.1:${srv.address().port}`;
await p.goto(base + "/warm"); await p.locator("p").textContent();
const N = 20; const a = cpu(); const s = Date.now();
for (let i = 0; i < N; i++) { await p.goto(`${base}/p${i}`); if (process.env.MODE === "query") await p.locator("p").textContent(); }
const z = cpu();
console.log(process.env.MODE, "wall/nav", (Date.now() - s) / N, Object.fromEntries(Object.keys(z).map((k) => [k, ((z[k] - (a[k] ?? 0)) / N).toFixed(1)])));
await b.close(); srv.close();
