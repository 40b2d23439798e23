import { describe, expect, inject, it } from "vitest";
import { createTestWorkspace, randomLoopback, requestFrom } from "@/lib/testing/factories";
import { findUserById } from "@/lib/users";
import { db } from "@/lib/db/client";
import { insertMembership } from "@/lib/users/repository";

/** The console's workspace switcher: next-auth's session update, checked against the memberships. */
describe("switching workspace (POST /api/auth/session)", () => {
  it("keeps a workspace the person belongs to, and ignores one they do not", async () => {
    const home = await createTestWorkspace();
    const other = await createTestWorkspace();
    const stranger = await createTestWorkspace();
    const { cookie, userId } = await home.signIn("member");
    expect(await findUserById(db(), userId)).toBeDefined();
    await insertMembership(db(), { userId, workspaceId: other.id, role: "admin" });

    const base = inject("baseUrl");
    const from = randomLoopback();
    let session = cookie;
    const update = async (workspaceId: string) => {
      const csrf = await requestFrom(from, `${base}/api/auth/csrf`, { headers: { cookie: session } });
      const csrfCookie = csrf.headers["set-cookie"]?.[0]?.split(";")[0] ?? "";
      const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
      const res = await requestFrom(from, `${base}/api/auth/session`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: `${session}; ${csrfCookie}`, origin: new URL(base).origin },
        body: JSON.stringify({ csrfToken, data: { workspaceId } }),
      });
      expect(res.status).toBe(200);
      const renewed = res.headers["set-cookie"]?.find((c) => c.startsWith("next-auth.session-token="));
      if (renewed) session = renewed.split(";")[0]!;
      return (JSON.parse(res.body) as { workspaceId?: string }).workspaceId;
    };

    expect(await update(stranger.id)).toBe(home.id);
    expect(await update("ws_doesnotexist")).toBe(home.id);
    expect(await update(other.id)).toBe(other.id);
    // The choice is in the cookie: a plain read of the session names it.
    const read = await requestFrom(from, `${base}/api/auth/session`, { headers: { cookie: session } });
    expect((JSON.parse(read.body) as { workspaceId?: string }).workspaceId).toBe(other.id);
  });
});
