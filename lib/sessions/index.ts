import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { config } from "../config";
import { db } from "../db/client";
import { isDatabaseUnavailable } from "../db/unavailable";
import { deriveKey } from "../crypto";
import { forbidden, isAppError, unauthorized } from "../errors";
import { log } from "../log";
import { findMembership, findSessionState, firstWorkspaceOf, verifyCredentials } from "../users";
import { refuseWhileSuspended, type Ctx, type Effect } from "../auth/context";
import { roleScopes } from "../auth/scopes";

declare module "next-auth" {
  interface Session {
    userId?: string;
    workspaceId?: string;
    /** This session's own id (not a credential: the cookie is); a password change keeps the session that made it. */
    sessionId?: string;
  }
  interface User {
    /** The user's session epoch when the password was checked (lib/users: users.session_epoch). */
    epoch?: number;
  }
}

let options: NextAuthOptions | undefined;

/**
 * How long a console session lasts from sign-in (SESSION_MAX_AGE_HOURS, default 12), however
 * often it is used; then the person signs in again (and comes back to the page).
 */
export const sessionLifetimeMs = () => config().SESSION_MAX_AGE_HOURS * 3_600_000;

/** next-auth's error code for an account past its limit on wrong passwords (the sign-in form says so). */
export const ACCOUNT_LOCKED = "AccountLocked";

/**
 * A session check's outcome that next-auth would hide: the database error it met, if the database
 * was unavailable. `from`: the client address's bucket of a sign-in (next-auth's own request
 * does not carry the address lib/server/web.ts found).
 */
type SessionCheck = { unavailable?: unknown; from?: string };
const sessionCheck = new AsyncLocalStorage<SessionCheck>();

/**
 * Runs a next-auth call (getServerSession, its route handler) and tells whether its session check
 * met a database outage, which next-auth itself reports as "signed out". `from` is the client
 * address's bucket (lib/http/client-address.ts), which a sign-in's password check counts against.
 */
export async function checkingSession<T>(fn: () => Promise<T>, from?: string): Promise<{ result: T; unavailable?: unknown }> {
  const check: SessionCheck = from === undefined ? {} : { from };
  const result = await sessionCheck.run(check, fn);
  return { result, ...(check.unavailable ? { unavailable: check.unavailable } : {}) };
}

/** getServerSession, except that a database outage met by the session check is thrown, not taken for "signed out". */
export async function readServerSession() {
  const { result, unavailable } = await checkingSession(() => getServerSession(authOptions()));
  if (unavailable) throw unavailable;
  return result;
}

/** Thrown in the jwt callback for a session that has ended: next-auth then clears its cookie and answers no session. */
class SessionEnded extends Error {}

/**
 * Whether a session's token is still good, read on every session check (each console page, server
 * action, /v1 request with the cookie, and GET or POST /api/auth/session), from the database so an
 * ending applies on the next request on every web node. A session ends `sessionLifetimeMs()` after
 * its sign-in (`sat`, which the rolling refresh never moves), and when the person's session epoch
 * moved past the one stamped at sign-in (a password change or reset, "sign out everywhere"),
 * unless it is the one session the change kept (`sid`, the session that changed the password).
 */
async function assertSessionCurrent(token: JWT, now = Date.now()) {
  const { uid, sat, epoch, sid } = token;
  if (typeof uid !== "string" || typeof sat !== "number" || typeof epoch !== "number") throw new SessionEnded("a token from before sessions had an epoch");
  if (now - sat >= sessionLifetimeMs()) throw new SessionEnded("past its lifetime");
  const state = await findSessionState(db(), uid).catch((err: unknown) => {
    // why: next-auth turns any error of this callback into "no session" (and clears the cookie);
    // an outage must answer "try again" instead of signing the person out (readServerSession).
    if (isDatabaseUnavailable(err)) { const check = sessionCheck.getStore(); if (check) check.unavailable = err; }
    throw err;
  });
  if (!state) throw new SessionEnded("the user is gone");
  if (state.epoch !== epoch && !(state.keptId !== null && state.keptId === sid)) throw new SessionEnded("ended by a password change or sign-out everywhere");
}

const SwitchWorkspace = z.object({ workspaceId: z.string().min(1).max(64) });

