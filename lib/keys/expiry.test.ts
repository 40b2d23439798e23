import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { apiKeys } from "../db/schema";
import { AppError } from "../errors";
import { createTestWorkspace } from "../testing/factories";
import { api, expectError } from "../testing/http";
import { authenticateKey } from ".";

type Key = { id: string; status: string; expiresAt?: string; lastUsedAt?: string };

const setExpiry = (id: string, at: Date) => db().update(apiKeys).set({ expiresAt: at }).where(eq(apiKeys.id, id));
const listed = async (key: string, id: string): Promise<Key | undefined> =>
  ((await api("/v1/api-keys", { key })).body.items as Key[]).find((k) => k.id === id);
const statusWith = async (secret: string) => (await api("/v1/audit-events", { key: secret })).status;

describe("API key expiry", () => {
  it("answers 401 mentioning expiry once expiresAt has passed, and lists the key as expired", async () => {
    const w = await createTestWorkspace();
    const k = await w.newKey(["audit:read"]);
    expect(await statusWith(k.secret)).toBe(200);
    expect((await listed(w.key, k.id))?.status).toBe("active");

    const at = new Date(Date.now() - 60_000);
    await setExpiry(k.id, at);
    await expect.poll(() => statusWith(k.secret), { timeout: 3000 }).toBe(401);
    const e = expectError(await api("/v1/audit-events", { key: k.secret }), 401, "UNAUTHORIZED");
    expect(e.message).toMatch(/expire/i);

    const item = await listed(w.key, k.id);
    expect(item?.status).toBe("expired");
    expect(item?.expiresAt).toBe(at.toISOString());
    expect(await statusWith(w.key)).toBe(200); // the workspace's other key is unaffected
  });

  it("refuses an expired key in authenticateKey with UNAUTHORIZED", async () => {
    const w = await createTestWorkspace();
    const k = await w.newKey(["render:read"]);
    await setExpiry(k.id, new Date(Date.now() - 1000));
    await new Promise((r) => setTimeout(r, 1100)); // past this process's one-second cache
    const err = await authenticateKey(k.secret).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    expect((err as AppError).message).toMatch(/expire/i);
  });

  it("keeps a key with a future expiry active", async () => {
    const w = await createTestWorkspace();
    const k = await w.newKey(["audit:read"]);
    await setExpiry(k.id, new Date(Date.now() + 60_000));
    expect(await statusWith(k.secret)).toBe(200);
    expect((await listed(w.key, k.id))?.status).toBe("active");
  });
});

describe("lastUsedAt", () => {
  it("is absent before a key is used and appears in the list after it was used", async () => {
    const w = await createTestWorkspace();
    const k = await w.newKey(["audit:read"]);
    expect((await listed(w.key, k.id))?.lastUsedAt).toBeUndefined();

    const before = Date.now();
    expect(await statusWith(k.secret)).toBe(200);
    const after = Date.now();
    // why: the server records it without holding up the request.
    await expect.poll(async () => (await listed(w.key, k.id))?.lastUsedAt, { timeout: 3000 }).toBeDefined();
    const usedAt = Date.parse((await listed(w.key, k.id))!.lastUsedAt!);
    expect(usedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(usedAt).toBeLessThanOrEqual(after + 1000);
  });
});
