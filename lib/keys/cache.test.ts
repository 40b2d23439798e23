import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "../testing/factories";
import { authenticateKey, cachedKeyCount } from ".";

const madeUp = (i: number) => `folio_${String(i).padStart(40, "x")}`;

describe("the API-key cache", () => {
  it("drops entries past their second instead of emptying itself, so made-up keys do not push busy keys out", async () => {
    const w = await createTestWorkspace();
    for (let i = 0; i < 5; i++) await expect(authenticateKey(madeUp(i))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(cachedKeyCount()).toBeGreaterThanOrEqual(5);
    await new Promise((r) => setTimeout(r, 1100));
    // The next read finds the made-up keys past their second and drops them; the real key stays.
    expect((await authenticateKey(w.key)).workspaceId).toBe(w.id);
    expect(cachedKeyCount()).toBe(1);
    expect((await authenticateKey(w.key)).workspaceId).toBe(w.id);
    expect(cachedKeyCount()).toBe(1);
  });
});
