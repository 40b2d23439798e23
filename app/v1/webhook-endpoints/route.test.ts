import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "@/lib/audit";
import { systemCtx } from "@/lib/auth/context";
import { resetConfigForTests } from "@/lib/config";
import { db } from "@/lib/db/client";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";
import { startReceiver, type Receiver } from "@/lib/testing/webhooks";
import * as webhooks from "@/lib/webhooks";
import { isAppError } from "@/lib/errors";

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const ENDPOINT_FIELDS = ["id", "url", "description", "eventTypes", "enabled", "createdAt", "updatedAt"];

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const create = (key: string, body: unknown) => api("/v1/webhook-endpoints", { key, body });

describe("POST /v1/webhook-endpoints", () => {
  it("creates an endpoint and shows its secret once", async () => {
    const w = await createTestWorkspace();
    const res = await create(w.key, { url: receiver.url, eventTypes: ["render.succeeded", "render.failed"], description: "Billing" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^whe_/),
      url: receiver.url,
      description: "Billing",
      eventTypes: ["render.succeeded", "render.failed"],
      enabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(SECRET),
    });
    const got = await api(`/v1/webhook-endpoints/${res.body.id}`, { key: w.key });
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty("secret");
    expect(Object.keys(got.body).every((k) => ENDPOINT_FIELDS.includes(k))).toBe(true);
    expect(got.text).not.toContain(res.body.secret.slice(6));
    const list = await api("/v1/webhook-endpoints", { key: w.key });
    expect(list.body).toEqual({ items: [got.body] });
    expect(list.text).not.toContain(res.body.secret.slice(6));
    // The audit history names the change, never the secret.
    const audit = await api("/v1/audit-events", { key: w.key });
    expect(audit.body.items).toContainEqual(expect.objectContaining({ action: "webhook_endpoint.create", targetId: res.body.id }));
    expect(audit.text).not.toContain(res.body.secret.slice(6));
  });

  it.each([
    [{ url: "https://example.com/x" }, "eventTypes"],
    [{ url: "https://example.com/x", eventTypes: [] }, "eventTypes"],
    [{ url: "https://example.com/x", eventTypes: ["render.started"] }, "eventTypes.0"],
    [{ url: "https://example.com/x", eventTypes: ["render.failed", "render.failed"] }, "eventTypes"],
    [{ eventTypes: ["render.failed"] }, "url"],
    [{ url: "https://example.com/x", eventTypes: ["render.failed"], secret: "whsec_x" }, "secret"],
    [{ url: "https://example.com/x", eventTypes: ["render.failed"], description: "d".repeat(501) }, "description"],
  ])("answers 400 for %j naming %s", async (body, path) => {
    const w = await createTestWorkspace();
    const e = expectError(await create(w.key, body), 400, "BAD_REQUEST");
    expect(e.details).toContainEqual({ path, message: expect.any(String) });
  });

  it.each([
    ["ftp://example.com/hook", "must use https"],
    ["https://user:pw@127.0.0.1/hook", "must not contain credentials"],
    ["http://169.254.169.254/latest/meta-data/", "cloud metadata"],
    ["http://[fd00:ec2::254]/", "cloud metadata"],
    ["http://[::ffff:169.254.169.254]/", "cloud metadata"],
    ["http://[::169.254.169.254]/", "cloud metadata"],
    ["http://[::ffff:0:a9fe:a9fe]/", "cloud metadata"],
    ["http://[64:ff9b::a9fe:a9fe]/", "cloud metadata"],
    ["http://[2002:a9fe:a9fe::1]/", "cloud metadata"],
    ["http://2852039166/", "cloud metadata address (169.254.169.254)"],
    ["http://169.254.170.2/v2/credentials", "link-local"],
    ["http://[fe80::a9fe:a9fe]/", "link-local"],
    ["https://nowhere.invalid/hook", "does not resolve"],
  ])("refuses %s with the reason in details (even with private networks allowed)", async (url, reason) => {
    const w = await createTestWorkspace();
    const e = expectError(await create(w.key, { url, eventTypes: ["render.failed"] }), 400, "BAD_REQUEST");
    expect(e.details).toEqual([{ path: "url", message: expect.stringContaining(reason) }]);
  });

  it("answers 409 for the eleventh endpoint", async () => {
    const w = await createTestWorkspace();
    const results = await Promise.all(Array.from({ length: 11 }, () => create(w.key, { url: receiver.url, eventTypes: ["render.failed"] })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.find((r) => r.status !== 201)!;
    expect(expectError(refused, 409, "CONFLICT").message).toContain("10");
    const id = results.find((r) => r.status === 201)!.body.id;
    await api(`/v1/webhook-endpoints/${id}`, { key: w.key, method: "DELETE" });
    expect((await create(w.key, { url: receiver.url, eventTypes: ["render.failed"] })).status).toBe(201);
  });

  securityCases({
    scope: "webhook:manage",
    request: (_w, key) => api("/v1/webhook-endpoints", { key, body: { url: "https://example.com/x", eventTypes: ["render.failed"] } }),
  });
});

describe("audit history of endpoint changes", () => {
  it("keeps a URL's origin, never its path or query, which a member reading the audit log would see", async () => {
    const w = await createTestWorkspace();
    const admin = await w.signIn("admin");
    const token = `tok-${Math.random().toString(36).slice(2)}`;
    const origin = new URL(receiver.url).origin;
    const made = await api("/v1/webhook-endpoints", { cookie: admin.cookie, body: { url: `${receiver.url}/in?token=${token}`, eventTypes: ["render.failed"] } });
    expect(made.status, made.text).toBe(201);
    const changed = await api(`/v1/webhook-endpoints/${made.body.id}`, { cookie: admin.cookie, method: "PATCH", body: { url: `${receiver.url}/v2?token=${token}2` } });
    expect(changed.status, changed.text).toBe(200);
    expect((await api(`/v1/webhook-endpoints/${made.body.id}`, { cookie: admin.cookie, method: "DELETE" })).status).toBe(200);

    const member = await w.signIn("member");
    expectError(await api("/v1/webhook-endpoints", { cookie: member.cookie }), 403, "FORBIDDEN");
    const audit = await api("/v1/audit-events", { cookie: member.cookie });
    expect(audit.status, audit.text).toBe(200);
    const details = Object.fromEntries(
      (audit.body.items as { action: string; details: unknown }[]).filter((e) => e.action.startsWith("webhook_endpoint.")).map((e) => [e.action, e.details]),
    );
    expect(details).toEqual({
      "webhook_endpoint.create": { url: origin, eventTypes: ["render.failed"] },
      "webhook_endpoint.update": { fields: ["url"], url: origin },
      "webhook_endpoint.delete": { url: origin },
    });
    expect(audit.text).not.toContain(token);
    expect(audit.text).not.toContain("/hooks");
  });

  it("the migration cuts URLs recorded before to their origin", async () => {
    const w = await createTestWorkspace();
    const ctx = systemCtx(w.id, "test");
    const target = { type: "webhook_endpoint", id: "whe_old" };
    await recordAudit(db(), ctx, "webhook_endpoint.create", target, { url: "https://Hooks.example.com:8443/in?token=s3cret", eventTypes: ["render.failed"] });
    await recordAudit(db(), ctx, "webhook_endpoint.delete", target, { url: "https://hooks.example.com\\in?token=s3cret" });
    await recordAudit(db(), ctx, "webhook_endpoint.delete", target, { url: "https://hooks.example.com" });
    const migration = fs.readFileSync(path.join(process.cwd(), "drizzle/0015_audit_webhook_url_origin.sql"), "utf8");
    await db().execute(sql.raw(migration));
    const member = await w.signIn("member");
    const audit = await api("/v1/audit-events", { cookie: member.cookie });
    expect(audit.body.items.map((e: { details: unknown }) => e.details)).toEqual(
      expect.arrayContaining([
        { url: "https://Hooks.example.com:8443", eventTypes: ["render.failed"] },
        { url: "https://hooks.example.com" },
      ]),
    );
    expect(audit.text).not.toContain("s3cret");
  });
});

describe("URL rules of the hosted service and of a self-hosted one without private networks", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env.DEPLOYMENT_MODE = saved.DEPLOYMENT_MODE;
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = saved.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    if (saved.DEPLOYMENT_MODE === undefined) delete process.env.DEPLOYMENT_MODE;
    resetConfigForTests();
  });
  const refusal = async (url: string, resolve?: (h: string) => Promise<string[]>) => {
    const w = await createTestWorkspace();
    try {
      await webhooks.createEndpoint(systemCtx(w.id, "test"), { url, eventTypes: ["render.failed"] }, { resolve });
      return undefined;
    } catch (e) {
      if (!isAppError(e)) throw e;
      return e.details?.[0]?.message;
    }
  };

  it("hosted: https only, and a host name that resolves to 127.0.0.1 is refused", async () => {
    process.env.DEPLOYMENT_MODE = "hosted";
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "true"; // ignored when hosted
    resetConfigForTests();
    expect(await refusal("http://hooks.example.com/x", async () => ["93.184.215.14"])).toBe("must use https");
    expect(await refusal("https://rebind.example.com/x", async () => ["127.0.0.1"])).toBe("host rebind.example.com resolves to a loopback address (127.0.0.1)");
    expect(await refusal("https://localhost/x", async () => ["127.0.0.1"])).toBe("must not point at localhost");
    expect(await refusal("https://hooks.example.com/x", async () => ["93.184.215.14"])).toBeUndefined();
  });

  it("self-hosted without WEBHOOK_ALLOW_PRIVATE_NETWORKS: http allowed, private addresses refused", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "false";
    resetConfigForTests();
    expect(await refusal(receiver.url)).toBe("points at a loopback address (127.0.0.1)");
    expect(await refusal("http://intranet.example.com/x", async () => ["192.168.1.20"])).toContain("private address");
    expect(await refusal("http://hooks.example.com/x", async () => ["93.184.215.14"])).toBeUndefined();
  });
});

