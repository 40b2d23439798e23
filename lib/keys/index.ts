import { recordAudit } from "../audit";
import { requireScope, SUSPENDED_MESSAGE, type Ctx } from "../auth/context";
import { deployKeyScopes, type Scope } from "../auth/scopes";
import { db, withTx, type Executor } from "../db/client";
import { newId } from "../db/ids";
import type { ApiKeyRow } from "../db/schema";
import { conflict, forbidden, notFound, unauthorized } from "../errors";
import { log } from "../log";
import * as repo from "./repository";
import type { ApiKey, CreateKeyInput } from "./schemas";
import { displayPrefix, hashSecret, looksLikeKeySecret, newKeySecret } from "./secret";

export { CreateKeyInput, type ApiKey } from "./schemas";

const DAY = 86_400_000;
/** spec: API key > rotate: the old secret keeps working this long, or until its own expiry. */
export const ROTATION_GRACE_MS = 15 * 60_000;

export function keyStatus(r: Pick<ApiKeyRow, "revokedAt" | "expiresAt">, now = new Date()): ApiKey["status"] {
  if (r.revokedAt) return "revoked";
  if (r.expiresAt && r.expiresAt <= now) return "expired";
  return "active";
}

function toPublic(r: ApiKeyRow): ApiKey {
  const k: ApiKey = {
    id: r.id,
    name: r.name,
    scopes: r.scopes,
    prefix: r.prefix,
    createdAt: r.createdAt.toISOString(),
    status: keyStatus(r),
    setByServer: r.setByServer,
  };
  if (r.expiresAt) k.expiresAt = r.expiresAt.toISOString();
  if (r.lastUsedAt) k.lastUsedAt = r.lastUsedAt.toISOString();
  if (r.rotatedAt) k.rotatedAt = r.rotatedAt.toISOString();
  return k;
}

/** Creates a key and returns its secret once; only the SHA-256 of the secret is stored. */
export async function createKey(ctx: Ctx, input: CreateKeyInput): Promise<ApiKey & { secret: string }> {
  requireScope(ctx, "admin:manage", "manage API keys");
  return withTx(async (tx) => {
    const { row, secret } = await insertNewKey(tx, ctx, input.name, input.scopes, input.expiresInDays ?? null);
    await recordAudit(tx, ctx, "api_key.create", { type: "api_key", id: row.id }, { name: row.name, scopes: row.scopes });
    return { ...toPublic(row), secret };
  });
}

async function insertNewKey(ex: Executor, ctx: Ctx, name: string, scopes: readonly string[], lifetimeDays: number | null) {
  const secret = newKeySecret();
  const row = await repo.insertKey(ex, {
    id: newId("key"),
    workspaceId: ctx.workspaceId,
    name,
    scopes: [...scopes],
    prefix: displayPrefix(secret),
    secretHash: hashSecret(secret),
    lifetimeDays,
    expiresAt: lifetimeDays === null ? null : new Date(Date.now() + lifetimeDays * DAY),
    createdByUserId: ctx.actor.type === "user" ? ctx.actor.userId : null,
  });
  return { row, secret };
}

/** All keys of the workspace, newest first, never with secrets (admin:manage). */
export async function listKeys(ctx: Ctx): Promise<{ items: ApiKey[] }> {
  requireScope(ctx, "admin:manage");
  const rows = await repo.listKeys(db(), ctx.workspaceId);
  return { items: rows.map(toPublic) };
}

async function lockKey(tx: Executor, ctx: Ctx, id: string) {
  const row = await repo.findKey(tx, ctx.workspaceId, id, { forUpdate: true });
  if (!row) throw notFound("API key", id);
  return row;
}

/**
 * Replaces a key by a new one with the same name, scopes and lifetime counted from now. The old
 * secret keeps working for 15 minutes or until its own expiry, whichever comes first.
 */
export async function rotateKey(ctx: Ctx, id: string): Promise<ApiKey & { secret: string }> {
  requireScope(ctx, "admin:manage", "manage API keys");
  return withTx(async (tx) => {
    const old = await lockKey(tx, ctx, id);
    // spec: Errors > Conflict causes: rotating or deleting the deploy key.
    if (old.setByServer) throw conflict("The deploy key is set by the server's DEPLOY_API_KEY and cannot be rotated; change the variable instead");
    if (old.rotatedAt) throw conflict("This key was already rotated; rotate its replacement instead");
    if (keyStatus(old) !== "active") throw conflict(`Only an active key can be rotated; this one is ${keyStatus(old)}`);
    const { row, secret } = await insertNewKey(tx, ctx, old.name, old.scopes, old.lifetimeDays);
    const graceEnd = new Date(Date.now() + ROTATION_GRACE_MS);
    await repo.updateKey(tx, old.id, {
      rotatedAt: new Date(),
      expiresAt: old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd,
    });
    await recordAudit(tx, ctx, "api_key.rotate", { type: "api_key", id: old.id }, { replacementId: row.id });
    return { ...toPublic(row), secret };
  });
}

/** Revokes a key; it stays listed as revoked and stops working within about a second. */
export async function revokeKey(ctx: Ctx, id: string): Promise<ApiKey> {
  requireScope(ctx, "admin:manage", "manage API keys");
  return withTx(async (tx) => {
    const row = await lockKey(tx, ctx, id);
    if (row.revokedAt) return toPublic(row);
    const updated = await repo.updateKey(tx, row.id, { revokedAt: new Date() });
    await recordAudit(tx, ctx, "api_key.revoke", { type: "api_key", id: row.id });
    return toPublic(updated);
  });
}

