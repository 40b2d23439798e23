import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";

type Key = { id: string; status: string };

const del = (id: string, auth: { cookie?: string; key?: string }) => api(`/v1/api-keys/${id}`, { method: "DELETE", ...auth });
const listedIds = async (key: string) => ((await api("/v1/api-keys", { key })).body.items as Key[]).map((k) => k.id);
const statusWith = async (secret: string) => (await api("/v1/audit-events", { key: secret })).status;

describe("DELETE /v1/api-keys/{id}", () => {
  it("answers 200 with the deleted id; the key leaves the list, stops working, and its audit history stays", async () => {
    const w = await createTestWorkspace();
    const { cookie, userId } = await w.signIn("admin");
    const created = await api("/v1/api-keys", { method: "POST", cookie, body: { name: "to delete", scopes: ["audit:read"] } });
    expect(created.status).toBe(201);
    const k = { id: created.body.id as string, secret: created.body.secret as string };
    expect(await statusWith(k.secret)).toBe(200);

    const res = await del(k.id, { cookie });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, ids: [k.id] });

    expect(await listedIds(w.key)).toEqual([w.keyId]);
    await expect.poll(() => statusWith(k.secret), { timeout: 3000 }).toBe(401);
    expectError(await api("/v1/audit-events", { key: k.secret }), 401, "UNAUTHORIZED");

    const audit = (await api("/v1/audit-events", { key: w.key })).body.items as { action: string; targetId: string; actor: unknown }[];
    const history = audit.filter((e) => e.targetId === k.id);
    expect(history.map((e) => e.action).sort()).toEqual(["api_key.create", "api_key.delete"]);
    expect(history.find((e) => e.action === "api_key.delete")?.actor).toEqual({ type: "user", id: userId });

    expectError(await del(k.id, { cookie }), 404, "NOT_FOUND"); // it is gone
  });

  it("deletes a revoked key", async () => {
    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const k = await w.newKey(["render:read"]);
    expect((await api(`/v1/api-keys/${k.id}/revoke`, { method: "POST", cookie })).status).toBe(200);
    expect((await del(k.id, { cookie })).body).toEqual({ deleted: true, ids: [k.id] });
    expect(await listedIds(w.key)).toEqual([w.keyId]);
  });

  it("answers 404 for another workspace's key and for an unknown id, deleting nothing", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const { cookie } = await w.signIn("owner");
    expectError(await del(other.keyId, { cookie }), 404, "NOT_FOUND");
    expectError(await del("key_doesnotexist", { cookie }), 404, "NOT_FOUND");
    expect(await listedIds(other.key)).toEqual([other.keyId]);
    expect(await statusWith(other.key)).toBe(200);
  });

  it("refuses API keys with 403, a member with 403 and no credentials with 401", async () => {
    const w = await createTestWorkspace();
    expect(expectError(await del(w.keyId, { key: w.key }), 403, "FORBIDDEN").message).toMatch(/console/i);
    expectError(await del(w.keyId, {}), 401, "UNAUTHORIZED");
    const member = await w.signIn("member");
    expect(expectError(await del(w.keyId, { cookie: member.cookie }), 403, "FORBIDDEN").message).toContain("admin:manage");
    expect(await listedIds(w.key)).toEqual([w.keyId]);
  });
});