describe("PATCH /v1/webhook-endpoints/{id}", () => {
  it("changes only the given fields; description null removes it; enabled toggles", async () => {
    const w = await createTestWorkspace();
    const made = (await create(w.key, { url: receiver.url, eventTypes: ["render.failed"], description: "Old" })).body;
    const patch = (body: unknown) => api(`/v1/webhook-endpoints/${made.id}`, { key: w.key, method: "PATCH", body });
    let res = await patch({ eventTypes: ["render.succeeded", "render.cancelled"] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ url: receiver.url, description: "Old", eventTypes: ["render.succeeded", "render.cancelled"], enabled: true });
    res = await patch({ description: null, enabled: false });
    expect(res.body).not.toHaveProperty("description");
    expect(res.body.enabled).toBe(false);
    res = await patch({ url: `${receiver.url}/v2` });
    expect(res.body.url).toBe(`${receiver.url}/v2`);
    expect(res.body).not.toHaveProperty("secret");
    expect((await api(`/v1/webhook-endpoints/${made.id}`, { key: w.key })).body).toEqual(res.body);
  });

  it("refuses a refused URL with 400 and changes nothing", async () => {
    const w = await createTestWorkspace();
    const made = (await create(w.key, { url: receiver.url, eventTypes: ["render.failed"] })).body;
    const e = expectError(await api(`/v1/webhook-endpoints/${made.id}`, { key: w.key, method: "PATCH", body: { url: "http://169.254.169.254/" } }), 400, "BAD_REQUEST");
    expect(e.details).toEqual([{ path: "url", message: expect.stringContaining("cloud metadata") }]);
    expect((await api(`/v1/webhook-endpoints/${made.id}`, { key: w.key })).body.url).toBe(receiver.url);
  });

  it("refuses unknown fields and a secret", async () => {
    const w = await createTestWorkspace();
    const made = (await create(w.key, { url: receiver.url, eventTypes: ["render.failed"] })).body;
    expectError(await api(`/v1/webhook-endpoints/${made.id}`, { key: w.key, method: "PATCH", body: { secret: "whsec_AAAA" } }), 400, "BAD_REQUEST");
    expectError(await api(`/v1/webhook-endpoints/${made.id}`, { key: w.key, method: "PATCH", body: { eventTypes: [] } }), 400, "BAD_REQUEST");
  });

  securityCases({
    scope: "webhook:manage",
    request: async (w, key) => {
      const id = (await create(w.key, { url: receiver.url, eventTypes: ["render.failed"] })).body.id ?? "whe_x";
      return api(`/v1/webhook-endpoints/${id}`, { key, method: "PATCH", body: { enabled: false } });
    },
    crossWorkspace: async (w, other) => {
      const id = (await create(other.key, { url: receiver.url, eventTypes: ["render.failed"] })).body.id;
      return api(`/v1/webhook-endpoints/${id}`, { key: w.key, method: "PATCH", body: { enabled: false } });
    },
  });
});

