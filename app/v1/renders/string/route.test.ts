/**
 * POST /v1/renders/string (spec: Endpoints; decisions.md): a Handlebars template with data and
 * partials expanded in the sandbox into {html}; no render stored, counted in usage as a string
 * render only (lib/usage/usage-api.test.ts); body up to 1,000,000 bytes.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/client";
import { findSystemUser } from "@/lib/private-files";
import { renders } from "@/lib/db/schema";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";

const renderString = (key: string | undefined, body: unknown) => api<{ html: string }>("/v1/renders/string", { key, body });

async function renderRows(w: TestWorkspace) {
  const [r] = await db().select({ n: sql<number>`count(*)::int` }).from(renders).where(eq(renders.workspaceId, w.id));
  return r!.n;
}

describe("POST /v1/renders/string", () => {
  securityCases({ scope: "render:create", request: (_w, key) => renderString(key, { template: "x" }) });

  it("answers {html} with data and partials, escaping values; no render record, in usage a string render only", async () => {
    const w = await createTestWorkspace();
    const res = await renderString(w.key, {
      template: "<h1>{{title}}</h1>{{#each rows}}{{> row}}{{/each}}{{pageNumber}}",
      data: { title: "<Invoice>", rows: [{ n: "a" }, { n: "b" }] },
      partials: { row: "<p>{{n}}</p>" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ html: '<h1>&lt;Invoice&gt;</h1><p>a</p><p>b</p><span class="pageNumber"></span>' });
    expect(await renderRows(w)).toBe(0);
    const usage = await api("/v1/usage", { key: w.key });
    expect(usage.status).toBe(200);
    expect(usage.body.totals).toMatchObject({ rendersSucceeded: 0, rendersFailed: 0, pages: 0, stringRenders: 1, htmlPreviews: 0 });
  });

  it("answers 400 naming the template or the partial and the line of a syntax error", async () => {
    const w = await createTestWorkspace();
    const t = expectError(await renderString(w.key, { template: "ok\n{{#if a}}" }), 400, "BAD_REQUEST");
    expect(t.message).toMatch(/^template: Parse error on line 2/);
    expect(t.details).toEqual([expect.objectContaining({ path: "template" })]);
    const p = expectError(await renderString(w.key, { template: "{{> invoice-row}}", partials: { "invoice-row": "x\n\n{{/each}}" } }), 400, "BAD_REQUEST");
    expect(p.message).toMatch(/^partial invoice-row: Parse error on line 3/);
    // details[].path names the request field that holds the file, as for any other bad value.
    expect(p.details).toEqual([expect.objectContaining({ path: "partials.invoice-row" })]);
  });

  it("answers LIMIT_EXCEEDED for a partial that includes itself, and the next request works", async () => {
    const w = await createTestWorkspace();
    const e = expectError(await renderString(w.key, { template: "{{> me}}", partials: { me: "x{{> me}}" } }), 400, "LIMIT_EXCEEDED");
    expect(e.message).toMatch(/^template: /);
    const next = await renderString(w.key, { template: "{{a}}", data: { a: 1 } });
    expect(next.body).toEqual({ html: "1" });
  });

  it("reads a body of exactly 1,000,000 bytes and answers 413 one byte over, before reading it", async () => {
    const w = await createTestWorkspace();
    const body = (bytes: number) => {
      const shell = JSON.stringify({ template: "{{#if a}}ok{{/if}}", data: { a: "" } });
      return shell.replace('"a":""', `"a":"${"x".repeat(bytes - shell.length)}"`);
    };
    expect(Buffer.byteLength(body(1_000_000))).toBe(1_000_000);
    const ok = await renderString(w.key, body(1_000_000));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ html: "ok" });
    expectError(await renderString(w.key, body(1_000_001)), 413, "LIMIT_EXCEEDED");
    // Content-Length over the limit and no body sent: the answer comes without waiting for it.
    const url = new URL(`${inject("baseUrl")}/v1/renders/string`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "x-api-key": w.key, "content-type": "application/json", "content-length": "1000001" } });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
  });

  it("runs in the web server's sandbox process, which holds none of the server's settings and runs as the render user", async () => {
    const w = await createTestWorkspace();
    expect((await renderString(w.key, { template: "{{a}}", data: { a: 1 } })).body).toEqual({ html: "1" });
    const read = (pid: string, file: string) => fs.readFileSync(`/proc/${pid}/${file}`, "utf8");
    const host = path.resolve("lib/sandbox/host.mjs");
    // The sandbox processes whose parent is this file's web server (its DATA_DIR tells it apart).
    const ours = fs.readdirSync("/proc").filter((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        if (!read(pid, "cmdline").split("\0").includes(host)) return false;
        const parent = /^PPid:\s+(\d+)$/m.exec(read(pid, "status"))![1]!;
        return read(parent, "environ").split("\0").includes(`DATA_DIR=${inject("dataDir")}`);
      } catch {
        return false; // a process that ended meanwhile
      }
    });
    // A pool (lib/processes/pool.ts): at most four, each checked.
    expect(ours.length).toBeGreaterThanOrEqual(1);
    expect(ours.length).toBeLessThanOrEqual(4);
    for (const pid of ours) {
      const parent = /^PPid:\s+(\d+)$/m.exec(read(pid, "status"))![1]!;
      expect(read(parent, "environ")).toContain("DATABASE_URL=");
      const env = read(pid, "environ").split("\0").filter(Boolean);
      expect(env.map((e) => e.split("=")[0]).sort()).toEqual(["LANG", "NODE_CHANNEL_FD", "NODE_CHANNEL_SERIALIZATION_MODE", "PATH"]);
      const status = read(pid, "status");
      expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
      expect(status).toMatch(/^CapEff:\s+0+$/m);
      if (process.getuid!() === 0) {
        const uid = findSystemUser(inject("serverEnv").RENDER_USER ?? inject("serverEnv").CHROMIUM_USER ?? "folio-render")!.uid;
        expect(status).toMatch(new RegExp(`^Uid:\\s+${uid}\\s+${uid}\\s+${uid}\\s+${uid}$`, "m"));
        // No network: a namespace of its own, apart from the server's.
        expect(fs.readlinkSync(`/proc/${pid}/ns/net`)).not.toBe(fs.readlinkSync(`/proc/${parent}/ns/net`));
      }
    }
  });
});
