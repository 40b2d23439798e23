import { randomBytes, randomInt } from "node:crypto";
import http from "node:http";
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

/** A loopback address other than 127.0.0.1 (Linux routes all of 127.0.0.0/8 to lo), as a client address of its own. */
export const randomLoopback = () => `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(1, 255)}`;

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One HTTP request sent from `localAddress`, without following redirects. */
export function requestFrom(localAddress: string, url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? "GET", headers: opts.headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

/**
 * One attempt of next-auth's credentials flow over HTTP, as the console's form makes it, from
 * `from`: the CSRF token, then the credentials, posted with the headers that say where the form
 * was (`site`: by default the Origin a browser sends from the console's own page). Returns the
 * answer and the session cookie, if any.
 */
export async function signInAttempt(
  email: string,
  password: string,
  from: string,
  baseUrl = inject("baseUrl"),
  site: Record<string, string> = { origin: new URL(baseUrl).origin },
) {
  const jar = new Map<string, string>();
  const keep = (res: RawResponse) => {
    for (const c of res.headers["set-cookie"] ?? []) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await requestFrom(from, `${baseUrl}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const res = await requestFrom(from, `${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie(), ...site },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }).toString(),
  });
  keep(res);
  const session = [...jar.keys()].find((k) => k.endsWith("next-auth.session-token"));
  return { res, cookie: session ? `${session}=${jar.get(session)}` : undefined };
}

/**
 * Signs in and returns the session cookie header. Each sign-in comes from a loopback address of
 * its own, so the suite's many sign-ins stay under the per-address limit on attempts.
 */
export async function signIn(email: string, password: string, baseUrl = inject("baseUrl")): Promise<string> {
  const { res, cookie } = await signInAttempt(email, password, randomLoopback(), baseUrl);
  if (!cookie) throw new Error(`sign-in failed for ${email}: ${res.status}`);
  return cookie;
}
