/**
 * npm run bench -- --sandbox: the template sandbox (lib/sandbox) alone, no server or database.
 * - a step's overhead: the same small template through runSandbox and through plain Handlebars
 *   in this process (compiled afresh each time there; the sandbox compiles a source once and keeps it), p50;
 * - a 500-row table with two helpers from helpers.js, p50 (issue 25: <= 50 ms; <= 5 ms overhead);
 * - the run right after one killed at the 2 s limit, against the p50 of the same run;
 * - the sandbox process's RSS over 1,000 runs in a row.
 */
import fs from "node:fs";
import Handlebars from "handlebars";
import { runSandbox, sandboxPids, stopSandbox, warmSandbox, type SandboxJob } from "../lib/sandbox";
import { drive, stats, warm } from "./measure";

const SMALL = `<h1>Invoice {{number}}</h1><p>{{customer.name}}<br>{{customer.street}}<br>{{customer.city}}</p>
<table>{{#each items}}<tr><td>{{@index}}</td><td>{{name}}</td><td>{{qty}}</td><td>{{price}}</td></tr>{{/each}}</table>
{{#if note}}<p>{{note}}</p>{{/if}}<p>Total {{total}}</p>`;
const smallData = {
  number: "2026-0042",
  customer: { name: "Acme AG", street: "Bahnhofstrasse 1", city: "8001 Zürich" },
  items: Array.from({ length: 5 }, (_, i) => ({ name: `Item ${i}`, qty: i + 1, price: (i + 1) * 9.5 })),
  note: "Thank you",
  total: 142.5,
};

const TABLE = `<table>{{#each rows}}<tr><td>{{id}}</td><td>{{upper name}}</td><td>{{sku}}</td><td class="n">{{money price currency="CHF"}}</td></tr>{{/each}}</table>`;
const HELPERS = `
function upper(s) { return String(s).toUpperCase(); }
function money(n, options) { return options.hash.currency + " " + Number(n).toFixed(2).replace(/\\B(?=(\\d{3})+(?!\\d))/g, "'"); }`;
const tableData = { rows: Array.from({ length: 500 }, (_, i) => ({ id: i + 1, name: `Product number ${i}`, sku: `SKU-${100000 + i}`, price: 1000 + i * 13.37 })) };

const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${sandboxPids()[0]}/status`, "utf8"))![1]) / 1024;

export async function sandboxBench({ quick }: { quick: boolean }): Promise<string[]> {
  const lines: string[] = [];
  await warmSandbox();
  const small: SandboxJob = { steps: [{ name: "template", source: SMALL }], data: smallData };
  const table: SandboxJob = { steps: [{ name: "template", source: TABLE }], helpers: HELPERS, data: tableData };
  const n = quick ? 100 : 400;

  await warm(20, 1, async () => void (await runSandbox(small)));
  const plainOne = async () => void Handlebars.create().compile(SMALL)(smallData);
  await warm(20, 1, plainOne);
  // Interleaved blocks, so that the machine's load falls on both alike.
  const sandboxed: number[] = [];
  const plain: number[] = [];
  for (let b = 0; b < 4; b++) {
    sandboxed.push(...(await drive(n / 4, 1, async () => void (await runSandbox(small)))).latencies);
    plain.push(...(await drive(n / 4, 1, plainOne)).latencies);
  }
  const [s, p] = [stats(sandboxed, 1), stats(plain, 1)];
  lines.push(`Sandbox step (small invoice template): p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms; plain Handlebars in process p50 ${p.p50.toFixed(2)} ms: overhead p50 ${(s.p50 - p.p50).toFixed(2)} ms (<= 5)`);

  await warm(5, 1, async () => void (await runSandbox(table)));
  const t = stats((await drive(quick ? 30 : 100, 1, async () => void (await runSandbox(table)))).latencies, 1);
  const tablePlain = stats(
    (
      await drive(quick ? 30 : 100, 1, async () => {
        const hb = Handlebars.create();
        hb.registerHelper("upper", (v: unknown) => String(v).toUpperCase());
        hb.registerHelper("money", (v: unknown, o: Handlebars.HelperOptions) => `${o.hash.currency} ${Number(v).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, "'")}`);
        hb.compile(TABLE)(tableData);
      })
    ).latencies,
    1,
  );
  lines.push(`500-row table, two helpers from helpers.js: p50 ${t.p50.toFixed(2)} ms, p95 ${t.p95.toFixed(2)} ms (<= 50); plain Handlebars in process p50 ${tablePlain.p50.toFixed(2)} ms`);

  const spin: SandboxJob = { steps: [{ name: "template", source: "{{spin}}" }], helpers: "function spin() { for (;;); }", data: {} };
  const after: number[] = [];
  for (let i = 0; i < (quick ? 2 : 5); i++) {
    await runSandbox(spin).catch(() => {});
    const started = performance.now();
    await runSandbox(small);
    after.push(performance.now() - started);
  }
  lines.push(`Run right after one killed at the 2 s limit: ${after.map((x) => x.toFixed(2)).join(", ")} ms (the step's p50 ${s.p50.toFixed(2)} ms)`);

  const samples: string[] = [];
  const start = rss();
  for (let i = 1; i <= 1000; i++) {
    await runSandbox(i % 10 === 0 ? table : small);
    if (i % 250 === 0) samples.push(`${rss().toFixed(0)}`);
  }
  lines.push(`Sandbox process RSS over 1,000 runs (one in ten the table): ${start.toFixed(0)} MiB at start, ${samples.join(" / ")} MiB after 250 / 500 / 750 / 1,000`);
  await stopSandbox();
  return lines;
}