/** Deletes a key; its audit history stays. */
export async function deleteKey(ctx: Ctx, id: string): Promise<{ deleted: true; ids: string[] }> {
  requireScope(ctx, "admin:manage", "manage API keys");
  return withTx(async (tx) => {
    const row = await lockKey(tx, ctx, id);
    if (row.setByServer) throw conflict("The deploy key is set by the server's DEPLOY_API_KEY and cannot be deleted; revoke it or unset the variable");
    await repo.deleteKey(tx, row.id);
    await recordAudit(tx, ctx, "api_key.delete", { type: "api_key", id: row.id }, { name: row.name });
    return { deleted: true, ids: [row.id] };
  });
}

/** Creates the key directly, for the admin CLI and quick start (system actor). */
export async function createKeyAsSystem(ctx: Ctx, name: string, scopes: readonly Scope[], expiresInDays: number | null) {
  return withTx(async (tx) => {
    const { row, secret } = await insertNewKey(tx, ctx, name, scopes, expiresInDays);
    await recordAudit(tx, ctx, "api_key.create", { type: "api_key", id: row.id }, { name, scopes });
    return { ...toPublic(row), secret };
  });
}

/**
 * Makes DEPLOY_API_KEY a key of the workspace, marked set by server. A changed value replaces the
 * stored hash; a revoked deploy key stays revoked while the value is unchanged.
 */
export async function ensureDeployKey(ctx: Ctx, secret: string) {
  await withTx(async (tx) => {
    const existing = await repo.findServerKey(tx, ctx.workspaceId);
    const secretHash = hashSecret(secret);
    if (existing?.secretHash === secretHash) return;
    if (existing) {
      await repo.updateKey(tx, existing.id, { secretHash, prefix: displayPrefix(secret), revokedAt: null, scopes: [...deployKeyScopes] });
      await recordAudit(tx, ctx, "api_key.replace_deploy_key", { type: "api_key", id: existing.id });
      return;
    }
    const row = await repo.insertKey(tx, {
      id: newId("key"),
      workspaceId: ctx.workspaceId,
      name: "Deploy key",
      scopes: [...deployKeyScopes],
      prefix: displayPrefix(secret),
      secretHash,
      setByServer: true,
    });
    await recordAudit(tx, ctx, "api_key.create", { type: "api_key", id: row.id }, { setByServer: true });
  });
}

export type KeyPrincipal = { keyId: string; workspaceId: string; scopes: Scope[] };

type CacheEntry = { at: number; row: Awaited<ReturnType<typeof repo.findKeyBySecretHash>> };
// why: a one-second cache keeps the hot path at zero queries for busy keys while revocation,
// expiry and suspension still take effect "within about a second" (spec: API key).
const CACHE_MS = 1_000;
const TOUCH_EVERY_MS = 60_000;
const cache = new Map<string, CacheEntry>();

/** Entries at most; past it the oldest go first. */
const CACHE_ENTRIES = 10_000;

/**
 * Drops entries past their second (useless: the next lookup reads the row again), then the oldest
 * past CACHE_ENTRIES. why not the whole map: a flood of made-up keys, each cached as unknown, would
 * otherwise empty it again and again, and every busy key's request would query the database.
 */
function evictOld(now: number) {
  for (const [hash, e] of cache) {
    if (now - e.at <= CACHE_MS && cache.size <= CACHE_ENTRIES) break;
    cache.delete(hash);
  }
}

/** How many keys the cache holds (tests). */
export const cachedKeyCount = () => cache.size;

/**
 * The principal behind an x-api-key value. 401 for a missing, unknown, revoked or expired key;
 * 403 for a key of a suspended workspace. lastUsedAt is kept to the minute.
 */
export async function authenticateKey(secret: string | null): Promise<KeyPrincipal> {
  if (!secret) throw unauthorized();
  if (!looksLikeKeySecret(secret)) throw unauthorized("The API key is not valid");
  const hash = hashSecret(secret);
  const now = Date.now();
  let entry = cache.get(hash);
  if (!entry || now - entry.at > CACHE_MS) {
    entry = { at: now, row: await repo.findKeyBySecretHash(db(), hash) };
    cache.delete(hash); // set again below, at the end: the map stays in the order entries were read
    cache.set(hash, entry);
    evictOld(now);
  }
  const row = entry.row;
  if (!row) throw unauthorized("The API key is not valid");
  if (row.revokedAt) throw unauthorized("The API key was revoked");
  if (row.expiresAt && row.expiresAt.getTime() <= now) throw unauthorized("The API key has expired");
  if (row.suspended) throw forbidden(SUSPENDED_MESSAGE);
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    row.lastUsedAt = new Date(now);
    repo.touchKey(db(), row.id, row.lastUsedAt).catch((err) => log().warn({ err, keyId: row.id }, "could not record lastUsedAt"));
  }
  return { keyId: row.id, workspaceId: row.workspaceId, scopes: row.scopes as Scope[] };
}

/** The workspace of a key, for platform administration (the admin CLI); NOT_FOUND when no workspace has it. */
export async function getKeyWorkspaceId(id: string): Promise<string> {
  const workspaceId = await repo.findKeyWorkspaceId(db(), id);
  if (!workspaceId) throw notFound("API key", id);
  return workspaceId;
}
