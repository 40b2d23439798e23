/**
 * The browser's side of next-auth's endpoints, without next-auth/react: sign in with the
 * credentials provider, sign out, and switch workspace (a session update). Each POST carries the
 * CSRF token next-auth asks for; the browser adds Origin, which lib/http/auth-guard.ts checks.
 */

async function csrfToken(): Promise<string> {
  const res = await fetch("/api/auth/csrf", { cache: "no-store" });
  if (!res.ok) throw new Error(`The console did not answer (${res.status}); try again.`);
  return ((await res.json()) as { csrfToken: string }).csrfToken;
}

/** An answer's message for a person: the error envelope's message, or a sentence about the status. */
async function failureMessage(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: string } };
    if (body.error?.message) return body.error.message;
  } catch {
    // not JSON
  }
  return `The console answered ${res.status}; try again.`;
}

/** next-auth's ?error= codes of a refused sign-in, as sentences (AccountLocked: lib/sessions). */
export const signInErrors: Record<string, string> = {
  CredentialsSignin: "Email or password is wrong.",
  AccountLocked: "Too many wrong passwords for this account from your network; sign-in from here is paused for up to 15 minutes. Try again later.",
};

export type SignInOutcome = { ok: true } | { ok: false; message: string; retryAfterSeconds?: number };

export async function signInWithPassword(email: string, password: string, callbackUrl: string): Promise<SignInOutcome> {
  let res: Response;
  try {
    res = await fetch("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await csrfToken(), email, password, callbackUrl, json: "true" }),
    });
  } catch {
    return { ok: false, message: "Could not reach the console; check your connection and try again." };
  }
  if (res.status === 429) {
    const retryAfterSeconds = Math.max(1, Number(res.headers.get("retry-after")) || 60);
    return { ok: false, retryAfterSeconds, message: `Too many sign-in attempts from your address; try again in ${retryAfterSeconds} seconds.` };
  }
  // next-auth answers a refused password with 401 and the sign-in page's address with ?error=CredentialsSignin.
  const body = (await res.clone().json().catch(() => ({}))) as { url?: string };
  if (!body.url) return res.ok ? { ok: false, message: "Sign-in failed; try again." } : { ok: false, message: await failureMessage(res) };
  const error = new URL(body.url, window.location.href).searchParams.get("error");
  if (error || !res.ok) return { ok: false, message: signInErrors[error ?? ""] ?? "Sign-in failed; try again." };
  return { ok: true };
}

/** Ends the session (the cookie is cleared by next-auth) and goes to the sign-in page. */
export async function signOut(): Promise<void> {
  await fetch("/api/auth/signout", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: await csrfToken(), callbackUrl: "/sign-in", json: "true" }),
  });
  // why a full load: nothing of the signed-in console may stay in the router's cache.
  window.location.assign(new URL("/sign-in", window.location.href));
}

/**
 * Keeps `workspaceId` in the session (next-auth's session update; the server checks the
 * membership). Resolves when the session names it, else rejects with a message.
 */
export async function switchWorkspace(workspaceId: string): Promise<void> {
  const res = await fetch("/api/auth/session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ csrfToken: await csrfToken(), data: { workspaceId } }),
  });
  if (!res.ok) throw new Error(await failureMessage(res));
  const session = (await res.json()) as { userId?: string; workspaceId?: string };
  // why: an ended session (lib/sessions) answers no session at all, not a refusal.
  if (!session.userId) throw new Error("Your session has ended; sign in again.");
  if (session.workspaceId !== workspaceId) throw new Error("You are not a member of that workspace any more.");
}
