import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { auditEvents, idempotencyRecords } from "../db/schema";
import { AppError } from "../errors";
import { createTestWorkspace } from "../testing/factories";
import { IDEMPOTENCY_TTL_MS, idempotent, type IdempotencyScope } from ".";
import { canonicalJson, requestHash } from "./canonical";

const ENDPOINT = "POST /v1/renders";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One request as a route would run it: in a transaction, idempotent() guards the insert of a real
 * row (an audit event whose id is the resource id and whose target is the key).
 */
async function request(scope: IdempotencyScope, opts: { createDelayMs?: number; throwAfter?: boolean } = {}) {
  let created = 0;
  const resourceId = newId("aud");
  const result = await db().transaction(async (tx) => {
    const r = await idempotent(tx, scope, resourceId, async () => {
      created++;
      await tx.insert(auditEvents).values({
        id: resourceId,
        workspaceId: scope.workspaceId,
        action: "idempotency.test",
        actorType: "system",
        actorId: "test",
        targetType: "idempotency_key",
        targetId: `${scope.endpoint} ${scope.key}`,
      });
      if (opts.createDelayMs) await sleep(opts.createDelayMs);
    });
    if (opts.throwAfter) throw new Error("the rest of the request failed");
    return r;
  });
  return { ...result, created, candidate: resourceId };
}

async function rowsFor(scope: IdempotencyScope) {
  return db()
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(and(eq(auditEvents.workspaceId, scope.workspaceId), eq(auditEvents.targetId, `${scope.endpoint} ${scope.key}`)));
}

async function recordOf(scope: Pick<IdempotencyScope, "workspaceId" | "endpoint" | "key">) {
  const [r] = await db()
    .select()
    .from(idempotencyRecords)
    .where(
      and(
        eq(idempotencyRecords.workspaceId, scope.workspaceId),
        eq(idempotencyRecords.endpoint, scope.endpoint),
        eq(idempotencyRecords.key, scope.key),
      ),
    );
  return r;
}

async function newScope(endpoint = ENDPOINT): Promise<IdempotencyScope> {
  const w = await createTestWorkspace();
  return { workspaceId: w.id, endpoint, key: `key-${randomBytes(6).toString("hex")}`, requestHash: requestHash("POST", "/v1/renders", { a: 1 }) };
}

