import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";
import pkg from "@/package.json";

describe("GET /v1/instance", () => {
  it("answers without a credential with the instance information", async () => {
    const res = await api("/v1/instance");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: "Folio",
      version: pkg.version,
      deployment: "self-hosted",
      apiVersion: "v1",
      publicUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("echoes a well-formed x-request-id", async () => {
    const res = await api("/v1/instance", { headers: { "x-request-id": "trace-123" } });
    expect(res.headers.get("x-request-id")).toBe("trace-123");
  });
});

describe("health", () => {
  it("answers /healthz and /readyz", async () => {
    expect((await api("/healthz")).body).toEqual({ ok: true });
    expect((await api("/readyz")).body).toEqual({ ok: true, checks: { database: "ok" } });
  });
});

describe("GET /v1/openapi.json", () => {
  it("answers the OpenAPI 3.1 document without a credential, with an ETag that revalidates", async () => {
    const res = await api("/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.openapi).toMatch(/^3\.1\.\d+$/);
    expect(res.body.info.version).toBe(pkg.version);
    // servers: the configured public URL
    expect(res.body.servers[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const render = res.body.paths["/v1/renders"].post;
    expect(render).toMatchObject({ operationId: "postRenders", tags: ["Renders"], security: [{ ApiKey: [] }], "x-folio-scopes": ["render:create"] });
    expect(render.parameters).toContainEqual(expect.objectContaining({ in: "header", name: "Idempotency-Key" }));
    expect(res.body.components.responses.RateLimited.headers["retry-after"]).toBeDefined();
    expect(res.body.components.schemas.Error.properties.error.properties.code.enum).toContain("RATE_LIMITED");
    const etag = res.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(res.headers.get("cache-control")).toContain("max-age");
    const again = await api("/v1/openapi.json", { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
  });

  it("names the console's real session cookie: sent under the documented name, a signed-in person's call is served", async () => {
    const doc = (await api("/v1/openapi.json")).body;
    const scheme = doc.components.securitySchemes.ConsoleSession;
    expect(scheme).toMatchObject({ type: "apiKey", in: "cookie" });
    // Over https the cookie carries the __Secure- prefix; the description names that form too.
    expect(scheme.description).toContain(`__Secure-${scheme.name}`);

    const w = await createTestWorkspace();
    const { cookie } = await w.signIn("owner");
    const value = cookie.slice(cookie.indexOf("=") + 1);
    const res = await api("/v1/api-keys", { cookie: `${scheme.name}=${value}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items).toContainEqual(expect.objectContaining({ id: w.keyId }));
  });
});
