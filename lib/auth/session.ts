import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
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

/** Console sign-in: email and password, a JWT session cookie signed with a key derived from SECRET_KEY. */
export function authOptions(): NextAuthOptions {
  options ??= {
    secret: deriveKey("session").toString("base64"),
    session: { strategy: "jwt", maxAge: 12 * 3600 },
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
      async jwt({ token, user }) {
        if (user) {
          token.uid = user.id;
          token.wid = await firstWorkspaceOf(db(), user.id);
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

/**
 * The ctx of a person signed in to the console. The role is read again on every request, so a
 * changed role or a removed membership applies at once. Returns null when nobody is signed in.
 */
export async function sessionCtx(req: Request, requestId: string): Promise<Ctx | null> {
  const session = await getServerSession(authOptions());
  if (!session?.userId || !session.workspaceId) return null;
  const origin = req.headers.get("origin");
  if (!["GET", "HEAD", "OPTIONS"].includes(req.method) && origin && origin !== consoleOrigin()) {
    // why: the session is a cookie; a browser on another site must not be able to use it (CSRF).
    throw forbidden("Cross-site requests with a console session are refused");
  }
  const m = await findMembership(db(), session.userId, session.workspaceId);
  if (!m) throw unauthorized("Your console session no longer has access to this workspace; sign in again");
  return {
    workspaceId: session.workspaceId,
    actor: { type: "user", userId: session.userId, scopes: roleScopes[m.role], platformAdmin: m.platformAdmin },
    requestId,
  };
}
