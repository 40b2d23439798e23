import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { newToken } from "../people/tokens";
import { randomLoopback } from "../testing/factories";
import { newEmail, peopleWorkspace } from "../testing/people";
import { callAction } from "../testing/server-actions";
import { limitInvitationAccept, limitPasswordChange, limitPasswordResetRequest, PUBLIC_ACTIONS_PER_MINUTE } from "./account-limits";

const answers = async (n: number, attempt: () => Promise<void>) => {
  const out: (string | number)[] = [];
  for (let i = 0; i < n; i++) out.push(await attempt().then(() => "ok", (e: AppError) => e.status));
  return out;
};

describe("limits on the account flows", () => {
  it("forgot password: 5 a minute per address, alike for addresses with and without an account (no enumeration)", async () => {
    const me = await (await peopleWorkspace()).add("member");
    const nobody = newEmail("nobody");
    const withAccount = await answers(6, () => limitPasswordResetRequest(me.email.toUpperCase()));
    const without = await answers(6, () => limitPasswordResetRequest(nobody));
    expect(withAccount).toEqual(["ok", "ok", "ok", "ok", "ok", 429]);
    expect(without).toEqual(withAccount);
    const e = await limitPasswordResetRequest(nobody).catch((x: unknown) => x as AppError);
    expect(e).toMatchObject({ code: "RATE_LIMITED", headers: { "retry-after": expect.stringMatching(/^\d+$/) } });
    expect((e as AppError).message).toMatch(/password reset requests/);
    expect(await answers(1, () => limitPasswordResetRequest(newEmail()))).toEqual(["ok"]); // another address is unaffected
  });

  it("accepting one invitation link: 10 attempts a minute; changing a password: 10 a minute per person", async () => {
    expect((await answers(11, () => limitInvitationAccept("T".repeat(43)))).slice(9)).toEqual(["ok", 429]);
    expect((await answers(11, () => limitPasswordChange("usr_limit_test"))).slice(9)).toEqual(["ok", 429]);
  });
});

describe("the public pages' actions, per client address (over HTTP, as the pages post them)", () => {
  const ACTIONS = "app/(auth)/account-actions.ts";

  it("accepting invitations, 'forgot password' and reset links: 10 a minute from one address, together; another address is unaffected", async () => {
    expect(PUBLIC_ACTIONS_PER_MINUTE).toBe(10);
    // All attempts must fall in one clock minute: in its last 15 s, wait for the next one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute >= 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
    const from = randomLoopback();
    const codes: string[] = [];
    const code = (a: { result: { ok: boolean; error?: { code: string } } }) => (a.result.ok ? "ok" : a.result.error!.code);
    // Each a different email, link or token, so only the address is shared: the per-email and per-link limits stay out of it.
    for (let i = 0; i < 4; i++) codes.push(code(await callAction(ACTIONS, "requestPasswordResetAction", { email: newEmail("forgot") }, { from })));
    for (let i = 0; i < 3; i++) {
      const token = newToken();
      codes.push(code(await callAction(ACTIONS, "resetPasswordAction", { token, password: "a-new-password" }, { from, page: `/reset-password/${token}` })));
    }
    for (let i = 0; i < 3; i++) {
      const token = newToken();
      codes.push(code(await callAction(ACTIONS, "acceptInvitationAction", { token, name: "N", password: "a-password" }, { from, page: `/invitations/${token}` })));
    }
    // Without mail, "forgot password" is not available (404); the made-up links are not valid.
    expect(codes).toEqual([...Array(4).fill("NOT_FOUND"), ...Array(3).fill("BAD_REQUEST"), ...Array(3).fill("NOT_FOUND")]);

    const token = newToken();
    const over = await callAction(ACTIONS, "resetPasswordAction", { token, password: "a-new-password" }, { from, page: `/reset-password/${token}` });
    expect(over.result).toEqual({ ok: false, error: { code: "RATE_LIMITED", message: expect.stringMatching(/^More than 10 requests to the sign-in pages' forms this minute from your address; retry after \d+ s$/) } });
    const elsewhere = await callAction(ACTIONS, "requestPasswordResetAction", { email: newEmail("forgot") });
    expect(code(elsewhere)).toBe("NOT_FOUND");
  });
});
