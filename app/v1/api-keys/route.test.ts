import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";

const DAY = 86_400_000;
const SECRET = /^folio_[0-9A-Za-z]{40}$/;
/** decisions.md: the key record; anything else (a secret, a hash) must never be listed. */
const RECORD_FIELDS = ["id", "name", "scopes", "prefix", "createdAt", "expiresAt", "lastUsedAt", "rotatedAt", "status", "setByServer"];

const createKey = (cookie: string, body: unknown) => api("/v1/api-keys", { method: "POST", cookie, body });

describe("POST /v1/api-keys", () => {
  it.each(["owner", "admin"] as const)("creates a key for a signed-in %s and shows its secret once", async (role) => {
    const w = await createTestWorkspace();
    const { cookie, userId } = await w.signIn(role);
    const before = Date.now();
    const res = await createKey(cookie, { name: "CI audit reader", scopes: ["audit:read", "render:read"], expiresInDays: 30 });
    const after = Date.now();

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^key_/),
      name: "CI audit reader",
      scopes: ["audit:read", "render:read"],
      prefix: expect.any(String),
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      status: "active",
      setByServer: false,
      secret: expect.stringMatching(SECRET),
    });
    const key = res.body;
    expect(key.prefix).toBe(key.secret.slice(0, 8));
    const expiresAt = Date.parse(key.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY - 1000);
    expect(expiresAt).toBeLessThanOrEqual(after + 30 * DAY + 1000);
    expect(Math.abs(Date.parse(key.createdAt) - before)).toBeLessThan(60_000);

    // The new secret authenticates a real request and sees its workspace's audit history.
    const audit = await api("/v1/audit-events", { key: key.secret });
    expect(audit.status).toBe(200);
    expect(audit.body.items).toContainEqual(
      expect.objectContaining({ action: "api_key.create", targetType: "api_key", targetId: key.id, actor: { type: "user", id: userId } }),
    );
  });

  it("accepts the boundaries: a 64-character name, expiresInDays 1 and 365, no expiry", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const long = await createKey(cookie, { name: "n".repeat(64), scopes: ["render:read"], expiresInDays: 365 });
    expect(long.status).toBe(201);
    expect(long.body.name).toBe("n".repeat(64));
    expect(Date.parse(long.body.expiresAt) - Date.now()).toBeGreaterThan(364 * DAY);
    const short = await createKey(cookie, { name: "one day", scopes: ["render:read"], expiresInDays: 1 });
    expect(short.status).toBe(201);
    expect(Date.parse(short.body.expiresAt) - Date.now()).toBeLessThanOrEqual(DAY);
    const forever = await createKey(cookie, { name: "forever", scopes: ["render:read"] });
    expect(forever.status).toBe(201);
    expect(forever.body).not.toHaveProperty("expiresAt");
  });

  it("refuses any API key with 403, even one with admin:manage", async () => {
    const w = await createTestWorkspace(); // its key has every scope
    const e = expectError(await api("/v1/api-keys", { method: "POST", key: w.key, body: { name: "x", scopes: ["render:read"] } }), 403, "FORBIDDEN");
    expect(e.message).toMatch(/console/i);
    const admin = await w.newKey(["admin:manage"]);
    expectError(await api("/v1/api-keys", { method: "POST", key: admin.secret, body: { name: "x", scopes: ["render:read"] } }), 403, "FORBIDDEN");
    const listed = await api("/v1/api-keys", { key: w.key });
    expect(listed.body.items.map((k: { id: string }) => k.id).sort()).toEqual([w.keyId, admin.id].sort());
  });

  it("answers 401 without credentials", async () => {
    expectError(await api("/v1/api-keys", { method: "POST", body: { name: "x", scopes: ["render:read"] } }), 401, "UNAUTHORIZED");
  });

  it.each(["member", "content_editor"] as const)("answers 403 naming admin:manage for a %s", async (role) => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn(role);
    const e = expectError(await createKey(cookie, { name: "x", scopes: ["render:read"] }), 403, "FORBIDDEN");
    expect(e.message).toContain("admin:manage");
    const listed = await api("/v1/api-keys", { key: w.key });
    expect(listed.body.items).toHaveLength(1);
  });

  it("refuses a session request sent from another site", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const res = await api("/v1/api-keys", {
      method: "POST",
      cookie,
      body: { name: "x", scopes: ["render:read"] },
      headers: { origin: "https://attacker.example" },
    });
    expectError(res, 403, "FORBIDDEN");
  });

  describe("validation", () => {
    const valid = { name: "valid", scopes: ["render:read"] };
    it.each([
      ["a name over 64 characters", { ...valid, name: "n".repeat(65) }, "name"],
      ["a blank name", { ...valid, name: "   " }, "name"],
      ["a missing name", { scopes: ["render:read"] }, "name"],
      ["an unknown scope", { ...valid, scopes: ["render:read", "everything:admin"] }, "scopes.1"],
      ["empty scopes", { ...valid, scopes: [] }, "scopes"],
      ["a scope listed twice", { ...valid, scopes: ["render:read", "render:read"] }, "scopes"],
      ["expiresInDays 0", { ...valid, expiresInDays: 0 }, "expiresInDays"],
      ["expiresInDays 366", { ...valid, expiresInDays: 366 }, "expiresInDays"],
      ["expiresInDays 1.5", { ...valid, expiresInDays: 1.5 }, "expiresInDays"],
      ["expiresInDays as a string", { ...valid, expiresInDays: "30" }, "expiresInDays"],
      ["an unknown field", { ...valid, owner: "me" }, "owner"],
    ])("answers 400 for %s, naming the field", async (_label, body, path) => {
      const w = await createTestWorkspace();
      const { cookie } = await w.signIn("owner");
      const e = expectError(await createKey(cookie, body), 400, "BAD_REQUEST");
      expect(e.details).toContainEqual(expect.objectContaining({ path }));
      expect(e.message).toContain(path);
      const listed = await api("/v1/api-keys", { key: w.key });
      expect(listed.body.items).toHaveLength(1); // nothing was created
    });

    it("answers 415 for a body that is not JSON", async () => {
      const w = await createTestWorkspace();
      const { cookie } = await w.signIn("owner");
      const res = await api("/v1/api-keys", { method: "POST", cookie, body: "name=x", headers: { "content-type": "text/plain" } });
      expectError(res, 415, "BAD_REQUEST");
    });
  });
});

