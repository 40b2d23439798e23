import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { newEmail, peopleWorkspace } from "../testing/people";
import { limitInvitationAccept, limitPasswordChange, limitPasswordResetRequest } from "./account-limits";

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
