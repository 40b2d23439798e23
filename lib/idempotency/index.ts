import { and, eq, gt, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor, Tx } from "../db/client";
import { idempotencyRecords } from "../db/schema";
import { conflict } from "../errors";

export { canonicalJson, requestHash } from "./canonical";

/** decisions.md: keys are remembered 24 hours per workspace and endpoint. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** The Idempotency-Key header: 1 to 255 printable ASCII characters. */
export const IdempotencyKey = z.string().regex(/^[\x21-\x7e]{1,255}$/, "must be 1 to 255 printable ASCII characters without spaces");

export type IdempotencyScope = { workspaceId: string; endpoint: string; key: string; requestHash: string };

/**
 * Runs `create` once per key. Call it inside the transaction that creates the resource: the
 * record commits with the resource or not at all. A concurrent duplicate waits on the record's
 * unique key until the first transaction ends, then gets the first resource's id. The same key
 * with a different request answers 409 CONFLICT.
 */
export async function idempotent(
  tx: Tx,
  scope: IdempotencyScope,
  resourceId: string,
  create: () => Promise<void>,
): Promise<{ resourceId: string; replayed: boolean }> {
  const pk = and(
    eq(idempotencyRecords.workspaceId, scope.workspaceId),
    eq(idempotencyRecords.endpoint, scope.endpoint),
    eq(idempotencyRecords.key, scope.key),
  );
  await tx.delete(idempotencyRecords).where(and(pk, lt(idempotencyRecords.expiresAt, sql`now()`)));
  const inserted = await tx
    .insert(idempotencyRecords)
    .values({ ...scope, resourceId, expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS) })
    .onConflictDoNothing()
    .returning({ resourceId: idempotencyRecords.resourceId });
  if (inserted.length === 1) {
    await create();
    return { resourceId, replayed: false };
  }
  const [existing] = await tx.select().from(idempotencyRecords).where(pk);
  if (!existing) throw conflict("A request with this Idempotency-Key is still being processed; retry shortly", { retryable: true });
  if (existing.requestHash !== scope.requestHash) {
    throw conflict("This Idempotency-Key was already used with a different request");
  }
  return { resourceId: existing.resourceId, replayed: true };
}

/**
 * The resource a key already names, read without a transaction: lets a verb answer a repeat before
 * doing the work of a first request (`idempotent` still decides, inside the creating transaction,
 * when two requests race). 409 CONFLICT when the key was used with a different request.
 */
export async function priorResource(ex: Executor, scope: IdempotencyScope): Promise<string | undefined> {
  const [existing] = await ex
    .select()
    .from(idempotencyRecords)
    .where(
      and(
        eq(idempotencyRecords.workspaceId, scope.workspaceId),
        eq(idempotencyRecords.endpoint, scope.endpoint),
        eq(idempotencyRecords.key, scope.key),
        gt(idempotencyRecords.expiresAt, sql`now()`),
      ),
    );
  if (!existing) return undefined;
  if (existing.requestHash !== scope.requestHash) throw conflict("This Idempotency-Key was already used with a different request");
  return existing.resourceId;
}

/** Deletes records past their 24 hours (the worker's maintenance job). */
export async function pruneIdempotencyRecords(ex: Executor) {
  await ex.delete(idempotencyRecords).where(lt(idempotencyRecords.expiresAt, sql`now()`));
}
