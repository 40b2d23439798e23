import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { systemCtx } from "@/lib/auth/context";
import { db } from "@/lib/db/client";
import { workerContainment } from "@/lib/db/schema";
import { SANDBOX_OFF_MESSAGE } from "@/lib/render-engine/containment";
import { createTestWorkspace, signIn } from "@/lib/testing/factories";
import { createUser } from "@/lib/users";
import { forgetWorker, reportContainment } from "./index";

// The console's platform page warns of workers rendering short of the full containment. The
// reports are written with the worker's own function; that a real worker without the sandbox
// writes one (and removes it at its stop) is shown in lib/render-engine/containment.test.ts.

const ids = { off: `test-host-${randomBytes(3).toString("hex")}:101`, stale: `test-host-${randomBytes(3).toString("hex")}:102` };
afterAll(async () => {
  await forgetWorker(ids.off);
  await forgetWorker(ids.stale);
});

async function platformPage(): Promise<{ status: number; html: string }> {
  const w = await createTestWorkspace();
  const email = `platform-${randomBytes(4).toString("hex")}@folio.test`;
  const password = randomBytes(12).toString("base64url");
  await createUser(systemCtx(w.id, "test"), { email, password, role: "member", platformAdmin: true });
  const cookie = await signIn(email, password);
  const res = await fetch(`${inject("baseUrl")}/platform`, { headers: { cookie } });
  return { status: res.status, html: await res.text() };
}

describe("the platform page", () => {
  it("says nothing of the suite's worker, whose browser runs sandboxed as its own user", async () => {
    const page = await platformPage();
    expect(page.status).toBe(200);
    expect(page.html).not.toContain("without the full renderer sandbox");
  });

  it("warns of a running worker without the sandbox, in the worker's words, and forgets one not seen for minutes", async () => {
    await reportContainment({ sandbox: false, separateUser: true, dumpable: false, warnings: [SANDBOX_OFF_MESSAGE] }, ids.off);
    await reportContainment({ sandbox: true, separateUser: false, dumpable: false, warnings: ["stale worker's warning"] }, ids.stale);
    await db().update(workerContainment).set({ seenAt: sql`now() - interval '10 minutes'` }).where(eq(workerContainment.id, ids.stale));
    const page = await platformPage();
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/role="alert"[^>]*aria-labelledby="renderer-containment"/);
    expect(page.html).toContain("without the full renderer sandbox");
    expect(page.html).toContain(ids.off);
    expect(page.html).toContain("renders run WITHOUT it");
    expect(page.html).not.toContain(ids.stale);
    expect(page.html).not.toContain("stale worker&#x27;s warning");
  });
});
