/**
 * The TypeScript client and its command line against the real server (the test setup's web server,
 * worker, PostgreSQL and Chromium): waits that use the server's waitMs (no polling), retries as the
 * API's rules say (a real 429 with Retry-After; a lost answer retried only with an Idempotency-Key),
 * the error class, downloads, and the CLI end to end on temporary files.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/client";
import { workspaces } from "@/lib/db/schema";
import { createTestWorkspace } from "@/lib/testing/factories";
import { startRenderHolds, type RenderHolds } from "@/lib/testing/held-renders";
import { api } from "@/lib/testing/http";
import { main } from "./cli";
import { Folio, FolioError } from "./index";
import { downloadRender } from "./node";

type Seen = { method: string; url: string; idempotencyKey?: string; status?: number; retryAfter?: string | null };

/** A Folio whose every request is recorded (what the client really sent and got). */
function recorded(key: string, options: { loseFirstAnswer?: boolean } = {}) {
  const seen: Seen[] = [];
  let lost = false;
  const client = new Folio({
    apiKey: key,
    baseUrl: inject("baseUrl"),
    fetch: async (input, init) => {
      const entry: Seen = { method: init?.method ?? "GET", url: String(input), idempotencyKey: (init?.headers as Record<string, string> | undefined)?.["idempotency-key"] };
      seen.push(entry);
      const res = await fetch(input, init);
      entry.status = res.status;
      entry.retryAfter = res.headers.get("retry-after");
      // The request reached the server and was carried out; its answer is lost on the way back.
      if (options.loseFirstAnswer && !lost) {
        lost = true;
        await res.arrayBuffer();
        throw new TypeError("fetch failed: the connection was reset");
      }
      return res;
    },
  });
  return { client, seen };
}

