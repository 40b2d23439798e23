import { assertSameOrigin } from "../sessions";
import { addressBucket, clientAddress } from "./client-address";
import { countRequest } from "./rate-limit";
import { beginRequest, errorAnswer } from "./steps";

/** spec: Limits > Request rates: console sign-in attempts per client address; cannot be changed. */
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;

/**
 * What runs before next-auth answers a POST (`action` is the first segment after /api/auth/): it
 * must come from the console's own origin, like every unsafe console request, and a sign-in
 * attempt (signin/*, callback/*; successful or not) is counted against its client address, in the
 * clock minute, shared by all web nodes. Returns the refusal (403, or 429 with Retry-After), or
 * undefined when next-auth may go on.
 */
export async function refuseAuthPost(req: Request, action: string | undefined): Promise<Response | undefined> {
  try {
    // why first: a page on another site must not spend a visitor's sign-in attempts.
    assertSameOrigin(req);
    if (action === "signin" || action === "callback") {
      await countRequest(`signin:${addressBucket(clientAddress(req.headers))}`, SIGN_IN_ATTEMPTS_PER_MINUTE, new Date(), "sign-in attempts");
    }
    return undefined;
  } catch (err) {
    return errorAnswer(beginRequest(req.headers.get("x-request-id")), err);
  }
}
