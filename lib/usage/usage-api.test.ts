import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/auth/context";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { auditEvents, usageDays, workspaces } from "@/lib/db/schema";
import { insertRenderRows } from "@/lib/renders/repository";
import { createTestWorkspace, signIn } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { createRender } from "@/lib/testing/renders";
import { createUser } from "@/lib/users";

/** GET /v1/render-limits, GET /v1/usage, and the platform administrators' endpoints, through the real API. */

const today = () => new Date().toISOString().slice(0, 10);
const monthStart = () => `${today().slice(0, 7)}-01`;

async function platformAdmin() {
  const w = await createTestWorkspace();
  const email = `platform-${randomBytes(4).toString("hex")}@folio.test`;
  const password = randomBytes(12).toString("base64url");
  await createUser(systemCtx(w.id, "test"), { email, password, role: "member", platformAdmin: true });
  return { workspace: w, cookie: await signIn(email, password) };
}

describe("GET /v1/render-limits", () => {
  it("answers every field of the record with what the workspace uses now", async () => {
    const w = await createTestWorkspace();
    await db().update(workspaces).set({ documentsPerMonth: 100, testRendersPerDay: 5, maxStorageBytes: 1_000_000 }).where(eq(workspaces.id, w.id));
    const at = new Date();
    await insertRenderRows(db(), [
      { id: newId("rnd"), workspaceId: w.id, source: "document", format: "pdf", state: "succeeded", createdAt: at, finishedAt: at },
      { id: newId("rnd"), workspaceId: w.id, source: "document", format: "pdf", state: "failed", createdAt: at, finishedAt: at },
      { id: newId("rnd"), workspaceId: w.id, source: "document", format: "pdf", state: "succeeded", test: true, createdAt: at, finishedAt: at },
    ]);
    const res = await api("/v1/render-limits", { key: w.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      maxActiveRenders: 10,
      rendersPerMinute: 60,
      documentsPerMonth: 100,
      maxStorageBytes: 1_000_000,
      testRendersPerDay: 5,
      documentsThisMonth: 1,
      storageBytes: 0,
      testRendersToday: 1,
      templateConversionsPerMonth: null,
      templateConversionsThisMonth: 0,
      suspended: false,
    });
  });

  it("needs render:read", async () => {
    const w = await createTestWorkspace({ scopes: ["template:read"] });
    expectError(await api("/v1/render-limits", { key: w.key }), 403, "FORBIDDEN");
  });
});

