import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { config } from "../config";
import { db } from "../db/client";
import { deriveKey } from "../crypto";
import { forbidden, unauthorized } from "../errors";
import { findMembership, firstWorkspaceOf, verifyCredentials } from "../users";
import type { Ctx } from "./context";
import { roleScopes } from "./scopes";

declare module "next-auth" {
  interface Session {
    userId?: string;
    workspaceId?: string;
  }
}

let options: NextAuthOptions | undefined;

/** How long a console session lasts after sign-in; then the person signs in again (and comes back to the page). */
export const SESSION_MAX_AGE_SECONDS = 12 * 3600;

const SwitchWorkspace = z.object({ workspaceId: z.string().min(1).max(64) });

/** Console sign-in: email and password, a JWT session cookie signed with a key derived from SECRET_KEY. */
export function authOptions(): NextAuthOptions {
  options ??= {
    secret: deriveKey("session").toString("base64"),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    // Our own pages (app/(auth)/sign-in); next-auth's built-in ones are never shown.
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          const email = credentials?.email?.trim();
          const password = credentials?.password;
          if (!email || !password || email.length > 254 || password.length > 1024) return null;
          const user = await verifyCredentials(email, password);
          return user ? { id: user.id, email: user.email, name: user.name ?? user.email } : null;
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user, trigger, session }) {
        if (user) {
          token.uid = user.id;
          token.wid = await firstWorkspaceOf(db(), user.id);
        }
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
 */
export async function sessionCtx(req: Request, requestId: string): Promise<Ctx | null> {
  const session = await getServerSession(authOptions());
  if (!session?.userId || !session.workspaceId) return null;
  assertSameOrigin(req);
  const m = await findMembership(db(), session.userId, session.workspaceId);
  if (!m) throw unauthorized("Your console session no longer has access to this workspace; sign in again");
  return {
    workspaceId: session.workspaceId,
    actor: { type: "user", userId: session.userId, scopes: roleScopes[m.role], platformAdmin: m.platformAdmin },
    requestId,
  };
}