describe("idempotent()", () => {
  it("runs create once for 10 concurrent requests with the same key and request", async () => {
    const scope = await newScope();
    const results = await Promise.all(Array.from({ length: 10 }, () => request(scope, { createDelayMs: 150 })));

    expect(results.reduce((n, r) => n + r.created, 0)).toBe(1);
    const winner = results.find((r) => r.created === 1)!;
    expect(winner.replayed).toBe(false);
    expect(winner.resourceId).toBe(winner.candidate);
    expect(results.map((r) => r.resourceId)).toEqual(Array(10).fill(winner.resourceId));
    expect(results.filter((r) => r.replayed)).toHaveLength(9);

    expect(await rowsFor(scope)).toEqual([{ id: winner.resourceId }]);
    const rec = await recordOf(scope);
    expect(rec).toMatchObject({ resourceId: winner.resourceId, requestHash: scope.requestHash });
    // decisions.md: remembered 24 hours.
    expect(Math.abs(rec!.expiresAt.getTime() - (Date.now() + IDEMPOTENCY_TTL_MS))).toBeLessThan(60_000);
    expect(IDEMPOTENCY_TTL_MS).toBe(24 * 3_600_000);
  });

  it("answers a sequential repeat with the first resource without creating", async () => {
    const scope = await newScope();
    const first = await request(scope);
    const again = await request(scope);
    expect(first).toMatchObject({ replayed: false, created: 1 });
    expect(again).toMatchObject({ replayed: true, created: 0, resourceId: first.resourceId });
    expect(await rowsFor(scope)).toHaveLength(1);
  });

  it("answers 409 CONFLICT for the same key with a different request", async () => {
    const scope = await newScope();
    const first = await request(scope);
    const err = await request({ ...scope, requestHash: requestHash("POST", "/v1/renders", { a: 2 }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "CONFLICT", status: 409, retryable: false });
    expect(await rowsFor(scope)).toEqual([{ id: first.resourceId }]);
    expect((await recordOf(scope))?.requestHash).toBe(scope.requestHash);
  });

  it("keeps keys per endpoint and per workspace", async () => {
    const scope = await newScope();
    const other = await newScope();
    const first = await request(scope);
    const batch = await request({ ...scope, endpoint: "POST /v1/renders/batch" });
    expect(batch).toMatchObject({ replayed: false, created: 1 });
    expect(batch.resourceId).not.toBe(first.resourceId);
    const otherWorkspace = await request({ ...scope, workspaceId: other.workspaceId });
    expect(otherWorkspace).toMatchObject({ replayed: false, created: 1 });
    // The original is still remembered.
    expect(await request(scope)).toMatchObject({ replayed: true, resourceId: first.resourceId });
  });

  it("replaces a record past its expiry", async () => {
    const scope = await newScope();
    const first = await request(scope);
    await db()
      .update(idempotencyRecords)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(idempotencyRecords.workspaceId, scope.workspaceId), eq(idempotencyRecords.key, scope.key)));

    // Even a different request is accepted once the old record expired.
    const changed = { ...scope, requestHash: requestHash("POST", "/v1/renders", { a: 3 }) };
    const second = await request(changed);
    expect(second).toMatchObject({ replayed: false, created: 1 });
    expect(second.resourceId).not.toBe(first.resourceId);
    const rec = await recordOf(scope);
    expect(rec).toMatchObject({ resourceId: second.resourceId, requestHash: changed.requestHash });
    expect(rec!.expiresAt.getTime()).toBeGreaterThan(Date.now() + IDEMPOTENCY_TTL_MS - 60_000);
    expect(await request(changed)).toMatchObject({ replayed: true, resourceId: second.resourceId });
  });

  it("leaves no record when the transaction fails after it, so the key can be used again", async () => {
    const scope = await newScope();
    await expect(request(scope, { throwAfter: true })).rejects.toThrow("the rest of the request failed");
    expect(await recordOf(scope)).toBeUndefined();
    expect(await rowsFor(scope)).toEqual([]);

    const retry = await request(scope);
    expect(retry).toMatchObject({ replayed: false, created: 1 });
    expect(await rowsFor(scope)).toEqual([{ id: retry.resourceId }]);
  });

  it("lets a waiting duplicate create when the first transaction rolls back", async () => {
    const scope = await newScope();
    const failing = request(scope, { createDelayMs: 200, throwAfter: true }).catch((e: unknown) => e);
    await sleep(50);
    const waiting = await request(scope);
    expect(await failing).toBeInstanceOf(Error);
    expect(waiting).toMatchObject({ replayed: false, created: 1 });
    expect(await rowsFor(scope)).toEqual([{ id: waiting.resourceId }]);
  });
});

describe("requestHash", () => {
  const body = { format: "pdf", document: { html: "<p>x</p>", settings: { title: "T", locale: "en-US" } }, items: [1, { b: 2, a: 1 }] };
  const reordered = { items: [1, { a: 1, b: 2 }], document: { settings: { locale: "en-US", title: "T" }, html: "<p>x</p>" }, format: "pdf" };

  it("is equal for the same body in another key order", () => {
    expect(canonicalJson(reordered)).toBe(canonicalJson(body));
    expect(requestHash("POST", "/v1/renders", reordered)).toBe(requestHash("POST", "/v1/renders", body));
    expect(requestHash("POST", "/v1/renders", body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("differs for another method, path, value or array order", () => {
    const h = requestHash("POST", "/v1/renders", body);
    expect(requestHash("PUT", "/v1/renders", body)).not.toBe(h);
    expect(requestHash("POST", "/v1/renders/batch", body)).not.toBe(h);
    expect(requestHash("POST", "/v1/renders", { ...body, format: "png" })).not.toBe(h);
    expect(requestHash("POST", "/v1/renders", { ...body, items: [{ a: 1, b: 2 }, 1] })).not.toBe(h);
    expect(requestHash("POST", "/v1/renders", {})).not.toBe(requestHash("POST", "/v1/renders", []));
  });
});
