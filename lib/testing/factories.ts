import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { systemCtx } from "../auth/context";
import { scopes as allScopes, type Scope } from "../auth/scopes";
import type { Role } from "../db/schema";
import { createKeyAsSystem } from "../keys";
import { createUser } from "../users";
import { createWorkspace, setSuspended } from "../workspaces";

export type TestWorkspace = {
  id: string;
  /** Secret of a key with the requested scopes (all by default). */
  key: string;
  keyId: string;
  /** Adds another key to this workspace. */
  newKey: (scopes?: readonly Scope[], name?: string) => Promise<{ id: string; secret: string }>;
  /** Adds a person with a role and returns a signed-in console session cookie. */
  signIn: (role?: Role) => Promise<{ cookie: string; userId: string; email: string }>;
  suspend: (suspended?: boolean) => Promise<void>;
};

/** A fresh workspace per test (no truncation; files run in parallel). */
export async function createTestWorkspace(opts: { scopes?: readonly Scope[]; name?: string } = {}): Promise<TestWorkspace> {
  const w = await createWorkspace("test", opts.name ?? `Test ${randomBytes(3).toString("hex")}`);
  const ctx = systemCtx(w.id, "test");
  const newKey = async (scopes: readonly Scope[] = allScopes, name = "test key") => {
    const k = await createKeyAsSystem(ctx, name, scopes, null);
    return { id: k.id, secret: k.secret };
  };
  const first = await newKey(opts.scopes ?? allScopes);
  return {
    id: w.id,
    key: first.secret,
    keyId: first.id,
    newKey,
    signIn: async (role: Role = "owner") => {
      const email = `${role}-${randomBytes(4).toString("hex")}@folio.test`;
      const password = randomBytes(12).toString("base64url");
      const u = await createUser(ctx, { email, password, role });
      return { cookie: await signIn(email, password), userId: u.id, email };
    },
    suspend: async (suspended = true) => {
      await setSuspended(ctx, suspended);
    },
  };
}

/** Signs in through next-auth's credentials flow over HTTP, as the console's form does; returns the cookie header. */
export async function signIn(email: string, password: string, baseUrl = inject("baseUrl")): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  keep(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
    redirect: "manual",
  });
  keep(res);
  const session = [...jar.keys()].find((k) => k.endsWith("next-auth.session-token"));
  if (!session) throw new Error(`sign-in failed for ${email}: ${res.status}`);
  return `${session}=${jar.get(session)}`;
}
