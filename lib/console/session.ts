import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import type { Ctx } from "../auth/context";
import { roleScopes, scopeActions, type Scope } from "../auth/scopes";
import { readServerSession } from "../sessions";
import { db } from "../db/client";
import { isDatabaseUnavailable } from "../db/unavailable";
import { log } from "../log";
import type { Role } from "../db/schema";
import { findUserById, listMembershipsOf } from "../users";
import { REQUEST_PATH_HEADER, safeNextPath, signInHref } from "./next-path";
import { roleLabels, sectionOf, sections } from "./sections";

/**
 * Server only (server components, server actions): who is signed in to the console, in which
 * workspace, with which role. Read once per request (React cache) and always from the database,
 * so a changed role or a removed membership applies on the next page.
 */
export type ConsoleSession = {
  ctx: Ctx;
  /** This browser's session (a password change made here keeps it signed in). */
  sessionId?: string;
  user: { id: string; email: string; name: string };
  role: Role;
  workspace: { id: string; name: string; suspended: boolean };
  workspaces: { id: string; name: string; role: Role }[];
};

/**
 * The signed-in person's console session, or null when nobody is signed in or the session ended
 * (its lifetime passed, or a password change or "sign out everywhere" ended it: lib/sessions).
 */
export const consoleSession = cache(async (): Promise<ConsoleSession | null> => {
  const session = await readServerSession();
  if (!session?.userId) return null;
  const user = await findUserById(db(), session.userId);
  if (!user) return null;
  const memberships = await listMembershipsOf(db(), user.id);
  // why a fallback: the chosen workspace may have removed the person since; land in another one.
  const current = memberships.find((m) => m.id === session.workspaceId) ?? memberships[0];
  if (!current) return null;
  return {
    ...(session.sessionId ? { sessionId: session.sessionId } : {}),
    ctx: {
      workspaceId: current.id,
      actor: { type: "user", userId: user.id, scopes: roleScopes[current.role], platformAdmin: user.platformAdmin },
      requestId: `req_${randomUUID()}`,
    },
    user: { id: user.id, email: user.email, name: user.name ?? user.email },
    role: current.role,
    workspace: { id: current.id, name: current.name, suspended: current.suspended },
    workspaces: memberships.map((m) => ({ id: m.id, name: m.name, role: m.role })),
  };
});

/** The path and query the browser asked for (without Next's internal `_rsc`), from the header lib/server/web.ts sets. */
export async function currentPath(): Promise<string> {
  const raw = (await headers()).get(REQUEST_PATH_HEADER) ?? "/";
  const url = new URL(safeNextPath(raw), "http://console.invalid");
  url.searchParams.delete("_rsc");
  return `${url.pathname}${url.search}`;
}

/**
 * The console session, or a redirect to the sign-in page that comes back to `opts.next` (default:
 * the current path) afterwards. Every console page and layout calls it (a layout alone is not
 * enough: Next does not run layouts again on client navigation).
 */
export async function requireConsole(opts: { next?: string } = {}): Promise<ConsoleSession> {
  const s = await consoleSession();
  if (!s) redirect(signInHref(opts.next ?? (await currentPath())));
  return s;
}

/** Whether a role (or a ctx's actor) has a scope. */
export function can(who: Role | Ctx | ConsoleSession, scope: Scope): boolean {
  if (typeof who === "string") return roleScopes[who].includes(scope);
  const ctx = "ctx" in who ? who.ctx : who;
  return ctx.actor.type === "system" || ctx.actor.scopes.includes(scope);
}

/** The refusal's message for this request, read by app/(console)/forbidden.tsx (same request, same cache). */
export const refusalNote = cache((): { message?: string } => ({}));

/**
 * "Your role (member) cannot manage API keys. Ask an owner or admin." why owners and admins: they
 * hold every scope and every section, and they are the ones who change roles.
 */
export function refusalMessage(role: Role, action: string): string {
  return `Your role (${roleLabels[role]}) cannot ${action}. Ask an owner or admin.`;
}

function refuse(message: string): never {
  refusalNote().message = message;
  forbidden();
}

/**
 * For pages: refuses a person whose role lacks `scope` with the console's refusal page (HTTP 403,
 * inside the shell) saying what their role cannot do. `action` defaults to the scope's own words.
 */
export function requireScopeOrRefuse(s: ConsoleSession, scope: Scope, action: string = scopeActions[scope]): void {
  if (!can(s, scope)) refuse(refusalMessage(s.role, action));
}

/** Whether the signed-in person is a platform administrator (their user's flag; decisions.md). */
export function isPlatformAdmin(s: ConsoleSession): boolean {
  return s.ctx.actor.type === "user" && s.ctx.actor.platformAdmin;
}

export const platformRefusal = "Only platform administrators can open the platform's workspaces. Ask the person who runs this Folio installation.";

/** For pages: refuses anyone but a platform administrator, whatever their workspace role. */
export function requirePlatformAdminOrRefuse(s: ConsoleSession): void {
  if (!isPlatformAdmin(s)) refuse(platformRefusal);
}

/**
 * For pages: refuses a role that lib/console/sections.ts does not list for the section at `href`
 * ("/people"), and anyone but a platform administrator for a platform section.
 */
export function requireSectionOrRefuse(s: ConsoleSession, href: string): void {
  const section = sections.find((x) => x.href === href) ?? sectionOf(href);
  if (section?.platformAdmin) requirePlatformAdminOrRefuse(s);
  if (section && !section.roles.includes(s.role)) refuse(refusalMessage(s.role, section.action));
}

/**
 * requireConsole for the console's layout, or "unavailable" when the database does not answer:
 * the layout then shows a page that says Folio is briefly unavailable and to try again, instead
 * of Next's "Application error" (docs/api.md, Database outages). Every console page reads the
 * session first, so an outage is met here.
 */
export async function requireConsoleOrUnavailable(): Promise<ConsoleSession | "unavailable"> {
  try {
    return await requireConsole();
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err; // redirect() and Next's own signals pass through
    log().warn({ err }, "console: database unavailable");
    return "unavailable";
  }
}
