import { addressBucket, clientAddress } from "./client-address";
import { countRequest } from "./rate-limit";
import { beginRequest, errorAnswer } from "./steps";

/** spec: Limits > Request rates: console sign-in attempts per client address; cannot be changed. */
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;

/**
 * Counts one console sign-in attempt of the request's client address (successful or not, in the
 * clock minute, shared by all web nodes like the API's limit). Returns the 429 answer, with
 * Retry-After, once the address is over the limit; undefined while it may go on.
 */
export async function refuseExcessSignIn(req: Request): Promise<Response | undefined> {
  try {
    await countRequest(`signin:${addressBucket(clientAddress(req.headers))}`, SIGN_IN_ATTEMPTS_PER_MINUTE, new Date(), "sign-in attempts");
    return undefined;
  } catch (err) {
    return errorAnswer(beginRequest(req.headers.get("x-request-id")), err);
  }
}