describe("GET /v1/api-keys", () => {
  it("lists the workspace's keys newest first, without secrets or hashes, for a key with admin:manage and for a session", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("admin");
    const first = (await createKey(cookie, { name: "first", scopes: ["render:read"] })).body;
    const second = (await createKey(cookie, { name: "second", scopes: ["audit:read"], expiresInDays: 7 })).body;
    const other = await createTestWorkspace();

    const byKey = await api("/v1/api-keys", { key: w.key });
    const bySession = await api("/v1/api-keys", { cookie });
    for (const res of [byKey, bySession]) {
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["items"]);
      expect(res.body.items.map((k: { id: string }) => k.id)).toEqual([second.id, first.id, w.keyId]);
      for (const item of res.body.items) {
        for (const field of Object.keys(item)) expect(RECORD_FIELDS).toContain(field);
      }
      for (const secret of [first.secret, second.secret, w.key]) {
        expect(res.text).not.toContain(secret);
        expect(res.text).not.toContain(createHash("sha256").update(secret).digest("hex"));
      }
      expect(res.text).not.toContain(other.keyId);
    }
    expect(byKey.body.items[0]).toEqual({
      id: second.id,
      name: "second",
      scopes: ["audit:read"],
      prefix: second.secret.slice(0, 8),
      createdAt: second.createdAt,
      expiresAt: second.expiresAt,
      status: "active",
      setByServer: false,
    });
  });

  it("answers 403 naming admin:manage for a member's session", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("member");
    const e = expectError(await api("/v1/api-keys", { cookie }), 403, "FORBIDDEN");
    expect(e.message).toContain("admin:manage");
  });

  securityCases({ scope: "admin:manage", request: (_w, key) => api("/v1/api-keys", { key }) });
});
