import { describe } from "vitest";
import { api } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";

// What the usage report answers is tested in lib/usage/usage-api.test.ts; here, who may read it.
describe("GET /v1/usage", () => {
  describe("security", () => {
    securityCases({ scope: "usage:read", request: (_w, key) => api("/v1/usage", { key }) });
  });
});
