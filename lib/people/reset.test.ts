import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { passwordResetTokens } from "../db/schema";
import { AppError } from "../errors";
import { peopleWorkspace } from "../testing/people";
import { hashPassword } from "../users/password";
import { resetPassword } from ".";
import { hashToken, newToken } from "./tokens";

/** CPU time (this process, all its threads: scrypt runs on libuv's pool) spent by `run`, in microseconds. */
async function cpuOf(run: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

const refusal = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => (e instanceof AppError ? e.message : String(e)));

describe("setting a password with a reset link", () => {
  it("checks the link before hashing the new password: refusing bad links costs less CPU than one scrypt", async () => {
    const me = await (await peopleWorkspace()).add("member");
    const expired = newToken();
    await db().insert(passwordResetTokens).values({ tokenHash: hashToken(expired), userId: me.userId, createdAt: new Date(Date.now() - 7_200_000), expiresAt: new Date(Date.now() - 3_600_000) });
    const unknown = newToken();
    // Warm up the database connection and the code paths, so only the refusals are measured.
    await refusal(resetPassword({ token: unknown, password: "warm-up-password" }));

    const oneHash = await cpuOf(() => hashPassword("a-password-to-hash"));
    const refusals: (string | undefined)[] = [];
    const fiveBad = await cpuOf(async () => {
      for (let i = 0; i < 3; i++) refusals.push(await refusal(resetPassword({ token: newToken(), password: `new-password-${i}` })));
      for (let i = 0; i < 2; i++) refusals.push(await refusal(resetPassword({ token: expired, password: `new-password-${i}` })));
    });
    expect(refusals).toEqual([
      ...Array(3).fill("This password reset link is not valid; check that you copied all of it, or ask for a new one"),
      ...Array(2).fill("This password reset link has expired; ask for a new one"),
    ]);
    // why this comparison, not a time: five hashes would cost five times one; CPU time does not depend on how busy the machine is.
    expect(fiveBad).toBeLessThan(oneHash);
  });
});
