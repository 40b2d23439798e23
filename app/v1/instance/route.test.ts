import { describe, expect, it } from "vitest";
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
