import { expect, it } from "vitest";
import { scopes, type Scope } from "../auth/scopes";
import { revokeKey } from "../keys";
import { systemCtx } from "../auth/context";
import { createTestWorkspace, type TestWorkspace } from "./factories";
import { expectError, type ApiResponse } from "./http";

/**
 * The checks every API-key route gets, written once (like unkey's runCommonRouteTests): no key and
 * a revoked key (401), a missing scope (403 naming it), another workspace's id (404, when the
 * route takes one) and a suspended workspace (403).
 * `request(w, key)` sends the route's request for a resource of workspace `w` using `key`.
 */
export function securityCases(opts: {
  scope: Scope;
  request: (w: TestWorkspace, key: string | undefined) => Promise<ApiResponse>;
  /** Sends the request with w's key but for a resource of `other`; omit for routes without IDs. */
  crossWorkspace?: (w: TestWorkspace, other: TestWorkspace) => Promise<ApiResponse>;
}) {
  it("answers 401 without a key and with a wrong key", async () => {
    const w = await createTestWorkspace();
    expectError(await opts.request(w, undefined), 401, "UNAUTHORIZED");
    expectError(await opts.request(w, "folio_" + "x".repeat(40)), 401, "UNAUTHORIZED");
  });

  it("answers 401 with a revoked key", async () => {
    const w = await createTestWorkspace();
    await revokeKey(systemCtx(w.id, "test"), w.keyId);
    await expect.poll(async () => (await opts.request(w, w.key)).status, { timeout: 3000 }).toBe(401);
  });

  it(`answers 403 naming ${opts.scope} when the key lacks it`, async () => {
    const w = await createTestWorkspace();
    const k = await w.newKey(scopes.filter((s) => s !== opts.scope));
    const e = expectError(await opts.request(w, k.secret), 403, "FORBIDDEN");
    expect(e.message).toContain(opts.scope);
  });

  if (opts.crossWorkspace) {
    const cross = opts.crossWorkspace;
    it("answers 404 for an id of another workspace", async () => {
      const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
      expectError(await cross(w, other), 404, "NOT_FOUND");
    });
  }

  it("answers 403 for a suspended workspace", async () => {
    const w = await createTestWorkspace();
    await w.suspend();
    await expect.poll(async () => (await opts.request(w, w.key)).status, { timeout: 3000 }).toBe(403);
    expectError(await opts.request(w, w.key), 403, "FORBIDDEN");
  });
}
