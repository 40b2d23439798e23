import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { systemCtx } from "@/lib/auth/context";
import { createTestWorkspace, randomLoopback, requestFrom, signInAttempt } from "@/lib/testing/factories";
import { SIGN_IN_ATTEMPTS_PER_MINUTE } from "@/lib/http/auth-guard";
import { createUser } from "@/lib/users";

let email: string;
let password: string;

beforeAll(async () => {
  const w = await createTestWorkspace();
  email = `limit-${randomBytes(4).toString("hex")}@folio.test`;
  password = randomBytes(12).toString("base64url");
  await createUser(systemCtx(w.id, "test"), { email, password, role: "member" });
});

/** The cases need all their attempts in one clock minute: in its last 20 s, wait for the next one. */
async function awayFromMinuteEdge() {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute >= 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
}

describe("console sign-in attempts (spec: 10 a minute per client address)", () => {
  it("refuses the 11th attempt of a minute from one address with 429, even with the right password", { timeout: 90_000 }, async () => {
    expect(SIGN_IN_ATTEMPTS_PER_MINUTE).toBe(10);
    await awayFromMinuteEdge();
    const from = randomLoopback();
    // Failed and successful attempts count alike.
    for (let i = 0; i < 9; i++) {
      const wrong = await signInAttempt(email, "not the password", from);
      expect(wrong.res.status, wrong.res.body).not.toBe(429);
      expect(wrong.cookie).toBeUndefined();
    }
    const tenth = await signInAttempt(email, password, from);
    expect(tenth.cookie, `${tenth.res.status} ${tenth.res.body}`).toEqual(expect.any(String));

    const eleventh = await signInAttempt(email, password, from);
    expect(eleventh.cookie).toBeUndefined();
    expect(eleventh.res.status).toBe(429);
    expect(eleventh.res.headers["content-type"]).toMatch(/^application\/json/);
    expect(eleventh.res.headers["x-request-id"]).toBeTruthy();
    const retryAfter = Number(eleventh.res.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = JSON.parse(eleventh.res.body) as { error: { code: string; message: string; retryable: boolean } };
    expect(body.error).toEqual({ code: "RATE_LIMITED", message: expect.stringContaining("sign-in attempts"), retryable: true });

    // Another address is not held back.
    expect((await signInAttempt(email, password, randomLoopback())).cookie).toEqual(expect.any(String));
  });

  it("does not count reading the sign-in form's CSRF token or the session", async () => {
    await awayFromMinuteEdge();
    const from = randomLoopback();
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_MINUTE + 5; i++) {
      for (const path of ["/api/auth/csrf", "/api/auth/session", "/api/auth/providers"]) {
        expect((await requestFrom(from, `${inject("baseUrl")}${path}`)).status).toBe(200);
      }
    }
    expect((await signInAttempt(email, password, from)).cookie).toEqual(expect.any(String));
  });
});

describe("next-auth's POSTs come from the console's own origin", () => {
  const attacker = "https://attacker.example";

  it.each([
    ["without Origin or Sec-Fetch-Site", {}],
    ["from another site", { origin: attacker }],
    ["with Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
  ])("refuses a sign-in posted %s with 403, before the password is checked or the attempt counted", { timeout: 90_000 }, async (_name, site) => {
    await awayFromMinuteEdge();
    const from = randomLoopback();
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_MINUTE + 2; i++) {
      const refused = await signInAttempt(email, password, from, inject("baseUrl"), site);
      expect(refused.cookie).toBeUndefined();
      expect(refused.res.status).toBe(403);
      expect(JSON.parse(refused.res.body)).toEqual({ error: { code: "FORBIDDEN", message: expect.stringMatching(/origin/i), retryable: false } });
    }
    // None of them was counted: the same address still signs in from the console's page.
    expect((await signInAttempt(email, password, from)).cookie).toEqual(expect.any(String));
  });

  it("refuses a sign-out posted from another site even with next-auth's CSRF token; from the console it signs out", async () => {
    const from = randomLoopback();
    const { cookie } = await signInAttempt(email, password, from);
    const base = inject("baseUrl");
    const csrf = await requestFrom(from, `${base}/api/auth/csrf`, { headers: { cookie: cookie! } });
    const csrfCookie = csrf.headers["set-cookie"]?.[0]?.split(";")[0] ?? "";
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
    const signOut = (origin: string) =>
      requestFrom(from, `${base}/api/auth/signout`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${cookie}; ${csrfCookie}`, origin },
        body: new URLSearchParams({ csrfToken, json: "true" }).toString(),
      });
    const refused = await signOut(attacker);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error.code).toBe("FORBIDDEN");
    expect(refused.headers["set-cookie"]).toBeUndefined();
    // The same request from the console's page is next-auth's ordinary sign-out: it clears the session cookie.
    const done = await signOut(new URL(base).origin);
    expect(done.status).toBe(200);
    expect(done.headers["set-cookie"]?.some((c) => /next-auth\.session-token=;/.test(c))).toBe(true);
  });
});