let holds: RenderHolds;
let tmp: string;
beforeAll(async () => {
  holds = await startRenderHolds();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "folio-client-"));
});
afterAll(async () => {
  await holds?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the client", () => {
  it("renders and waits with the server's waitMs: one request while a held render runs, none in a loop; downloads the file", { timeout: 60_000 }, async () => {
    const w = await createTestWorkspace();
    const { client, seen } = recorded(w.key);
    const held = await holds.hold(w, { document: { html: "<p>held</p>" } });
    const waiting = client.renders.waitFor(held.id, { timeoutMs: 30_000 });
    await new Promise((r) => setTimeout(r, 1500));
    held.release();
    const ended = await waiting;
    expect(ended.state).toBe("succeeded");
    // why at most 2: a wait is one GET held by the server until the end; a poller would have sent dozens.
    expect(seen.filter((s) => s.url.includes(`/v1/renders/${held.id}`)).length).toBeLessThanOrEqual(2);
    expect(seen.every((s) => s.url.includes("waitMs="))).toBe(true);

    const r = await client.renders.createAndWait({ document: { html: "<h1>From the client</h1>" } });
    expect(r.state).toBe("succeeded");
    const file = path.join(tmp, "client.pdf");
    const bytes = await downloadRender(client, r.id, file);
    expect(bytes).toBe(r.result?.outputBytes);
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
    expect(fs.existsSync(`${file}.part`)).toBe(false);
  });

  it("gives up with RENDER_TIMEOUT after timeoutMs, and a batch's wait follows every item to its end", { timeout: 60_000 }, async () => {
    const w = await createTestWorkspace();
    const { client } = recorded(w.key);
    const held = await holds.hold(w, { document: { html: "<p>never in time</p>" } });
    const e = await client.renders.waitFor(held.id, { timeoutMs: 600 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FolioError);
    expect(e).toMatchObject({ code: "RENDER_TIMEOUT", status: 0, retryable: true });
    held.release();

    const batch = await client.batches.create({ items: [{ document: { html: "<p>1</p>" } }, { document: { html: "<p>2</p>" } }] });
    const done = await client.batches.waitFor(batch.id, { timeoutMs: 45_000 });
    expect(done.counts).toMatchObject({ queued: 0, processing: 0, succeeded: 2 });
  });

  it("retries a real 429 after its Retry-After, and only then", { timeout: 60_000 }, async () => {
    const w = await createTestWorkspace();
    await db().update(workspaces).set({ maxActiveRenders: 1 }).where(eq(workspaces.id, w.id));
    const held = await holds.hold(w, { document: { html: "<p>takes the only slot</p>" } });
    const { client, seen } = recorded(w.key);
    setTimeout(() => held.release(), 300);
    const started = performance.now();
    const r = await client.renders.create({ document: { html: "<p>second</p>" } });
    expect(r.id).toMatch(/^rnd_/);
    const posts = seen.filter((s) => s.method === "POST");
    expect(posts[0]).toMatchObject({ status: 429, retryAfter: "1" });
    expect(posts.at(-1)!.status).toBeLessThan(300);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);

    // Not retryable: answered at once, as one FolioError with what the server said.
    const bad = await client.renders.create({ document: { html: "<p>x</p>" }, format: "gif" } as never).catch((x: unknown) => x);
    expect(bad).toBeInstanceOf(FolioError);
    expect(bad).toMatchObject({ code: "BAD_REQUEST", status: 400, retryable: false, requestId: expect.stringMatching(/\S/) });
    expect((bad as FolioError).details[0]?.path).toBe("format");
    expect(seen.filter((s) => s.method === "POST").length).toBe(posts.length + 1);
  });

  it("after a lost answer, retries a GET and a render POST (with its one Idempotency-Key: one render), never a POST that takes no key", { timeout: 60_000 }, async () => {
    const w = await createTestWorkspace();
    const keyed = recorded(w.key, { loseFirstAnswer: true });
    const r = await keyed.client.renders.create({ document: { html: "<p>once</p>" } });
    const posts = keyed.seen.filter((s) => s.method === "POST");
    expect(posts).toHaveLength(2);
    expect(posts[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1]!.idempotencyKey).toBe(posts[0]!.idempotencyKey);
    // A folder POST takes no key: its lost answer is the caller's to handle, and it was carried out once.
    const unkeyed = recorded(w.key, { loseFirstAnswer: true });
    const e = await unkeyed.client.post("/v1/workspace-folders", { body: { name: "once" } }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "NETWORK", status: 0, retryable: false });
    expect(unkeyed.seen).toHaveLength(1);
    const folders = await api<{ items: { name: string }[] }>("/v1/workspace-folders?parentId=root", { key: w.key });
    expect(folders.body.items.map((f) => f.name)).toEqual(["once"]);
    // A GET is always retried after a lost answer.
    const reader = recorded(w.key, { loseFirstAnswer: true });
    expect((await reader.client.renders.get(r.id)).id).toBe(r.id);
    expect(reader.seen.map((x) => x.method)).toEqual(["GET", "GET"]);
    // The keyed call's two POSTs made one render.
    const list = await api<{ items: { id: string }[] }>("/v1/renders", { key: w.key });
    expect(list.body.items.map((i) => i.id)).toEqual([r.id]);
  });

  it("answers a report's file as bytes, with the render that made it", { timeout: 60_000 }, async () => {
    const w = await createTestWorkspace();
    const t = await api("/v1/templates", { key: w.key, body: { name: "Bytes report", kind: "handlebars", content: { templateHtml: "<p>Hello {{name}}</p>" } } });
    expect(t.status, t.text).toBe(201);
    expect((await api(`/v1/templates/${t.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } })).status).toBe(201);
    const { client } = recorded(w.key);
    const bytes = await client.post("/v1/reports/render", { body: { format: "pdf", template: { name: "Bytes report" }, data: { name: "Ada" } } });
    expect(Buffer.from(bytes).subarray(0, 5).toString()).toBe("%PDF-");
    const report = await client.reports.render({ format: "html", template: { name: "Bytes report" }, data: { name: "Ada" } });
    expect(new TextDecoder().decode(report.bytes)).toContain("Hello Ada");
    expect(report.contentType).toMatch(/^text\/html/);
  });
});

/** Runs the CLI in this process, capturing what it prints. */
async function cli(args: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  const write = process.stderr.write.bind(process.stderr);
  console.log = (...a: unknown[]) => void out.push(a.join(" "));
  console.error = (...a: unknown[]) => void err.push(a.join(" "));
  process.stderr.write = ((chunk: string) => (err.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    const code = await main(args, env);
    return { code, stdout: out.join("\n"), stderr: err.join("") };
  } finally {
    console.log = log;
    console.error = error;
    process.stderr.write = write;
  }
}

describe("the command line", () => {
  it("renders an HTML file and a template by name to files, lists, and answers errors with their exit codes", { timeout: 90_000 }, async () => {
    const w = await createTestWorkspace();
    const env = { FOLIO_API_KEY: w.key, FOLIO_URL: inject("baseUrl") };
    const html = path.join(tmp, "letter.html");
    fs.writeFileSync(html, "<h1>Dear reader</h1>");
    const r = await cli(["render", html, "-o", path.join(tmp, "letter.pdf")], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/letter\.pdf: 1 page\(s\), \d+ bytes/);
    expect(r.stderr).toMatch(/Rendering/);
    expect(fs.readFileSync(path.join(tmp, "letter.pdf")).subarray(0, 5).toString()).toBe("%PDF-");

    const t = await api("/v1/templates", { key: w.key, body: { name: "CLI letter", kind: "handlebars", content: { templateHtml: "<p>Hello {{name}}</p>" } } });
    expect(t.status, t.text).toBe(201);
    expect((await api(`/v1/templates/${t.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } })).status).toBe(201);
    fs.writeFileSync(path.join(tmp, "data.json"), JSON.stringify({ name: "Ada" }));
    const byName = await cli(["render", "--template", "CLI letter", "--data", path.join(tmp, "data.json"), "--format", "png", "-o", path.join(tmp, "letter.png"), "--json"], env);
    expect(byName.code, byName.stderr).toBe(0);
    expect(JSON.parse(byName.stdout)).toMatchObject({ state: "succeeded", format: "png", templateVersionId: expect.stringMatching(/^tv_/) });
    expect(fs.readFileSync(path.join(tmp, "letter.png")).subarray(1, 4).toString()).toBe("PNG");

    const list = await cli(["templates", "list", "--json"], env);
    expect(JSON.parse(list.stdout).items.map((i: { name: string }) => i.name)).toContain("CLI letter");
    expect((await cli(["renders", "list"], env)).stdout).toMatch(/rnd_\S+\s+succeeded\s+png/);

    expect((await cli(["render", html], { FOLIO_URL: inject("baseUrl") })).code).toBe(2); // no key
    expect((await cli(["frobnicate"], env)).code).toBe(2);
    expect((await cli(["render", html], { ...env, FOLIO_API_KEY: "fk_wrong" })).code).toBe(3);
    const missing = await cli(["render", "--template", "No such template"], env);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/NOT_FOUND: No template is named "No such template"/);
    // An invalid batch item: the server's BAD_REQUEST, exit 5.
    fs.writeFileSync(path.join(tmp, "items.json"), JSON.stringify([{ document: { html: "<p>fine</p>" } }, { document: {} }]));
    const invalid = await cli(["batch", path.join(tmp, "items.json"), "--json"], env);
    expect(invalid.code).toBe(5);
    expect(JSON.parse(invalid.stdout).error).toMatchObject({ code: "BAD_REQUEST", status: 400, message: expect.stringMatching(/^Batch item 1:/) });

    const report = await cli(["report", "--template", "CLI letter", "--data", path.join(tmp, "data.json"), "-o", path.join(tmp, "report.pdf")], env);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/report\.pdf: 1 page\(s\), \d+ bytes, in [\d.]+ s \(render rnd_\S+\)/);
    expect(fs.readFileSync(path.join(tmp, "report.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
    const reports = await cli(["reports", "list"], env);
    expect(reports.code, reports.stderr).toBe(0);
    expect(reports.stdout).toMatch(/^CLI letter {2}version 1 {2}handlebars {2}pdf,png,html$/m);
    fs.writeFileSync(path.join(tmp, "good-items.json"), JSON.stringify({ items: [{ document: { html: "<p>1</p>" } }, { templateVersionId: JSON.parse(byName.stdout).templateVersionId, data: { name: "Bo" } }] }));
    const batch = await cli(["batch", path.join(tmp, "good-items.json"), "-o", path.join(tmp, "batch.pdf"), "--json"], env);
    expect(batch.code, batch.stderr).toBe(0);
    expect(JSON.parse(batch.stdout)).toMatchObject({ counts: { succeeded: 2 }, file: path.join(tmp, "batch.pdf") });
    expect(fs.readFileSync(path.join(tmp, "batch.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("pushes a folder of files and pulls it back, updating only what changed", { timeout: 60_000 }, async () => {
    const w = await createTestWorkspace();
    const env = { FOLIO_API_KEY: w.key, FOLIO_URL: inject("baseUrl") };
    const src = path.join(tmp, "push");
    fs.mkdirSync(path.join(src, "partials"), { recursive: true });
    fs.writeFileSync(path.join(src, "print.css"), "h1 { color: navy }");
    fs.writeFileSync(path.join(src, "partials", "row.hbs"), "<tr><td>{{name}}</td></tr>");
    const pushed = await cli(["files", "push", src, "/brand", "--json"], env);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(JSON.parse(pushed.stdout).created).toHaveLength(2);
    fs.writeFileSync(path.join(src, "print.css"), "h1 { color: teal }");
    const again = JSON.parse((await cli(["files", "push", src, "/brand", "--json"], env)).stdout);
    expect([again.created.length, again.updated.length, again.unchanged.length]).toEqual([0, 1, 1]);
    const dest = path.join(tmp, "pull");
    const pulled = await cli(["files", "pull", "/brand", dest], env);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dest, "print.css"), "utf8")).toBe("h1 { color: teal }");
    expect(fs.readFileSync(path.join(dest, "partials", "row.hbs"), "utf8")).toBe("<tr><td>{{name}}</td></tr>");
    expect((await cli(["files", "pull", "/nowhere", dest], env)).code).toBe(4);
  });

  it("runs as `npm run cli` does (the sources' entry through tsx, as its own process)", { timeout: 60_000 }, async () => {
    const w = await createTestWorkspace();
    const child = spawn(path.resolve("node_modules/.bin/tsx"), [path.resolve("packages/client/src/bin.ts"), "renders", "list", "--json"], {
      env: { ...process.env, FOLIO_API_KEY: w.key, FOLIO_URL: inject("baseUrl") },
    });
    let stdout = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ items: [] });
  });
});
