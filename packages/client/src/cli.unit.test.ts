/**
 * The command line against a real HTTP server on 127.0.0.1 (src/testing/stub-server.ts) that
 * answers as Folio does: mistakes in arguments and files are one line and exit 2; lists page with
 * --cursor; cancel, report and batch send what the API takes; a timed-out wait names its seconds.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { main } from "./cli";
import { renderBody, startStub, type Answer, type Seen, type StubServer } from "./testing/stub-server";

let stub: StubServer | undefined;
let tmp: string;
beforeAll(() => void (tmp = fs.mkdtempSync(path.join(os.tmpdir(), "folio-cli-"))));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function serve(answer: (req: Seen, n: number) => Answer | Promise<Answer>) {
  stub = await startStub(answer);
  return { env: { FOLIO_API_KEY: "folio_test", FOLIO_URL: stub.url }, seen: stub.seen };
}

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

const file = (name: string, text: string) => {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, text);
  return p;
};

describe("mistakes in arguments and files", () => {
  it("a --data file that is not JSON: exit 2, one line naming the file, no stack, no request", async () => {
    const { env, seen } = await serve(() => ({ status: 500, json: {} }));
    const bad = file("bad.json", "{ name: Ada }");
    for (const args of [["render", "--template", "Letter", "--data", bad], ["report", "--template", "Letter", "--data", bad]]) {
      const r = await cli(args, env);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(new RegExp(`^folio: --data ${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is not JSON: `));
    }
    const list = await cli(["render", "--template", "Letter", "--data", file("list.json", "[1, 2]"), "--json"], env);
    expect(list.code).toBe(2);
    expect(JSON.parse(list.stdout).error).toMatchObject({ code: "USAGE", message: expect.stringMatching(/must hold a JSON object .*not an array/) });
    expect((await cli(["render", "--template", "Letter", "--data", path.join(tmp, "missing.json")], env)).code).toBe(2);
    expect(seen).toHaveLength(0);
  });

  it("bad --limit, --state, --timeout and --format values and unknown commands: exit 2", async () => {
    const { env, seen } = await serve(() => ({ status: 500, json: {} }));
    expect((await cli(["renders", "list", "--limit", "0"], env)).stderr).toMatch(/--limit is a whole number from 1 to 100, not 0/);
    expect((await cli(["renders", "list", "--state", "done"], env)).stderr).toMatch(/--state must be one of queued, processing, succeeded, failed, cancelled/);
    expect((await cli(["render", file("a.html", "<p>a</p>"), "--timeout", "soon"], env)).code).toBe(2);
    expect((await cli(["report", "--template", "Letter", "--format", "gif"], env)).code).toBe(2);
    expect((await cli(["batches", "frobnicate", "x"], env)).code).toBe(2);
    expect((await cli([], env)).code).toBe(2);
    expect(seen).toHaveLength(0);
  });
});

describe("commands", () => {
  it("lists page with --cursor and say how to ask for the next page", async () => {
    const { env, seen } = await serve((req) => ({ status: 200, json: { items: [renderBody("rnd_2", "failed")], ...(req.query.get("cursor") ? {} : { nextCursor: "c2" }) } }));
    const first = await cli(["renders", "list", "--state", "failed", "--limit", "1"], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/rnd_2\s+failed\s+pdf/);
    expect(first.stdout).toMatch(/\(more: --cursor c2\)$/);
    const next = await cli(["renders", "list", "--cursor", "c2", "--json"], env);
    expect(JSON.parse(next.stdout).nextCursor).toBeUndefined();
    expect(seen[1]!.query.get("cursor")).toBe("c2");
    expect(seen[0]!.query.get("state")).toBe("failed");
    await cli(["templates", "list", "--cursor", "t9"], env);
    expect(`${seen[2]!.path}?${seen[2]!.query}`).toBe("/v1/templates?cursor=t9");
  });

  it("renders cancel posts the cancel, without a key, and prints the render", async () => {
    const { env, seen } = await serve(() => ({ status: 200, json: renderBody("rnd_3", "cancelled") }));
    const r = await cli(["renders", "cancel", "rnd_3"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^rnd_3\s+cancelled/);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(["POST /v1/renders/rnd_3/cancel"]);
    expect(seen[0]!.headers["idempotency-key"]).toBeUndefined();
  });

  it("report writes the file the Reports API answers and names its render", async () => {
    const pdf = new TextEncoder().encode("%PDF-1.7 report");
    const { env, seen } = await serve(() => ({ status: 200, headers: { "content-type": "application/pdf", "x-render-id": "rnd_4", "x-page-count": "2" }, bytes: pdf }));
    const out = path.join(tmp, "report.pdf");
    const r = await cli(["report", "--template", "Monthly report", "--data", file("d.json", '{"month": "May"}'), "--locale", "de-DE", "-o", out], env);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(out)).toEqual(Buffer.from(pdf));
    expect(r.stdout).toMatch(/report\.pdf: 2 page\(s\), 15 bytes, in [\d.]+ s \(render rnd_4\)/);
    expect(JSON.parse(seen[0]!.body)).toEqual({ format: "pdf", template: { name: "Monthly report" }, data: { month: "May" }, locale: "de-DE" });
    expect(seen[0]!.headers["idempotency-key"]).toBeTruthy();
  });

  it("batch creates the items, waits for all of them and writes the combined PDF; a failed item exits 7", async () => {
    const summary = (state: string) => ({
      id: "bat_1",
      createdAt: "2026-11-27T04:00:00.000Z",
      total: 2,
      counts: { queued: 0, processing: 0, succeeded: state === "succeeded" ? 2 : 1, failed: state === "failed" ? 1 : 0, cancelled: 0 },
      items: [
        { index: 0, id: "rnd_a", state: "succeeded", test: true, createdAt: "", updatedAt: "" },
        { index: 1, id: "rnd_b", state, test: true, createdAt: "", updatedAt: "" },
      ],
    });
    let end = "succeeded";
    const { env, seen } = await serve((req) =>
      req.path.endsWith("/pdf") ? { status: 200, headers: { "content-type": "application/pdf" }, bytes: new TextEncoder().encode("%PDF-joined") } : { status: req.method === "POST" ? 202 : 200, json: summary(end) },
    );
    const items = file("items.json", JSON.stringify({ items: [{ document: { html: "<p>1</p>" } }, { document: { html: "<p>2</p>" }, test: false }] }));
    const out = path.join(tmp, "joined.pdf");
    const ok = await cli(["batch", items, "--test", "-o", out], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(fs.readFileSync(out, "latin1")).toBe("%PDF-joined");
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(["POST /v1/renders/batch", "GET /v1/renders/batch/bat_1", "GET /v1/renders/batch/bat_1/pdf"]);
    expect(JSON.parse(seen[0]!.body).items.map((i: { test?: boolean }) => i.test)).toEqual([true, false]);
    expect(seen[0]!.headers["idempotency-key"]).toBeTruthy();

    end = "failed";
    const failed = await cli(["batch", items, "--json"], env);
    expect(failed.code).toBe(7);
    expect(JSON.parse(failed.stdout).counts.failed).toBe(1);
  });

  it("a render that outlives --timeout: exit 7 and the seconds it waited", async () => {
    const { env } = await serve(async (req) => {
      await new Promise((r) => setTimeout(r, Math.min(100, Number(req.query.get("waitMs") ?? 0))));
      return { status: req.method === "POST" ? 202 : 200, json: renderBody("rnd_5", "queued") };
    });
    const r = await cli(["render", file("slow.html", "<p>slow</p>"), "--timeout", "0.5"], env);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/RENDER_TIMEOUT: Render rnd_5 had not ended after 0\.[5-9] s \(it is queued\)/);
  });
});

describe("export and import", () => {
  it("export writes the workspace's zip, or a folder's; import sends the zip base64 with its options and lists what changed", async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
    const result = {
      applied: true,
      folders: [{ path: "brand", action: "create" }],
      templates: [{ path: "brand/Letter.template", name: "Letter", kind: "handlebars", action: "rename", as: "Letter (2)", id: "tpl_1", version: 1, versions: 0 }],
      files: [{ path: "brand/site.css", action: "skip" }],
      assets: [{ filename: "logo.png", kind: "image", size: 3, action: "reuse", id: "ast_1" }],
    };
    const { env, seen } = await serve((req) => (req.method === "GET" ? { status: 200, headers: { "content-type": "application/zip" }, bytes: zip } : { status: 200, json: req.path.endsWith("/inspect") ? { ...result, applied: false } : result }));
    const out = path.join(tmp, "exported.zip");
    expect((await cli(["export", "-o", out], env)).code).toBe(0);
    expect(fs.readFileSync(out)).toEqual(Buffer.from(zip));
    expect((await cli(["export", "--folder", "fld_7", "-o", out], env)).code).toBe(0);
    const imported = await cli(["import", out, "--folder", "fld_9", "--on-conflict", "rename", "--publish", "--label", "from staging"], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/rename\s+template\s+Letter\s+-> Letter \(2\)\s+version 1/);
    expect(imported.stdout).toMatch(/Imported: 1 change\(s\)$/);
    const inspected = await cli(["import", out, "--inspect"], env);
    expect(inspected.stdout).toMatch(/Nothing written \(--inspect\): 1 change\(s\) if imported$/);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      "GET /v1/workspace-folders/export",
      "GET /v1/workspace-folders/fld_7/export",
      "POST /v1/workspace-folders/import",
      "POST /v1/workspace-folders/import/inspect",
    ]);
    expect(JSON.parse(seen[2]!.body)).toEqual({ archive: Buffer.from(zip).toString("base64"), onConflict: "rename", publish: true, folderId: "fld_9", label: "from staging" });
    expect(JSON.parse(seen[3]!.body)).toMatchObject({ onConflict: "skip", publish: false });
  });

  it("refuses a bad --on-conflict and a missing file in one line, exit 2, sending nothing", async () => {
    const { env, seen } = await serve(() => ({ status: 500, json: {} }));
    const bad = await cli(["import", file("x.zip", "PK"), "--on-conflict", "merge"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--on-conflict must be skip, replace, rename, not merge/);
    const missing = await cli(["import", path.join(tmp, "nope.zip")], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/import: .*nope\.zip cannot be read \(ENOENT\)/);
    expect(seen).toEqual([]);
  });
});
