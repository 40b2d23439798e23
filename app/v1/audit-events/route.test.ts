import { describe, expect, it } from "vitest";
import { recordAudit } from "@/lib/audit";
import { systemCtx } from "@/lib/auth/context";
import { db } from "@/lib/db/client";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";

type Event = {
  id: string;
  action: string;
  actor: { type: string; id: string };
  targetType: string;
  targetId: string;
  createdAt: string;
  details: Record<string, unknown>;
};
type Page = { items: Event[]; nextCursor?: string };

/** Records events n..n+count-1 of `action`, all in one transaction (they share one createdAt) or one per transaction. */
async function record(w: TestWorkspace, action: string, from: number, count: number, oneTransaction: boolean) {
  const ctx = systemCtx(w.id, "paging-test");
  const one = (ex: Parameters<typeof recordAudit>[0], n: number) =>
    recordAudit(ex, ctx, action, { type: "thing", id: `thing_${n}` }, { n });
  if (oneTransaction) {
    await db().transaction(async (tx) => {
      for (let n = from; n < from + count; n++) await one(tx, n);
    });
  } else {
    for (let n = from; n < from + count; n++) await db().transaction((tx) => one(tx, n));
  }
}

const list = async (w: TestWorkspace, query: string) => {
  const res = await api<Page>(`/v1/audit-events${query}`, { key: w.key });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe("GET /v1/audit-events", () => {
  it("pages 120 events newest first, each exactly once, while 30 more are recorded concurrently", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    // Half share one transaction (equal createdAt, so the id breaks ties), half get their own.
    await record(w, "test.original", 0, 60, true);
    await record(w, "test.original", 60, 60, false);
    await record(other, "test.other", 0, 10, true);

    const seen: Event[] = [];
    const first = await list(w, "?limit=25");
    expect(first.items).toHaveLength(25);
    seen.push(...first.items);

    let cursor = first.nextCursor;
    const inserting = record(w, "test.concurrent", 0, 30, false);
    let pages = 1;
    let last: Page = first;
    while (cursor) {
      last = await list(w, `?limit=25&cursor=${encodeURIComponent(cursor)}`);
      seen.push(...last.items);
      cursor = last.nextCursor;
      pages++;
      expect(pages).toBeLessThan(20);
    }
    await inserting;

    expect(last.nextCursor).toBeUndefined();
    const ids = seen.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Keyset paging: events recorded after the first page land before the cursor, never on later pages.
    expect(seen.filter((e) => e.action === "test.concurrent")).toEqual([]);
    const originals = seen.filter((e) => e.action === "test.original").map((e) => e.details.n as number);
    expect(originals.sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    // The factory's workspace.create and api_key.create come along; nothing of the other workspace does.
    expect(seen.map((e) => e.action).filter((a) => !a.startsWith("test.")).sort()).toEqual(["api_key.create", "workspace.create"]);
    expect(seen.some((e) => e.action === "test.other")).toBe(false);
    expect(seen).toHaveLength(122);
    expect(pages).toBe(5);

    const times = seen.map((e) => Date.parse(e.createdAt));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]!);

    // The 30 concurrent ones are on top of a fresh first page.
    const fresh = await list(w, "?limit=30");
    expect(fresh.items.map((e) => e.action)).toEqual(Array(30).fill("test.concurrent"));
    expect(fresh.nextCursor).toBeDefined();
  });

  it("answers items in the documented shape", async () => {
    const w = await createTestWorkspace();
    await record(w, "test.shape", 7, 1, true);
    const page = await list(w, "");
    const e = page.items.find((i) => i.action === "test.shape");
    expect(e).toEqual({
      id: expect.stringMatching(/^aud_[0-9A-Za-z]+$/),
      action: "test.shape",
      actor: { type: "system", id: "paging-test" },
      targetType: "thing",
      targetId: "thing_7",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      details: { n: 7 },
    });
    expect(Math.abs(Date.parse(e!.createdAt) - Date.now())).toBeLessThan(60_000);
    const created = page.items.find((i) => i.action === "api_key.create");
    expect(created).toMatchObject({ actor: { type: "system", id: "test" }, targetType: "api_key", targetId: w.keyId });
  });

  it("pages 25 by default and at most 100", async () => {
    const w = await createTestWorkspace();
    await record(w, "test.many", 0, 110, true);
    const byDefault = await list(w, "");
    expect(byDefault.items).toHaveLength(25);
    expect(byDefault.nextCursor).toEqual(expect.any(String));

    const max = await list(w, "?limit=100");
    expect(max.items).toHaveLength(100);
    const rest = await list(w, `?limit=100&cursor=${encodeURIComponent(max.nextCursor!)}`);
    expect(rest.items).toHaveLength(12);
    expect(rest.nextCursor).toBeUndefined();

    const one = await list(w, "?limit=1");
    expect(one.items).toHaveLength(1);
  });

  it("refuses a limit outside 1 to 100 and a cursor it did not return", async () => {
    const w = await createTestWorkspace();
    for (const limit of ["0", "101", "abc", "2.5"]) {
      const e = expectError(await api(`/v1/audit-events?limit=${limit}`, { key: w.key }), 400, "BAD_REQUEST");
      expect(e.details?.[0]).toMatchObject({ path: "query.limit" });
    }
    const e = expectError(await api("/v1/audit-events?cursor=not-a-cursor", { key: w.key }), 400, "BAD_REQUEST");
    expect(e.message).toContain("cursor");
    expect((e.details?.[0] as { path: string }).path).toMatch(/(^|\.)cursor$/);
    expectError(await api("/v1/audit-events?colour=red", { key: w.key }), 400, "BAD_REQUEST");
  });

  it("never shows another workspace's events, even with that workspace's cursor", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    await record(other, "test.other", 0, 5, true);
    const mine = await list(w, "?limit=100");
    expect(mine.items.map((e) => e.action).sort()).toEqual(["api_key.create", "workspace.create"]);
    const theirs = await list(other, "?limit=2");
    const viaCursor = await list(w, `?limit=100&cursor=${encodeURIComponent(theirs.nextCursor!)}`);
    expect(viaCursor.items.some((e) => e.action === "test.other")).toBe(false);
  });

  it("answers a console session of the workspace", async () => {
    const w = await createTestWorkspace();
    const { cookie, userId } = await w.signIn("owner");
    const res = await api<Page>("/v1/audit-events", { cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items[0]).toMatchObject({ action: "user.create", targetId: userId });
  });

  describe("filters", () => {
    it("lists only one actor's events, one action's, or both, and pages them with the same filters", async () => {
      const w = await createTestWorkspace();
      const { cookie, userId } = await w.signIn("owner");
      // The person creates three keys (api_key.create by the user) and revokes one (api_key.revoke).
      const made: string[] = [];
      for (const name of ["a", "b", "c"]) {
        const res = await api("/v1/api-keys", { method: "POST", cookie, body: { name, scopes: ["render:read"] } });
        expect(res.status, res.text).toBe(201);
        made.push(res.body.id);
      }
      expect((await api(`/v1/api-keys/${made[0]}/revoke`, { method: "POST", cookie })).status).toBe(200);
      await record(w, "test.system", 0, 2, false);

      const byUser = await list(w, `?actorId=${userId}`);
      expect(byUser.items.map((e) => e.action)).toEqual(["api_key.revoke", "api_key.create", "api_key.create", "api_key.create"]);
      expect(byUser.items.every((e) => e.actor.type === "user" && e.actor.id === userId)).toBe(true);

      const creates = await list(w, "?action=api_key.create");
      // The factory's own key (system actor) and the person's three.
      expect(creates.items.map((e) => e.targetId)).toEqual([...made].reverse().concat(w.keyId));

      const both = await list(w, `?action=api_key.create&actorId=${userId}&limit=2`);
      expect(both.items.map((e) => e.targetId)).toEqual([made[2], made[1]]);
      const rest = await list(w, `?action=api_key.create&actorId=${userId}&limit=2&cursor=${encodeURIComponent(both.nextCursor!)}`);
      expect(rest.items.map((e) => e.targetId)).toEqual([made[0]]);
      expect(rest.nextCursor).toBeUndefined();

      // why sorted: the two were recorded back to back and may share a millisecond, whose order the ids decide.
      expect((await list(w, "?actorId=paging-test")).items.map((e) => e.details.n as number).sort()).toEqual([0, 1]);
      expect((await list(w, "?action=nothing.happened")).items).toEqual([]);
    });

    it("answers 400 naming the parameter for an empty or overlong filter", async () => {
      const w = await createTestWorkspace();
      for (const [query, path] of [
        ["action=", "query.action"],
        ["actorId=", "query.actorId"],
        [`action=${"a".repeat(101)}`, "query.action"],
        ["action=a&action=b", "query.action"],
      ]) {
        const e = expectError(await api(`/v1/audit-events?${query}`, { key: w.key }), 400, "BAD_REQUEST");
        expect(e.details, query).toEqual([expect.objectContaining({ path })]);
      }
    });
  });

  describe("security", () => {
    securityCases({ scope: "audit:read", request: (_w, key) => api("/v1/audit-events", { key }) });
  });
});