/** Console sign-in: email and password, a JWT session cookie signed with a key derived from SECRET_KEY. */
export function authOptions(): NextAuthOptions {
  options ??= {
    secret: deriveKey("session").toString("base64"),
    // why maxAge too: the cookie goes away with a session the browser no longer uses; the lifetime
    // from sign-in is enforced by assertSessionCurrent, as each refresh moves the cookie's expiry on.
    session: { strategy: "jwt", maxAge: Math.ceil(sessionLifetimeMs() / 1000) },
    // Our own pages (app/(auth)/sign-in); next-auth's built-in ones are never shown.
    pages: { signIn: "/sign-in", error: "/sign-in" },
    logger: {
      error(code, metadata) {
        // why quiet: an ended session is an ordinary outcome, not an error of the server.
        if (metadata instanceof SessionEnded) return void log().debug({ reason: metadata.message }, "console session ended");
        log().error({ code, err: metadata }, "next-auth error");
      },
      warn(code) {
        log().warn({ code }, "next-auth warning");
      },
      debug() {},
    },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          const email = credentials?.email?.trim();
          const password = credentials?.password;
          if (!email || !password || email.length > 254 || password.length > 1024) return null;
          const from = sessionCheck.getStore()?.from;
          // why throw: a sign-in outside app/api/auth would count every address's guesses as one.
          if (from === undefined) throw new Error("A sign-in must run through app/api/auth, which knows its client address");
          try {
            const user = await verifyCredentials(email, password, from);
            return user ? { id: user.id, email: user.email, name: user.name ?? user.email, epoch: user.sessionEpoch } : null;
          } catch (err) {
            // why a code: next-auth passes only an error's message on, as ?error= of the sign-in page.
            if (isAppError(err) && err.code === "RATE_LIMITED") throw new Error(ACCOUNT_LOCKED);
            throw err;
          }
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user, trigger, session }) {
        if (user) {
          token.uid = user.id;
          token.wid = await firstWorkspaceOf(db(), user.id);
          token.sat = Date.now();
          token.sid = randomBytes(16).toString("base64url");
          token.epoch = user.epoch ?? 0;
          return token;
        }
        await assertSessionCurrent(token);
        // The workspace switcher (POST /api/auth/session with {data: {workspaceId}}): the choice is
        // kept only if the person is a member there, checked here on the server.
        if (trigger === "update" && typeof token.uid === "string") {
          const wanted = SwitchWorkspace.safeParse(session);
          if (wanted.success && (await findMembership(db(), token.uid, wanted.data.workspaceId))) token.wid = wanted.data.workspaceId;
        }
        return token;
      },
      async session({ session, token }) {
        session.userId = typeof token.uid === "string" ? token.uid : undefined;
        session.workspaceId = typeof token.wid === "string" ? token.wid : undefined;
        session.sessionId = typeof token.sid === "string" ? token.sid : undefined;
        return session;
      },
    },
  };
  return options;
}

/** The origin the console is served from; unsafe session requests from any other origin are refused. */
const consoleOrigin = () => new URL(config().PUBLIC_URL).origin;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses an unsafe request (any method but GET, HEAD and OPTIONS) that does not show it comes
 * from the console's own origin. why: a session is a cookie, which a browser sends whichever site
 * made the request (CSRF). Browsers say where a request comes from in Origin and Sec-Fetch-Site,
 * and no page can forge either: each one sent must name the console's origin, and one of them must
 * be sent (every browser still supported sends at least one with an unsafe request).
 */
export function assertSameOrigin(req: Request) {
  assertSameOriginHeaders(req.method, req.headers);
}

/** assertSameOrigin for callers that hold only the method and headers (server actions: `await headers()`). */
export function assertSameOriginHeaders(method: string, headers: Pick<Headers, "get">) {
  if (SAFE_METHODS.has(method)) return;
  const origin = headers.get("origin");
  const site = headers.get("sec-fetch-site");
  const sameOrigin = (origin !== null || site !== null) && (origin === null || origin === consoleOrigin()) && (site === null || site === "same-origin");
  if (!sameOrigin) {
    throw forbidden("A console request that changes something must come from the console's own origin (Origin or Sec-Fetch-Site: same-origin)");
  }
}

/**
 * The ctx of a person signed in to the console. The role is read again on every request, so a
 * changed role or a removed membership applies at once. Returns null when nobody is signed in.
 * A request that `effect`s a change in a suspended workspace is refused with 403 (lib/auth/context.ts).
 */
export async function sessionCtx(req: Request, requestId: string, effect: Effect): Promise<Ctx | null> {
  const session = await readServerSession();
  if (!session?.userId || !session.workspaceId) return null;
  assertSameOrigin(req);
  const m = await findMembership(db(), session.userId, session.workspaceId);
  if (!m) throw unauthorized("Your console session no longer has access to this workspace; sign in again");
  refuseWhileSuspended(m.suspended, effect);
  return {
    workspaceId: session.workspaceId,
    actor: { type: "user", userId: session.userId, scopes: roleScopes[m.role], platformAdmin: m.platformAdmin },
    requestId,
  };
}
