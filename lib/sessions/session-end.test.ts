import { randomBytes } from "node:crypto";
import { decode, encode } from "next-auth/jwt";
import { describe, expect, inject, it } from "vitest";
import { db } from "../db/client";
import { passwordResetTokens } from "../db/schema";
import { resetPassword } from "../people";
import { hashToken, newToken } from "../people/tokens";
import { signIn } from "../testing/factories";
import { api } from "../testing/http";
import { peopleWorkspace, type TestPerson } from "../testing/people";
import { callAction } from "../testing/server-actions";
import { authOptions, sessionLifetimeMs } from ".";

// docs/api.md, Console sign-in: a session ends 12 hours after sign-in however often it is used,
// and at once (on its next request, on every web node) when the person's password changes or is
// reset, or they sign out everywhere.

const SETTINGS = "app/(console)/settings/actions.ts";

/** What a browser holding `cookie` finds: whom next-auth's session names, a console page, and a /v1 call with the cookie. */
async function seen(cookie: string) {
  const session = await api("/api/auth/session", { cookie });
  const page = await fetch(`${inject("baseUrl")}/settings`, { headers: { cookie }, redirect: "manual" });
  const v1 = await api("/v1/usage", { cookie });
  return {
    userId: (session.body as { userId?: string }).userId ?? null,
    page: page.status === 200 ? "shown" : `${page.status} ${page.headers.get("location") ?? ""}`,
    v1: v1.status,
  };
}

const signedIn = (p: TestPerson) => ({ userId: p.userId, page: "shown", v1: 200 });
const signedOut = { userId: null, page: expect.stringMatching(/^307 .*\/sign-in\?next=%2Fsettings$/), v1: 401 };

async function personWithTwoSessions() {
  const me = await (await peopleWorkspace()).add("member");
  const a = await signIn(me.email, me.password);
  const b = await signIn(me.email, me.password);
  expect(await seen(a)).toEqual(signedIn(me));
  expect(await seen(b)).toEqual(signedIn(me));
  return { me, a, b };
}

describe("what ends a console session", () => {
  it("a password change in session B ends session A at once; B stays signed in and the new password signs in", async () => {
    const { me, a, b } = await personWithTwoSessions();
    const changed = await callAction(SETTINGS, "changePasswordAction", { currentPassword: me.password, newPassword: "a-brand-new-password" }, { cookie: b });
    expect(changed.result).toEqual({ ok: true, data: { changed: true } });
    expect(await seen(a)).toEqual(signedOut);
    expect(await seen(b)).toEqual(signedIn(me));
    const c = await signIn(me.email, "a-brand-new-password");
    expect(await seen(c)).toEqual(signedIn(me));
    // next-auth's answer to the ended session also clears its cookie.
    const ended = await fetch(`${inject("baseUrl")}/api/auth/session`, { headers: { cookie: a } });
    expect(ended.headers.getSetCookie().join("\n")).toMatch(/next-auth\.session-token=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);
  });

  it("a reset by link ends every session of the person", async () => {
    const { me, a, b } = await personWithTwoSessions();
    const token = newToken();
    await db().insert(passwordResetTokens).values({ tokenHash: hashToken(token), userId: me.userId, expiresAt: new Date(Date.now() + 3_600_000) });
    await resetPassword({ token, password: "reset-by-link-password" });
    expect(await seen(a)).toEqual(signedOut);
    expect(await seen(b)).toEqual(signedOut);
    expect(await seen(await signIn(me.email, "reset-by-link-password"))).toEqual(signedIn(me));
  });

  it("'sign out everywhere' ends every session of the person, the one that asked too, and no one else's", async () => {
    const { me, a, b } = await personWithTwoSessions();
    const colleague = await (await peopleWorkspace()).add("member");
    const theirs = await signIn(colleague.email, colleague.password);
    const r = await callAction(SETTINGS, "signOutEverywhereAction", {}, { cookie: a });
    expect(r.result).toEqual({ ok: true, data: { signedOut: true } });
    expect(await seen(a)).toEqual(signedOut);
    expect(await seen(b)).toEqual(signedOut);
    expect(await seen(theirs)).toEqual(signedIn(colleague));
    // Signing in again works at once.
    expect(await seen(await signIn(me.email, me.password))).toEqual(signedIn(me));
  });
});

describe("the absolute lifetime of a session", () => {
  /** A session cookie signed with the server's key, as if signed in `agoMs` ago (the rolling refresh kept it fresh meanwhile). */
  async function cookieSignedInAgo(p: TestPerson, workspaceId: string, agoMs: number) {
    const token = await encode({
      token: { sub: p.userId, uid: p.userId, wid: workspaceId, email: p.email, sat: Date.now() - agoMs, sid: randomBytes(16).toString("base64url"), epoch: 0 },
      secret: authOptions().secret!,
    });
    return `next-auth.session-token=${token}`;
  }

  it("a session used all along is refused once 12 hours have passed since sign-in; the refresh never moves the sign-in time", async () => {
    expect(sessionLifetimeMs()).toBe(12 * 3_600_000);
    const w = await peopleWorkspace();
    const me = await w.add("member");
    const young = await cookieSignedInAgo(me, w.id, 12 * 3_600_000 - 60_000);
    const old = await cookieSignedInAgo(me, w.id, 12 * 3_600_000 + 60_000);
    expect(await seen(young)).toEqual(signedIn(me));
    expect(await seen(old)).toEqual(signedOut);

    // The refreshed cookie next-auth sends back still carries the first sign-in's time.
    const refreshed = await fetch(`${inject("baseUrl")}/api/auth/session`, { headers: { cookie: young } });
    const value = /next-auth\.session-token=([^;]+)/.exec(refreshed.headers.getSetCookie().join("\n"))?.[1];
    const before = await decode({ token: young.split("=")[1], secret: authOptions().secret! });
    const after = await decode({ token: value, secret: authOptions().secret! });
    expect(after?.sat).toBe(before?.sat);
  });

  it("a session cookie without a sign-in time (made before sessions had one) is refused", async () => {
    const w = await peopleWorkspace();
    const me = await w.add("member");
    const token = await encode({ token: { sub: me.userId, uid: me.userId, wid: w.id, email: me.email }, secret: authOptions().secret! });
    expect(await seen(`next-auth.session-token=${token}`)).toEqual(signedOut);
  });
});