describe("GET /v1/usage", () => {
  it("answers the current UTC month by default, with totals and only the days that had usage", async () => {
    const w = await createTestWorkspace();
    const created = await createRender(w.key, { document: { html: "<p>usage</p>" }, waitMs: 20_000 });
    expect(created.body.state).toBe("succeeded");
    const res = await api("/v1/usage", { key: w.key });
    expect(res.status).toBe(200);
    expect(res.body.from).toBe(monthStart());
    expect(res.body.to.slice(0, 7)).toBe(today().slice(0, 7));
    const counters = { rendersSucceeded: 1, rendersFailed: 0, rendersCancelled: 0, pages: 1, outputBytes: created.body.result.outputBytes, testRenders: 0, testPages: 0, stringRenders: 0, htmlPreviews: 0 };
    expect(res.body.days).toEqual([{ date: created.body.finishedAt.slice(0, 10), ...counters }]);
    expect(res.body.totals).toEqual(counters);
  });

  it("counts test renders with the others and again apart: testRenders of any state, testPages of the succeeded", async () => {
    const w = await createTestWorkspace();
    const threePages = ["one", "two", "three"].map((t) => `<section style="break-after:page">page ${t}</section>`).join("");
    const normal = await createRender(w.key, { document: { html: "<p>normal</p>" }, waitMs: 20_000 });
    const test = await createRender(w.key, { document: { html: threePages }, test: true, waitMs: 20_000 });
    const failedTest = await createRender(w.key, { document: { html: "<p>one page</p>" }, pageRanges: "9", test: true, waitMs: 20_000 });
    expect(normal.body.state, normal.text).toBe("succeeded");
    expect(test.body).toMatchObject({ state: "succeeded", test: true, result: { pageCount: 3 } });
    expect(failedTest.body).toMatchObject({ state: "failed", test: true });
    const ended = [normal.body, test.body, failedTest.body];
    const days = [...new Set(ended.map((r) => r.finishedAt.slice(0, 10)))].sort();

    // Around midnight UTC the renders may end on two days: ask for a range holding both.
    const res = await api(`/v1/usage?from=${days[0]}&to=${days[days.length - 1]}`, { key: w.key });
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({
      rendersSucceeded: 2,
      rendersFailed: 1,
      rendersCancelled: 0,
      pages: 4,
      outputBytes: normal.body.result.outputBytes + test.body.result.outputBytes,
      testRenders: 2,
      testPages: 3,
      stringRenders: 0,
      htmlPreviews: 0,
    });
    expect(res.body.days.map((d: { date: string }) => d.date)).toEqual(days);
    if (days.length === 1) {
      expect(res.body.days[0]).toEqual({ date: days[0], ...res.body.totals });
    }

    // The platform administrators' totals per workspace carry the same two counters.
    const admin = await platformAdmin();
    let cursor: string | undefined;
    let mine: Record<string, unknown> | undefined;
    do {
      const page = await api(`/v1/platform/usage?from=${days[0]}&to=${days[days.length - 1]}&limit=100${cursor ? `&cursor=${cursor}` : ""}`, { cookie: admin.cookie });
      expect(page.status).toBe(200);
      mine ??= page.body.items.find((i: { workspaceId: string }) => i.workspaceId === w.id);
      cursor = page.body.nextCursor;
    } while (cursor && !mine);
    expect(mine).toEqual({ workspaceId: w.id, name: expect.any(String), suspended: false, ...res.body.totals });
  });

  it("includes both ends of a range and leaves out days without usage", async () => {
    const w = await createTestWorkspace();
    await db().insert(usageDays).values([
      { workspaceId: w.id, day: "2025-01-31", rendersSucceeded: 1, pages: 1, outputBytes: 10 },
      { workspaceId: w.id, day: "2025-02-01", rendersSucceeded: 2, rendersFailed: 1, pages: 3, outputBytes: 20, testRenders: 1, testPages: 1 },
      { workspaceId: w.id, day: "2025-02-10", rendersCancelled: 4, testRenders: 1 },
      { workspaceId: w.id, day: "2025-02-11", rendersSucceeded: 9 },
      // A day with string renders and HTML previews only is a day with usage.
      { workspaceId: w.id, day: "2025-02-05", stringRenders: 3, htmlPreviews: 2 },
    ]);
    const res = await api("/v1/usage?from=2025-02-01&to=2025-02-10", { key: w.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: "2025-02-01",
      to: "2025-02-10",
      totals: { rendersSucceeded: 2, rendersFailed: 1, rendersCancelled: 4, pages: 3, outputBytes: 20, testRenders: 2, testPages: 1, stringRenders: 3, htmlPreviews: 2 },
      days: [
        { date: "2025-02-01", rendersSucceeded: 2, rendersFailed: 1, rendersCancelled: 0, pages: 3, outputBytes: 20, testRenders: 1, testPages: 1, stringRenders: 0, htmlPreviews: 0 },
        { date: "2025-02-05", rendersSucceeded: 0, rendersFailed: 0, rendersCancelled: 0, pages: 0, outputBytes: 0, testRenders: 0, testPages: 0, stringRenders: 3, htmlPreviews: 2 },
        { date: "2025-02-10", rendersSucceeded: 0, rendersFailed: 0, rendersCancelled: 4, pages: 0, outputBytes: 0, testRenders: 1, testPages: 0, stringRenders: 0, htmlPreviews: 0 },
      ],
    });
    // from alone: to its month's last day.
    expect((await api("/v1/usage?from=2025-02-01", { key: w.key })).body.to).toBe("2025-02-28");
  });

  it("accepts 366 days and refuses 367, a reversed range, and dates that are not dates", async () => {
    const w = await createTestWorkspace();
    expect((await api("/v1/usage?from=2024-01-01&to=2024-12-31", { key: w.key })).status).toBe(200); // leap year: 366 days
    expectError(await api("/v1/usage?from=2024-01-01&to=2025-01-01", { key: w.key }), 400, "LIMIT_EXCEEDED");
    expectError(await api("/v1/usage?from=2025-02-02&to=2025-02-01", { key: w.key }), 400, "BAD_REQUEST");
    expectError(await api("/v1/usage?from=2025-02-30", { key: w.key }), 400, "BAD_REQUEST");
    expectError(await api("/v1/usage?from=yesterday", { key: w.key }), 400, "BAD_REQUEST");
  });

  it("needs usage:read", async () => {
    const w = await createTestWorkspace({ scopes: ["render:read"] });
    expectError(await api("/v1/usage", { key: w.key }), 403, "FORBIDDEN");
  });
});

