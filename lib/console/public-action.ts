import { headers } from "next/headers";
import { unstable_rethrow } from "next/navigation";
import { assertSameOriginHeaders } from "../sessions";
import { toActionError, type ActionResult } from "./action";

/**
 * The steps of consoleAction for the pages nobody is signed in to (accepting an invitation,
 * "forgot password", a reset link): the same-origin check and the ActionResult, without a session.
 * The verb does its own checks (the link's token is the credential).
 */
export async function runPublicAction<T>(run: () => Promise<T> | T): Promise<ActionResult<T>> {
  try {
    assertSameOriginHeaders("POST", await headers());
    return { ok: true, data: await run() };
  } catch (err) {
    unstable_rethrow(err);
    return { ok: false, error: toActionError(err) };
  }
}
