import { describe } from "vitest";
import { api } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";

// The allowances it reports are tested with admission (lib/renders/admission.test.ts); here, who may read them.
describe("GET /v1/render-limits", () => {
  describe("security", () => {
    securityCases({ scope: "render:read", request: (_w, key) => api("/v1/render-limits", { key }) });
  });
});