describe("string renders and HTML previews in usage", () => {
  /** A workspace whose every allowance a render could take is used up, with a Handlebars template. */
  async function exhaustedWorkspace() {
    const w = await createTestWorkspace();
    // spec: What counts: "POST /v1/renders/string and preview as HTML | nothing", so no 402 even here.
    await db().update(workspaces).set({ documentsPerMonth: 0, testRendersPerDay: 0 }).where(eq(workspaces.id, w.id));
    const t = await api("/v1/templates", { key: w.key, body: { name: "Counted", kind: "handlebars", content: { templateHtml: "<p>Hello {{name}}</p>" } } });
    expect(t.status, t.text).toBe(201);
    return { w, templateId: t.body.id as string };
  }

  it("count one string render and one HTML preview on the day they answer, in totals and days, and in no render counter or allowance", async () => {
    const { w, templateId } = await exhaustedWorkspace();
    const before = await api("/v1/render-limits", { key: w.key });
    const first = today();
    const string = await api("/v1/renders/string", { key: w.key, body: { template: "<p>{{name}}</p>", data: { name: "Ada" } } });
    expect(string.status, string.text).toBe(200);
    expect(string.body).toEqual({ html: "<p>Ada</p>" });
    const preview = await api(`/v1/templates/${templateId}/preview`, { key: w.key, body: { data: { name: "Ada" }, format: "html" } });
    expect(preview.status, preview.text.slice(0, 300)).toBe(200);
    expect(preview.text).toContain("<p>Hello Ada</p>");
    const last = today();

    // Around midnight UTC the two may answer on two days: ask for a range holding both.
    const res = await api(`/v1/usage?from=${first}&to=${last}`, { key: w.key });
    expect(res.status).toBe(200);
    const none = { rendersSucceeded: 0, rendersFailed: 0, rendersCancelled: 0, pages: 0, outputBytes: 0, testRenders: 0, testPages: 0 };
    expect(res.body.totals).toEqual({ ...none, stringRenders: 1, htmlPreviews: 1 });
    if (first === last) expect(res.body.days).toEqual([{ date: first, ...none, stringRenders: 1, htmlPreviews: 1 }]);
    else expect(res.body.days.map((d: { date: string }) => d.date).every((d: string) => d === first || d === last)).toBe(true);

    const after = await api("/v1/render-limits", { key: w.key });
    expect(after.body).toMatchObject({ documentsThisMonth: 0, testRendersToday: 0 });
    expect(after.body).toEqual(before.body);
    expect((await api("/v1/renders", { key: w.key })).body.items).toEqual([]);
  });

  it("count the second and later ones on the same row, and a console person's HTML preview too", async () => {
    const { w, templateId } = await exhaustedWorkspace();
    const first = today();
    const strings = await Promise.all([1, 2, 3].map((i) => api("/v1/renders/string", { key: w.key, body: { template: `<i>${i}</i>` } })));
    expect(strings.map((r) => r.status)).toEqual([200, 200, 200]);
    const person = await w.signIn("content_editor");
    const preview = await api(`/v1/templates/${templateId}/preview`, { cookie: person.cookie, body: { data: { name: "Grace" }, format: "html" } });
    expect(preview.status, preview.text.slice(0, 300)).toBe(200);
    const res = await api(`/v1/usage?from=${first}&to=${today()}`, { key: w.key });
    expect(res.body.totals).toMatchObject({ stringRenders: 3, htmlPreviews: 1, rendersSucceeded: 0 });
  });

  it("count nothing for a refused string render or preview", async () => {
    const { w, templateId } = await exhaustedWorkspace();
    const first = today();
    // One refused by the sandbox, after running the template; one refused before.
    expectError(await api("/v1/renders/string", { key: w.key, body: { template: "{{#if}}{{/if}}" } }), 400, "BAD_REQUEST");
    expectError(await api("/v1/renders/string", { key: w.key, body: { template: "{{x}}", extra: 1 } }), 400, "BAD_REQUEST");
    expectError(await api(`/v1/templates/${templateId}/preview`, { key: w.key, body: { format: "html", image: { page: 1 } } }), 400, "BAD_REQUEST");
    const res = await api(`/v1/usage?from=${first}&to=${today()}`, { key: w.key });
    expect(res.body.days).toEqual([]);
    expect(res.body.totals).toMatchObject({ stringRenders: 0, htmlPreviews: 0 });
  });
});

