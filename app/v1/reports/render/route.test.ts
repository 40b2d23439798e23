import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ENVIRONMENT_OWNER, startEnvironment, type Environment } from "@/lib/testing/environment";
import { createTestWorkspace, signIn } from "@/lib/testing/factories";
import { api, expectError, type ApiResponse } from "@/lib/testing/http";
import { imageSize, pdfText } from "@/lib/testing/pdf";
import { slotHoldingDocument, waitForState } from "@/lib/testing/renders";
import { threeBadValuesContent, threeBadValuesData } from "@/lib/testing/bad-data";

// POST /v1/reports/render: the newest published version of a template found by name, answered
// with the file itself. Timeouts and failures run in an environment of their own with a 1 s wait.

type Json = Record<string, unknown>;
type Target = { key: string; baseUrl?: string };
type Detail = { path?: string; message: string };

const norm = (s: string) => s.replace(/\s+/g, " ").trim();
const RENDER_ID = /^rnd_[0-9A-Za-z]+$/;

/** POST /v1/reports/render, keeping the body as bytes; `body` is the parsed JSON for JSON answers. */
async function report(t: Target, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.baseUrl ?? inject("baseUrl")}/v1/reports/render`, {
    method: "POST",
    headers: { "x-api-key": t.key, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = Buffer.from(bytes).toString("utf8");
  const json = res.headers.get("content-type")?.includes("application/json") ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, bytes, text, body: json } satisfies ApiResponse & { bytes: Uint8Array };
}

/** A template whose body is one line of text: `label` then the data's customer. */
const content = (label: string) => ({ composition: { root: { type: "text", text: { parts: [`${label} for `, { path: ["customer"] }] } } } });

async function createTemplate(t: Target, name: string, body: Json) {
  const res = await api("/v1/templates", { key: t.key, baseUrl: t.baseUrl, body: { name, content: body } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function publish(t: Target, templateId: string, expectedRevision = 1) {
  const res = await api(`/v1/templates/${templateId}/versions`, { key: t.key, baseUrl: t.baseUrl, body: { expectedRevision } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function publishTemplate(t: Target, name: string, body: Json) {
  const templateId = await createTemplate(t, name, body);
  return { templateId, versionId: await publish(t, templateId) };
}

const renderIds = async (t: Target) => {
  const res = await api("/v1/renders?limit=100", { key: t.key, baseUrl: t.baseUrl });
  expect(res.status, res.text).toBe(200);
  return (res.body.items as { id: string }[]).map((r) => r.id);
};

const getRender = async (t: Target, id: string) => (await api(`/v1/renders/${id}`, { key: t.key, baseUrl: t.baseUrl })).body;

describe("POST /v1/reports/render", () => {
  it("answers a PDF of the newest published version of that name, with x-render-id of a report render", async () => {
    const w = await createTestWorkspace();
    const name = "Quarterly";
    const a = await publishTemplate(w, name, content("Version one"));
    const saved = await api(`/v1/templates/${a.templateId}/draft`, { method: "PUT", key: w.key, body: { content: content("Version two"), expectedRevision: 1 } });
    expect(saved.status, saved.text).toBe(200);
    const v2 = await publish(w, a.templateId, 2);
    // A draft change that is not published does not show.
    const draft = await api(`/v1/templates/${a.templateId}/draft`, { method: "PUT", key: w.key, body: { content: content("Draft three"), expectedRevision: 2 } });
    expect(draft.status, draft.text).toBe(200);

    const res = await report(w, { format: "pdf", template: { name }, data: { customer: "Initech" } });
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(res.bytes.subarray(0, 5)).toString()).toBe("%PDF-");
    expect(norm(pdfText(res.bytes))).toBe("Version two for Initech");
    const id = res.headers.get("x-render-id")!;
    expect(id).toMatch(RENDER_ID);
    expect(await getRender(w, id)).toMatchObject({ id, state: "succeeded", source: "report", format: "pdf", templateId: a.templateId, templateVersionId: v2 });

    // Another template of the same name published later is the newest.
    const b = await publishTemplate(w, name, content("Other template"));
    const again = await report(w, { format: "pdf", template: { name }, data: { customer: "Initech" } });
    expect(again.status, again.text.slice(0, 500)).toBe(200);
    expect(norm(pdfText(again.bytes))).toBe("Other template for Initech");
    const second = again.headers.get("x-render-id")!;
    expect(second).not.toBe(id);
    expect(await getRender(w, second)).toMatchObject({ source: "report", templateId: b.templateId, templateVersionId: b.versionId });
  });

  it("answers a PNG of the first page at 96 pixels per inch, and HTML without a render", async () => {
    const w = await createTestWorkspace();
    await publishTemplate(w, "Picture", content("Pictured"));
    const png = await report(w, { format: "png", template: { name: "Picture" }, data: { customer: "Hooli" } });
    expect(png.status, png.text.slice(0, 500)).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(imageSize(png.bytes)).toEqual({ type: "png", width: 794, height: 1123 });
    const id = png.headers.get("x-render-id")!;
    expect(id).toMatch(RENDER_ID);
    expect(await getRender(w, id)).toMatchObject({ source: "report", format: "png", state: "succeeded" });

    const html = await report(w, { format: "html", template: { name: "Picture" }, data: { customer: "Hooli <Inc>" } });
    expect(html.status, html.text.slice(0, 500)).toBe(200);
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html.headers.get("content-security-policy")).toContain("sandbox");
    expect(html.headers.get("x-render-id")).toBeNull();
    expect(html.text).toContain("Pictured for Hooli &lt;Inc&gt;");
    expect(await renderIds(w)).toEqual([id]); // the HTML answer created no render
  });

  it("answers 404 without a published template of that name, in this workspace", async () => {
    const w = await createTestWorkspace();
    expectError(await report(w, { format: "pdf", template: { name: "Nothing" }, data: {} }), 404, "NOT_FOUND");
    await createTemplate(w, "Unpublished", content("Draft only"));
    expectError(await report(w, { format: "pdf", template: { name: "Unpublished" }, data: { customer: "x" } }), 404, "NOT_FOUND");
    expectError(await report(w, { format: "html", template: { name: "Unpublished" }, data: { customer: "x" } }), 404, "NOT_FOUND");
    // Names are looked up in the key's workspace only.
    const other = await createTestWorkspace();
    await publishTemplate(other, "Theirs", content("Theirs"));
    expectError(await report(w, { format: "html", template: { name: "Theirs" }, data: { customer: "x" } }), 404, "NOT_FOUND");
    expect(await renderIds(w)).toEqual([]);
  });

  it("answers 404 NOT_FOUND when the template of that name cannot produce the format (xlsx from a component template)", async () => {
    // spec: Errors: NOT_FOUND for the Reports API when no published template of that name renders the requested format.
    const w = await createTestWorkspace();
    await publishTemplate(w, "Sheet", content("Sheet"));
    const e = expectError(await report(w, { format: "xlsx", template: { name: "Sheet" }, data: { customer: "x" } }), 404, "NOT_FOUND");
    expect(e.message).toMatch(/Sheet.*xlsx/);
    expect(await renderIds(w)).toEqual([]);
  });

  it("refuses unknown fields and bad values with 400", async () => {
    const w = await createTestWorkspace();
    await publishTemplate(w, "Sheet", content("Sheet"));
    const paths = (res: { body?: { error?: { details?: Detail[] } } }) => (res.body?.error?.details ?? []).map((d) => d.path);
    let res = await report(w, { format: "pdf", template: { name: "Sheet" }, data: {}, extra: 1 });
    expectError(res, 400, "BAD_REQUEST");
    expect(paths(res)).toEqual(["extra"]);
    res = await report(w, { format: "pdf", template: { name: "Sheet", id: "x" } });
    expectError(res, 400, "BAD_REQUEST");
    expect(paths(res)).toEqual(["template.id"]);
    res = await report(w, { format: "docx", template: { name: "Sheet" } });
    expectError(res, 400, "BAD_REQUEST");
    expect(paths(res)).toEqual(["format"]);
    res = await report(w, { format: "pdf", template: { name: "Sheet" }, locale: "not a locale!" });
    expectError(res, 400, "BAD_REQUEST");
    expect(paths(res)).toEqual(["locale"]);
    expect(await renderIds(w)).toEqual([]);
  });

  it("answers 400 naming a missing data value and creates no render", async () => {
    const w = await createTestWorkspace();
    await publishTemplate(w, "Address", { composition: { root: { type: "text", text: { path: ["customer", "address", "city"] } } } });
    for (const format of ["pdf", "png", "html"]) {
      const res = await report(w, { format, template: { name: "Address" }, data: { customer: { address: {} } } });
      const e = expectError(res, 400, "BAD_REQUEST");
      expect((e.details as Detail[])[0]!.path).toBe("customer.address.city");
    }
    expect(await renderIds(w)).toEqual([]);
  });

  it("reports every missing or mistyped value at once, one detail per path", async () => {
    const w = await createTestWorkspace();
    await publishTemplate(w, "Three bad", threeBadValuesContent);
    const data = threeBadValuesData;
    for (const format of ["pdf", "png", "html"]) {
      const e = expectError(await report(w, { format, template: { name: "Three bad" }, data }), 400, "BAD_REQUEST");
      expect(e.details).toEqual([
      { path: "customer.name", message: "missing (no fallback)" },
      { path: "total", message: expect.stringContaining("needs a JSON number") },
      { path: "lines.1.amount", message: expect.stringContaining("needs a JSON number") },
    ]);
      for (const path of ["customer.name", "total", "lines.1.amount"]) expect(e.message).toContain(`at ${path} `);
    }
    expect(await renderIds(w)).toEqual([]);
  });

  it("needs render:create and template:read, plus render:read for a PDF only", async () => {
    const w = await createTestWorkspace();
    await publishTemplate(w, "Scoped", content("Scoped"));
    const body = (format: string) => ({ format, template: { name: "Scoped" }, data: { customer: "x" } });
    expectError(await report({ key: "" }, body("pdf")), 401, "UNAUTHORIZED");

    const noTemplateRead = await w.newKey(["render:create", "render:read"]);
    let e = expectError(await report({ key: noTemplateRead.secret }, body("png")), 403, "FORBIDDEN");
    expect(e.message).toContain("template:read");
    const noCreate = await w.newKey(["template:read", "render:read"]);
    e = expectError(await report({ key: noCreate.secret }, body("html")), 403, "FORBIDDEN");
    expect(e.message).toContain("render:create");

    const noRenderRead = await w.newKey(["render:create", "template:read"]);
    e = expectError(await report({ key: noRenderRead.secret }, body("pdf")), 403, "FORBIDDEN");
    expect(e.message).toContain("render:read");
    expect(await renderIds(w)).toEqual([]); // refused before any render
    const png = await report({ key: noRenderRead.secret }, body("png"));
    expect(png.status, png.text.slice(0, 300)).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    const html = await report({ key: noRenderRead.secret }, body("html"));
    expect(html.status, html.text.slice(0, 300)).toBe(200);
  });

  it("returns the first render for a repeat with the same Idempotency-Key, 409 for another body", async () => {
    const w = await createTestWorkspace();
    await publishTemplate(w, "Once", content("Once"));
    const body = { format: "pdf", template: { name: "Once" }, data: { customer: "Umbrella" } };
    const headers = { "idempotency-key": "report-once-1" };
    const first = await report(w, body, headers);
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    // Same body with keys in another order: the same request.
    const second = await report(w, { data: { customer: "Umbrella" }, template: { name: "Once" }, format: "pdf" }, headers);
    expect(second.status, second.text.slice(0, 300)).toBe(200);
    expect(second.headers.get("x-render-id")).toBe(first.headers.get("x-render-id"));
    expect(norm(pdfText(second.bytes))).toBe("Once for Umbrella");
    expect(await renderIds(w)).toEqual([first.headers.get("x-render-id")]);

    expectError(await report(w, { ...body, data: { customer: "Other" } }, headers), 409, "CONFLICT");
    expectError(await report(w, body, { "idempotency-key": "has space" }), 400, "BAD_REQUEST");
    expect(await renderIds(w)).toHaveLength(1);
  });
});

// --- a 1 s wait, one worker, at most one page ---------------------------------------------------

const OWNER = ENVIRONMENT_OWNER;
let envReady: Promise<{ env: Environment; t: Target }>;

beforeAll(() => {
  envReady = (async () => {
    const env = await startEnvironment({ REPORTS_WAIT_MS: "1000", WORKER_CONCURRENCY: "1", RENDER_MAX_PAGES: "1" });
    // The environment's own key has render scopes only; the Reports API needs template scopes too.
    const cookie = await signIn(OWNER.email, OWNER.password, env.baseUrl);
    const scopes = ["render:create", "render:read", "template:read", "template:write", "template:publish"];
    const res = await api("/v1/api-keys", { baseUrl: env.baseUrl, cookie, body: { name: "reports", scopes } });
    if (res.status !== 201) throw new Error(`could not create a key: ${res.text}`);
    return { env, t: { key: res.body.secret as string, baseUrl: env.baseUrl } };
  })();
  // why awaited here: starting a Folio of its own takes a slow machine a good part of a minute,
  // which belongs to the hook's time, not to the first test's. A failure is reported by the tests.
  return envReady.then(() => {}, () => {});
}, 180_000);

afterAll(async () => {
  await (await envReady.catch(() => undefined))?.env.stop();
});

describe("POST /v1/reports/render past its wait (REPORTS_WAIT_MS=1000, one worker)", () => {
  it("answers 504 RENDER_TIMEOUT with the render id; the render goes on; a repeat with the key returns its file", async () => {
    const { env, t } = await envReady;
    await publishTemplate(t, "Slow", content("Waited"));
    // Hold the only worker's slot until the test lets go, so the report's render queues behind it.
    const busy = await api("/v1/renders", { key: t.key, baseUrl: t.baseUrl, body: { document: slotHoldingDocument("busy") } });
    expect(busy.status, busy.text).toBe(202);
    await waitForState(t.key, busy.body.id, ["processing"], { baseUrl: t.baseUrl });

    const body = { format: "pdf", template: { name: "Slow" }, data: { customer: "Acme" } };
    const headers = { "idempotency-key": "slow-report-1" };
    const res = await report(t, body, headers);
    const e = expectError(res, 504, "RENDER_TIMEOUT") as { retryable: boolean; renderId?: string };
    expect(e.retryable).toBe(true);
    expect(e.renderId).toMatch(RENDER_ID);
    const id = e.renderId!;
    expect(await getRender(t, id)).toMatchObject({ id, source: "report", state: expect.stringMatching(/^(queued|processing)$/) });
    const created = await renderIds(t);
    expect(created).toContain(id);

    // A repeat while it still waits waits again for the same render, and creates nothing.
    const early = expectError(await report(t, body, headers), 504, "RENDER_TIMEOUT") as { renderId?: string };
    expect(early.renderId).toBe(id);
    expect(await renderIds(t)).toEqual(created);

    // Once the slot is free the render goes on and succeeds; the repeat then answers its file, creating nothing new.
    // (the environment's own key may cancel; the reports key has no render:cancel)
    expect((await api(`/v1/renders/${busy.body.id}/cancel`, { method: "POST", key: env.key, baseUrl: t.baseUrl })).status).toBe(200);
    await waitForState(t.key, id, ["succeeded"], { baseUrl: t.baseUrl });
    const later = await report(t, body, headers);
    expect(later.status, later.text.slice(0, 300)).toBe(200);
    expect(later.headers.get("x-render-id")).toBe(id);
    expect(norm(pdfText(later.bytes))).toBe("Waited for Acme");
    expect(await renderIds(t)).toEqual(created);
  });

  it("answers 422 RENDER_FAILED with the render id when the render fails (over RENDER_MAX_PAGES=1)", async () => {
    const { t } = await envReady;
    await publishTemplate(t, "Long", {
      composition: { root: { type: "table", source: { path: ["rows"] }, columns: [{ id: "n", header: "Row", value: { path: ["n"] } }] } },
    });
    const body = { format: "pdf", template: { name: "Long" }, data: { rows: Array.from({ length: 80 }, (_, n) => ({ n })) } };
    const headers = { "idempotency-key": "long-report-1" };
    // The wait is 1 s; on a loaded machine the render may need longer: repeat with the key until it ended.
    let res = await report(t, body, headers);
    for (let i = 0; res.status === 504 && i < 20; i++) res = await report(t, body, headers);
    const e = expectError(res, 422, "RENDER_FAILED") as { retryable: boolean; renderId?: string };
    expect(e.retryable).toBe(false);
    expect(e.renderId).toMatch(RENDER_ID);
    expect(await getRender(t, e.renderId!)).toMatchObject({ source: "report", state: "failed", error: { code: "LIMIT_EXCEEDED", diagnostic: "max_pages" } });
  });
});

describe("POST /v1/reports/render while 100 of the workspace's reports wait", () => {
  let env2: Environment | undefined;
  afterAll(async () => {
    await env2?.stop();
  });

  it("answers 429 RATE_LIMITED without Retry-After to the ones past 100", async () => {
    env2 = await startEnvironment({ REPORTS_WAIT_MS: "30000", WORKER_CONCURRENCY: "1" });
    const cookie = await signIn(OWNER.email, OWNER.password, env2.baseUrl);
    const scopes = ["render:create", "render:read", "template:read", "template:write", "template:publish"];
    const keyRes = await api("/v1/api-keys", { baseUrl: env2.baseUrl, cookie, body: { name: "reports", scopes } });
    expect(keyRes.status, keyRes.text).toBe(201);
    const t = { key: keyRes.body.secret as string, baseUrl: env2.baseUrl };
    // why: 101 renders at once need render allowances above the defaults (docs/api.md, Render allowances and quotas).
    const own = postgres(env2.databaseUrl, { max: 1, onnotice: () => {} });
    await own`update workspaces set max_active_renders = 200, renders_per_minute = 1000`;
    await own.end();
    await publishTemplate(t, "Queued", content("Queued"));
    // The only worker's slot is held, so every report's render waits in the queue.
    const busy = await api("/v1/renders", { key: t.key, baseUrl: t.baseUrl, body: { document: slotHoldingDocument("busy") } });
    await waitForState(t.key, busy.body.id, ["processing"], { baseUrl: t.baseUrl });

    const body = { format: "pdf", template: { name: "Queued" }, data: { customer: "Acme" } };
    const answered: { status: number; retryAfter: string | null; code?: string }[] = [];
    const calls = Array.from({ length: 105 }, () =>
      report(t, body)
        .then((r) => answered.push({ status: r.status, retryAfter: r.headers.get("retry-after"), code: r.body?.error?.code }))
        .catch(() => {}), // the waiting ones end when the environment stops
    );
    // The refused answer at once; the 100 others keep waiting for their renders, which cannot
    // start while the slot is held (their waits are 30 s): once all 100 renders exist, every
    // answer that will come before then has come.
    await expect.poll(() => answered.length, { timeout: 15_000 }).toBe(5);
    const count = async () => {
      const first = await api("/v1/renders?limit=100", { key: t.key, baseUrl: t.baseUrl });
      if (!first.body.nextCursor) return (first.body.items as unknown[]).length;
      const rest = await api(`/v1/renders?limit=100&cursor=${first.body.nextCursor as string}`, { key: t.key, baseUrl: t.baseUrl });
      return (first.body.items as unknown[]).length + (rest.body.items as unknown[]).length;
    };
    // The busy render and the 100 waiting reports: a full page of 100 and one more.
    await expect.poll(count, { timeout: 15_000 }).toBe(101);
    expect(answered).toEqual(Array.from({ length: 5 }, () => ({ status: 429, retryAfter: null, code: "RATE_LIMITED" })));
    void Promise.all(calls);
  }, 60_000);
});
