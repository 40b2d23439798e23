import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { createTestWorkspace, signIn } from "@/lib/testing/factories";
import { TEST_ADMIN } from "@/lib/testing/global-setup";
import { api, expectError } from "@/lib/testing/http";

const DAY = 86_400_000;
const GRACE = 15 * 60_000;
const SECRET = /^folio_[0-9A-Za-z]{40}$/;

type Key = { id: string; name: string; scopes: string[]; prefix: string; status: string; expiresAt?: string; rotatedAt?: string; setByServer: boolean; secret?: string };

const rotate = (id: string, auth: { cookie?: string; key?: string }) => api(`/v1/api-keys/${id}/rotate`, { method: "POST", ...auth });
const createKey = (cookie: string, body: unknown) => api("/v1/api-keys", { method: "POST", cookie, body });
const listed = async (cookie: string, id: string): Promise<Key | undefined> =>
  ((await api("/v1/api-keys", { cookie })).body.items as Key[]).find((k) => k.id === id);
const setExpiry = (id: string, at: Date) => db().update(apiKeys).set({ expiresAt: at }).where(eq(apiKeys.id, id));
const statusWith = async (secret: string) => (await api("/v1/audit-events", { key: secret })).status;

describe("POST /v1/api-keys/{id}/rotate", () => {
  it("answers 201 with a new secret for the same name and scopes; both secrets work during the grace", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("admin");
    const old = (await createKey(cookie, { name: "nightly export", scopes: ["audit:read", "render:read"], expiresInDays: 30 })).body as Key;
    expect(await statusWith(old.secret!)).toBe(200);

    const before = Date.now();
    const res = await rotate(old.id, { cookie });
    const after = Date.now();
    expect(res.status).toBe(201);
    const fresh = res.body as Key;
    expect(fresh).toEqual(
      expect.objectContaining({ id: expect.stringMatching(/^key_/), name: "nightly export", scopes: ["audit:read", "render:read"], status: "active", setByServer: false }),
    );
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.secret).toMatch(SECRET);
    expect(fresh.secret).not.toBe(old.secret);
    expect(fresh.prefix).toBe(fresh.secret!.slice(0, 8));
    // spec: a new key with the same lifetime counted from now.
    expect(Date.parse(fresh.expiresAt!)).toBeGreaterThanOrEqual(before + 30 * DAY - 1000);
    expect(Date.parse(fresh.expiresAt!)).toBeLessThanOrEqual(after + 30 * DAY + 1000);

    expect(await statusWith(fresh.secret!)).toBe(200);
    expect(await statusWith(old.secret!)).toBe(200);

    const oldListed = await listed(cookie, old.id);
    expect(oldListed?.status).toBe("active");
    // The record says it was rotated (the console shows it and offers no second rotation); the replacement does not.
    expect(Date.parse(oldListed!.rotatedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(oldListed!.rotatedAt!)).toBeLessThanOrEqual(after + 1000);
    expect(fresh.rotatedAt).toBeUndefined();
    expect(Date.parse(oldListed!.expiresAt!)).toBeLessThanOrEqual(after + GRACE + 1000);
    expect(Date.parse(oldListed!.expiresAt!)).toBeGreaterThanOrEqual(before + GRACE - 1000);
    expect((await listed(cookie, fresh.id))?.status).toBe("active");

    const audit = await api("/v1/audit-events", { key: fresh.secret });
    expect(audit.body.items).toContainEqual(expect.objectContaining({ action: "api_key.rotate", targetId: old.id }));
  });

  it("keeps the old key's own expiry when it is sooner than the grace", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const old = (await createKey(cookie, { name: "short-lived", scopes: ["audit:read"], expiresInDays: 1 })).body as Key;
    const soon = new Date(Date.now() + 5 * 60_000);
    await setExpiry(old.id, soon);

    expect((await rotate(old.id, { cookie })).status).toBe(201);
    expect((await listed(cookie, old.id))?.expiresAt).toBe(soon.toISOString());
    expect(await statusWith(old.secret!)).toBe(200);
  });

  it("gives a key that never expires the 15-minute grace", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const old = (await createKey(cookie, { name: "forever", scopes: ["audit:read"] })).body as Key;
    expect(old.expiresAt).toBeUndefined();
    const res = await rotate(old.id, { cookie });
    expect(res.status).toBe(201);
    expect(res.body.expiresAt).toBeUndefined(); // same lifetime: never
    const oldExpiry = Date.parse((await listed(cookie, old.id))!.expiresAt!);
    expect(oldExpiry - Date.now()).toBeLessThanOrEqual(GRACE);
    expect(oldExpiry - Date.now()).toBeGreaterThan(GRACE - 60_000);
  });

  it("answers 401 for the old secret once the grace has ended, while the new one keeps working", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const old = (await createKey(cookie, { name: "to rotate", scopes: ["audit:read"] })).body as Key;
    const fresh = (await rotate(old.id, { cookie })).body as Key;
    expect(await statusWith(old.secret!)).toBe(200);

    await setExpiry(old.id, new Date(Date.now() - 1000)); // the grace is over
    await expect.poll(() => statusWith(old.secret!), { timeout: 3000 }).toBe(401);
    expectError(await api("/v1/audit-events", { key: old.secret }), 401, "UNAUTHORIZED");
    expect(await statusWith(fresh.secret!)).toBe(200);
    expect((await listed(cookie, old.id))?.status).toBe("expired");
  });

  it("answers 409 CONFLICT when the key was already rotated", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const old = (await createKey(cookie, { name: "twice", scopes: ["render:read"] })).body as Key;
    expect((await rotate(old.id, { cookie })).status).toBe(201);
    expectError(await rotate(old.id, { cookie }), 409, "CONFLICT");
    const names = ((await api("/v1/api-keys", { cookie })).body.items as Key[]).filter((k) => k.name === "twice");
    expect(names).toHaveLength(2); // the refused rotation made no third key
  });

  it("answers 409 CONFLICT for a revoked key", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const k = await w.newKey(["render:read"]);
    expect((await api(`/v1/api-keys/${k.id}/revoke`, { method: "POST", cookie })).status).toBe(200);
    expectError(await rotate(k.id, { cookie }), 409, "CONFLICT");
  });

  it("answers 404 for another workspace's key and for an unknown id", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const { cookie } = await w.signIn("owner");
    expectError(await rotate(other.keyId, { cookie }), 404, "NOT_FOUND");
    expectError(await rotate("key_doesnotexist", { cookie }), 404, "NOT_FOUND");
    const otherKeys = (await api("/v1/api-keys", { key: other.key })).body.items as Key[];
    expect(otherKeys.map((k) => k.id)).toEqual([other.keyId]);
  });

  it("refuses API keys with 403, even one with admin:manage, and answers 401 without credentials", async () => {
    const w = await createTestWorkspace();
    const e = expectError(await rotate(w.keyId, { key: w.key }), 403, "FORBIDDEN");
    expect(e.message).toMatch(/console/i);
    expectError(await rotate(w.keyId, {}), 401, "UNAUTHORIZED");
    const { cookie } = await w.signIn("member");
    expect(expectError(await rotate(w.keyId, { cookie }), 403, "FORBIDDEN").message).toContain("admin:manage");
    expect((await listed((await w.signIn("owner")).cookie, w.keyId))?.expiresAt).toBeUndefined(); // not rotated
  });

  it("answers 409 CONFLICT for rotating or deleting the deploy key", async () => {
    const cookie = await signIn(TEST_ADMIN.email, TEST_ADMIN.password);
    const keys = (await api("/v1/api-keys", { cookie })).body.items as Key[];
    const deploy = keys.find((k) => k.setByServer);
    expect(deploy).toBeDefined();
    expectError(await rotate(deploy!.id, { cookie }), 409, "CONFLICT");
    expectError(await api(`/v1/api-keys/${deploy!.id}`, { method: "DELETE", cookie }), 409, "CONFLICT");
    // lastUsedAt is left out: other test files use the deploy key meanwhile.
    const after = await listed(cookie, deploy!.id);
    expect(after).toMatchObject({ prefix: deploy!.prefix, scopes: deploy!.scopes, status: "active", setByServer: true });
    expect(after?.expiresAt).toBeUndefined();
  });
});