describe("platform administration", () => {
  it("lists workspaces with usage in a range, paged, for a platform administrator only", async () => {
    const admin = await platformAdmin();
    const [a, b] = [await createTestWorkspace(), await createTestWorkspace()];
    await db().insert(usageDays).values([
      { workspaceId: a.id, day: "2019-03-01", rendersSucceeded: 2, pages: 4, outputBytes: 100, testRenders: 1, testPages: 3 },
      { workspaceId: a.id, day: "2019-03-02", rendersFailed: 1 },
      { workspaceId: b.id, day: "2019-03-02", rendersSucceeded: 1, pages: 1, outputBytes: 7 },
    ]);
    const first = await api("/v1/platform/usage?from=2019-03-01&to=2019-03-31&limit=1", { cookie: admin.cookie });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(1);
    const second = await api(`/v1/platform/usage?from=2019-03-01&to=2019-03-31&limit=1&cursor=${first.body.nextCursor}`, { cookie: admin.cookie });
    const all = [...first.body.items, ...second.body.items].sort((x, y) => x.name.localeCompare(y.name));
    const byId = Object.fromEntries([...first.body.items, ...second.body.items].map((i) => [i.workspaceId, i]));
    expect(all).toHaveLength(2);
    expect(byId[a.id]).toMatchObject({ rendersSucceeded: 2, rendersFailed: 1, rendersCancelled: 0, pages: 4, outputBytes: 100, testRenders: 1, testPages: 3 });
    expect(byId[b.id]).toMatchObject({ rendersSucceeded: 1, pages: 1, outputBytes: 7, testRenders: 0, testPages: 0 });
    expect(second.body.nextCursor).toBeUndefined();

    const owner = await a.signIn("owner");
    expectError(await api("/v1/platform/usage", { cookie: owner.cookie }), 403, "FORBIDDEN");
    expectError(await api("/v1/platform/usage", { key: a.key }), 403, "FORBIDDEN");
    expectError(await api("/v1/platform/workspaces", { cookie: owner.cookie }), 403, "FORBIDDEN");
    expectError(await api(`/v1/platform/workspaces/${a.id}`, { method: "PATCH", cookie: owner.cookie, body: { suspended: true } }), 403, "FORBIDDEN");
  });

  it("finds workspaces by part of the name, ignoring case, or by id; % and _ are plain characters", async () => {
    const admin = await platformAdmin();
    const tag = randomBytes(4).toString("hex");
    const [acme, acmeEu, other, percent] = await Promise.all([
      createTestWorkspace({ name: `Acme ${tag}` }),
      createTestWorkspace({ name: `ACME ${tag} Europe` }),
      createTestWorkspace({ name: `Globex ${tag}` }),
      createTestWorkspace({ name: `Sale 50% ${tag}` }),
    ]);
    const find = async (q: string, extra = "") => {
      const res = await api(`/v1/platform/workspaces?q=${encodeURIComponent(q)}${extra}`, { cookie: admin.cookie });
      expect(res.status, res.text).toBe(200);
      return res.body as { items: { id: string; name: string; limits: { maxActiveRenders: number } }[]; nextCursor?: string };
    };
    const byName = await find(`acme ${tag}`);
    expect(byName.items.map((i) => i.id)).toEqual([acme.id, acmeEu.id].sort());
    expect(byName.items[0]!.limits.maxActiveRenders).toBe(10);
    expect((await find(other.id)).items.map((i) => i.name)).toEqual([`Globex ${tag}`]);
    expect((await find(`  ${other.id} `)).items.map((i) => i.id)).toEqual([other.id]); // spaces around are ignored
    expect((await find(`50% ${tag}`)).items.map((i) => i.id)).toEqual([percent.id]);
    expect((await find(`5_% ${tag}`)).items).toEqual([]);
    expect((await find(`no such ${tag}`)).items).toEqual([]);
    // The search goes with its cursor: one at a time, the two Acmes over two pages.
    const first = await find(tag, "&limit=1");
    const second = await find(tag, `&limit=1&cursor=${first.nextCursor}`);
    expect([...first.items, ...second.items].map((i) => i.id)).toEqual([acme.id, acmeEu.id, other.id, percent.id].sort().slice(0, 2));

    const long = expectError(await api(`/v1/platform/workspaces?q=${"x".repeat(121)}`, { cookie: admin.cookie }), 400, "BAD_REQUEST");
    expect(long.details).toEqual([{ path: "query.q", message: expect.stringMatching(/120/) }]);
    expectError(await api(`/v1/platform/workspaces?q=${tag}`, { key: acme.key }), 403, "FORBIDDEN");
  });

  it("pages through every workspace and changes allowances and suspended, audited; a suspended workspace refuses renders and keys but its members still read", async () => {
    const admin = await platformAdmin();
    const w = await createTestWorkspace();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api(`/v1/platform/workspaces?limit=100${cursor ? `&cursor=${cursor}` : ""}`, { cookie: admin.cookie });
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((i: { id: string }) => i.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toContain(w.id);
    expect(new Set(seen).size).toBe(seen.length);

    const patched = await api(`/v1/platform/workspaces/${w.id}`, { method: "PATCH", cookie: admin.cookie, body: { maxActiveRenders: 3, documentsPerMonth: 50 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: w.id, suspended: false, limits: { maxActiveRenders: 3, documentsPerMonth: 50 } });
    expect((await api("/v1/render-limits", { key: w.key })).body).toMatchObject({ maxActiveRenders: 3, documentsPerMonth: 50 });
    const tooFew = expectError(await api(`/v1/platform/workspaces/${w.id}`, { method: "PATCH", cookie: admin.cookie, body: { maxActiveRenders: 0 } }), 400, "BAD_REQUEST");
    expect(tooFew.message).toBe("maxActiveRenders: must be a whole number from 1 to 100,000");
    expect(tooFew.details).toEqual([{ path: "maxActiveRenders", message: "must be a whole number from 1 to 100,000" }]);
    expectError(await api(`/v1/platform/workspaces/ws_doesnotexist`, { method: "PATCH", cookie: admin.cookie, body: { suspended: true } }), 404, "NOT_FOUND");

    const member = await w.signIn("owner");
    const suspended = await api(`/v1/platform/workspaces/${w.id}`, { method: "PATCH", cookie: admin.cookie, body: { suspended: true } });
    expect(suspended.body.suspended).toBe(true);
    expectError(await createRender(w.key, { document: { html: "<p>x</p>" } }), 403, "FORBIDDEN");
    // Key requests: within about a second (the key cache, spec: API key).
    await expect.poll(async () => (await api("/v1/render-limits", { key: w.key })).status, { timeout: 5_000 }).toBe(403);
    const read = await api("/v1/render-limits", { cookie: member.cookie });
    expect(read.status).toBe(200);
    expect(read.body.suspended).toBe(true);
    expect((await api("/v1/usage", { cookie: member.cookie })).status).toBe(200);

    await api(`/v1/platform/workspaces/${w.id}`, { method: "PATCH", cookie: admin.cookie, body: { suspended: false } });
    await expect.poll(async () => (await createRender(w.key, { document: { html: "<p>x</p>" } })).status, { timeout: 5_000 }).toBeLessThan(300);

    const audit = await db().select().from(auditEvents).where(eq(auditEvents.workspaceId, w.id));
    const actions = audit.filter((e) => e.actorId !== "test").map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["workspace.update_limits", "workspace.suspend", "workspace.unsuspend"]));
    const limits = audit.find((e) => e.action === "workspace.update_limits")!;
    expect(limits.details).toMatchObject({ before: { maxActiveRenders: 10, documentsPerMonth: null }, after: { maxActiveRenders: 3, documentsPerMonth: 50 } });
  });
});
