import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { passwordFailures } from "../db/schema";
import { AppError } from "../errors";
import { acceptInvitation, changePassword, createInvitation } from "../people";
import { randomLoopback, signInAttempt } from "../testing/factories";
import { newEmail, peopleWorkspace } from "../testing/people";
import { verifyCredentials } from ".";
import { PASSWORD_FAILURES_PER_WINDOW, PASSWORD_FAILURE_WINDOW_MS, prunePasswordFailures } from "./password-attempts";

// docs/api.md, Console sign-in: at most 10 wrong passwords per account and client address in 15
// minutes, counted together by sign-in, accepting an invitation with an existing account, and
// changing a password; then every attempt from that address is refused, the right password too,
// until the 15 minutes pass. Other addresses are not affected.

/** How an attempt ended: "ok", "wrong" (refused password), or the refusal's status and code. */
async function outcome(p: Promise<unknown>): Promise<string> {
  return p.then(
    (v) => (v === undefined ? "wrong" : "ok"),
    (e: unknown) => (e instanceof AppError ? (e.code === "RATE_LIMITED" ? "429" : e.status === 400 ? "wrong" : `${e.status}`) : String(e)),
  );
}

/** A sign-in through next-auth over HTTP from the address `from` (the server takes it from the socket). */
async function signInOutcome(email: string, password: string, from: string): Promise<string> {
  const { res, cookie } = await signInAttempt(email, password, from);
  if (cookie) return "ok";
  const error = new URL(JSON.parse(res.body).url as string).searchParams.get("error");
  return error === "CredentialsSignin" ? "wrong" : error === "AccountLocked" ? "locked" : `${res.status} ${error}`;
}

/** Two different client addresses on loopback. */
function twoAddresses(): [string, string] {
  const a = randomLoopback();
  let b = randomLoopback();
  while (b === a) b = randomLoopback();
  return [a, b];
}

describe("the limit on wrong passwords per account and address", () => {
  it("is 10 in 15 minutes", () => {
    expect([PASSWORD_FAILURES_PER_WINDOW, PASSWORD_FAILURE_WINDOW_MS]).toEqual([10, 15 * 60_000]);
  });

  it("sign-in, invitation acceptance and password change count together; past the limit each refuses the right password from that address, and only from it", async () => {
    const [a, b] = twoAddresses();
    const home = await peopleWorkspace();
    const me = await home.add("member");
    const other = await (await peopleWorkspace()).add("owner");
    // Another workspace's admin invites me: the link asks for my account's password.
    const invitation = await createInvitation(other.ctx, { email: me.email, role: "member" });
    const token = invitation.link!.split("/").pop()!;

    const wrong: string[] = [];
    for (let i = 0; i < 4; i++) wrong.push(await signInOutcome(me.email, `wrong-sign-in-${i}`, a));
    for (let i = 0; i < 3; i++) wrong.push(await outcome(acceptInvitation({ token, password: `wrong-accept-${i}` }, a)));
    for (let i = 0; i < 3; i++) wrong.push(await outcome(changePassword(me.ctx, { currentPassword: `wrong-change-${i}`, newPassword: "another-password" }, { from: a })));
    expect(wrong).toEqual(Array(10).fill("wrong"));

    // The 11th attempt from that address, on any path, is refused before the password is checked, the right one too.
    expect(await signInOutcome(me.email, me.password, a)).toBe("locked");
    const accept = await acceptInvitation({ token, password: me.password }, a).catch((e: unknown) => e as AppError);
    expect(accept).toMatchObject({ code: "RATE_LIMITED", message: expect.stringMatching(/Too many wrong passwords for this account from your address/) });
    const retryAfter = Number((accept as AppError).headers?.["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(await outcome(changePassword(me.ctx, { currentPassword: me.password, newPassword: "another-password" }, { from: a }))).toBe("429");
    expect(await outcome(verifyCredentials(me.email, me.password, a))).toBe("429");

    // From another address the account works as ever; the first address stays refused.
    expect(await signInOutcome(me.email, me.password, b)).toBe("ok");
    expect(await outcome(verifyCredentials(me.email, "wrong-from-b", b))).toBe("wrong");
    expect(await signInOutcome(me.email, me.password, a)).toBe("locked");
    // Someone else's account from the first address is not affected.
    expect(await signInOutcome(other.email, other.password, a)).toBe("ok");
  });

  it("11 wrong passwords from one address lock out that address only: the owner signs in from another, the guesser stays refused", async () => {
    const [guesser, owner] = twoAddresses();
    const me = await (await peopleWorkspace()).add("owner");
    // As someone who knows the owner's email (admin@localhost) would: 11 wrong passwords from one address.
    const guesses: string[] = [];
    for (let i = 0; i < 11; i++) guesses.push(await outcome(verifyCredentials(me.email, `guess-${i}`, guesser)));
    expect(guesses).toEqual([...Array(10).fill("wrong"), "429"]);

    expect(await signInOutcome(me.email, me.password, owner)).toBe("ok");
    expect(await signInOutcome(me.email, me.password, guesser)).toBe("locked");
    expect(await outcome(verifyCredentials(me.email, me.password, guesser))).toBe("429");
  });

  it("right passwords do not count; an address without an account is limited the same way (the limit tells nothing)", async () => {
    const me = await (await peopleWorkspace()).add("member");
    const from = randomLoopback();
    for (let i = 0; i < 12; i++) expect(await outcome(verifyCredentials(me.email, me.password, from))).toBe("ok");
    const nobody = newEmail("nobody");
    const answers: string[] = [];
    for (let i = 0; i < 11; i++) answers.push(await outcome(verifyCredentials(nobody, `guess-${i}`, from)));
    expect(answers).toEqual([...Array(10).fill("wrong"), "429"]);
  });

  it("counts guesses made at the same moment: of 20 at once from one address, at most 10 reach the password check", async () => {
    const me = await (await peopleWorkspace()).add("member");
    const from = randomLoopback();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => outcome(verifyCredentials(me.email, `parallel-${i}`, from))));
    expect(answers.filter((a) => a === "wrong")).toHaveLength(10);
    expect(answers.filter((a) => a === "429")).toHaveLength(10);
  });

  it("the maintenance job forgets windows that ended and keeps open ones", async () => {
    const [ended, open] = [`test-ended-${Date.now()}`, `test-open-${Date.now()}`];
    await db().insert(passwordFailures).values([
      { account: ended, address: "a", windowStart: new Date(Date.now() - PASSWORD_FAILURE_WINDOW_MS - 60_000), failures: 10 },
      { account: open, address: "a", windowStart: new Date(Date.now() - 60_000), failures: 10 },
    ]);
    await prunePasswordFailures();
    const left = await db().select({ account: passwordFailures.account }).from(passwordFailures).where(inArray(passwordFailures.account, [ended, open]));
    expect(left).toEqual([{ account: open }]);
  });
});