describe("DELETE and rotate-secret", () => {
  it("deletes an endpoint (200 deleted true), then 404", async () => {
    const w = await createTestWorkspace();
    const made = (await create(w.key, { url: receiver.url, eventTypes: ["render.failed"] })).body;
    const res = await api(`/v1/webhook-endpoints/${made.id}`, { key: w.key, method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, ids: [made.id] });
    expectError(await api(`/v1/webhook-endpoints/${made.id}`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await api(`/v1/webhook-endpoints/${made.id}/deliveries`, { key: w.key }), 404, "NOT_FOUND");
  });

  it("rotate-secret answers the endpoint with a new secret, never shown again", async () => {
    const w = await createTestWorkspace();
    const made = (await create(w.key, { url: receiver.url, eventTypes: ["render.failed"] })).body;
    const res = await api(`/v1/webhook-endpoints/${made.id}/rotate-secret`, { key: w.key, method: "POST" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: made.id, url: receiver.url, secret: expect.stringMatching(SECRET) });
    expect(res.body.secret).not.toBe(made.secret);
    expect((await api(`/v1/webhook-endpoints/${made.id}`, { key: w.key })).body).not.toHaveProperty("secret");
  });

  securityCases({
    scope: "webhook:manage",
    request: async (w, key) => {
      const id = (await create(w.key, { url: receiver.url, eventTypes: ["render.failed"] })).body.id ?? "whe_x";
      return api(`/v1/webhook-endpoints/${id}/rotate-secret`, { key, method: "POST" });
    },
    crossWorkspace: async (w, other) => {
      const id = (await create(other.key, { url: receiver.url, eventTypes: ["render.failed"] })).body.id;
      return api(`/v1/webhook-endpoints/${id}`, { key: w.key, method: "DELETE" });
    },
  });
});

describe("console sessions", () => {
  it("owners and admins manage endpoints; members are refused with 403 naming webhook:manage", async () => {
    const w = await createTestWorkspace();
    for (const role of ["owner", "admin"] as const) {
      const { cookie } = await w.signIn(role);
      const res = await api("/v1/webhook-endpoints", { cookie, body: { url: receiver.url, eventTypes: ["render.failed"] } });
      expect(res.status, res.text).toBe(201);
    }
    const { cookie } = await w.signIn("member");
    const e = expectError(await api("/v1/webhook-endpoints", { cookie }), 403, "FORBIDDEN");
    expect(e.message).toContain("webhook:manage");
  });
});
