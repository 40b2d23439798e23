import { describe, expect, it } from "vitest";
import { createTestWorkspace, signIn } from "@/lib/testing/factories";
import { TEST_ADMIN, TEST_DEPLOY_KEY } from "@/lib/testing/global-setup";
import { api, expectError } from "@/lib/testing/http";

type Key = { id: string; name: string; scopes: string[]; prefix: string; status: string; expiresAt?: string; setByServer: boolean };

const revoke = (id: string, auth: { cookie?: string; key?: string }) => api(`/v1/api-keys/${id}/revoke`, { method: "POST", ...auth });
const listed = async (cookie: string, id: string): Promise<Key | undefined> =>
  ((await api("/v1/api-keys", { cookie })).body.items as Key[]).find((k) => k.id === id);
const statusWith = async (secret: string) => (await api("/v1/audit-events", { key: secret })).status;

describe("POST /v1/api-keys/{id}/revoke", () => {
  it("answers 200 with the revoked key, which stops working within about a second and stays listed", async () => {
    const w = await createTestWorkspace();
    const { cookie, userId } = await w.signIn("admin");
    const k = await w.newKey(["audit:read"], "to revoke");
    expect(await statusWith(k.secret)).toBe(200);

    const res = await revoke(k.id, { cookie });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.objectContaining({ id: k.id, name: "to revoke", scopes: ["audit:read"], status: "revoked", setByServer: false }));
    expect(res.body).not.toHaveProperty("secret");

    await expect.poll(() => statusWith(k.secret), { timeout: 3000 }).toBe(401);
    const e = expectError(await api("/v1/audit-events", { key: k.secret }), 401, "UNAUTHORIZED");
    expect(e.message).toMatch(/revoked/i);
    expect((await listed(cookie, k.id))?.status).toBe("revoked");
    expect(await statusWith(w.key)).toBe(200); // only that key stopped

    const audit = await api("/v1/audit-events", { key: w.key });
    expect(audit.body.items).toContainEqual(
      expect.objectContaining({ action: "api_key.revoke", targetType: "api_key", targetId: k.id, actor: { type: "user", id: userId } }),
    );
  });

  it("answers 200 again for a key that is already revoked, and it stays revoked", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const k = await w.newKey(["audit:read"]);
    expect((await revoke(k.id, { cookie })).status).toBe(200);
    const again = await revoke(k.id, { cookie });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("revoked");
    expect((await listed(cookie, k.id))?.status).toBe("revoked");
    await expect.poll(() => statusWith(k.secret), { timeout: 3000 }).toBe(401);
  });

  it("answers 404 for another workspace's key and for an unknown id, leaving the other key working", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const { cookie } = await w.signIn("owner");
    expectError(await revoke(other.keyId, { cookie }), 404, "NOT_FOUND");
    expectError(await revoke("key_doesnotexist", { cookie }), 404, "NOT_FOUND");
    const otherKeys = (await api("/v1/api-keys", { key: other.key })).body.items as Key[];
    expect(otherKeys).toEqual([expect.objectContaining({ id: other.keyId, status: "active" })]);
  });

  it("refuses API keys with 403, a member with 403 and no credentials with 401", async () => {
    const w = await createTestWorkspace();
    expect(expectError(await revoke(w.keyId, { key: w.key }), 403, "FORBIDDEN").message).toMatch(/console/i);
    expectError(await revoke(w.keyId, {}), 401, "UNAUTHORIZED");
    const member = await w.signIn("member");
    expect(expectError(await revoke(w.keyId, { cookie: member.cookie }), 403, "FORBIDDEN").message).toContain("admin:manage");
    expect(await statusWith(w.key)).toBe(200); // still active
  });
});

// Never revoke the deploy key here: other test files of the same run use it.
describe("the deploy key", () => {
  it("has exactly the fixed scopes, is marked set by server and never expires", async () => {
    const cookie = await signIn(TEST_ADMIN.email, TEST_ADMIN.password);
    const keys = (await api("/v1/api-keys", { cookie })).body.items as Key[];
    const deploy = keys.filter((k) => k.setByServer);
    expect(deploy).toHaveLength(1);
    expect([...deploy[0]!.scopes].sort()).toEqual(["asset:manage", "template:publish", "template:read", "template:write"]);
    expect(deploy[0]).toEqual(expect.objectContaining({ prefix: TEST_DEPLOY_KEY.slice(0, 8), status: "active" }));
    expect(deploy[0]!.expiresAt).toBeUndefined();
  });

  it("authenticates, and is refused audit:read with 403 naming the scope", async () => {
    const e = expectError(await api("/v1/audit-events", { key: TEST_DEPLOY_KEY }), 403, "FORBIDDEN");
    expect(e.message).toContain("audit:read");
    expect(expectError(await api("/v1/api-keys", { key: TEST_DEPLOY_KEY }), 403, "FORBIDDEN").message).toContain("admin:manage");
  });
});
