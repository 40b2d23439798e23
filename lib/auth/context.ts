import { forbidden } from "../errors";
import type { Scope } from "./scopes";
import { scopeActions } from "./scopes";

export type Actor =
  | { type: "apiKey"; keyId: string; scopes: readonly Scope[] }
  | { type: "user"; userId: string; scopes: readonly Scope[]; platformAdmin: boolean }
  | { type: "system"; job: string };

/** Who acts, for which workspace. Verbs take it from the API, the console, the CLI and the worker alike. */
export type Ctx = { workspaceId: string; actor: Actor; requestId?: string };

export function systemCtx(workspaceId: string, job: string, requestId?: string): Ctx {
  return { workspaceId, actor: { type: "system", job }, requestId };
}

export function hasScope(ctx: Ctx, scope: Scope): boolean {
  return ctx.actor.type === "system" || ctx.actor.scopes.includes(scope);
}

/** Throws 403 FORBIDDEN naming the scope and what it is needed for. */
export function requireScope(ctx: Ctx, scope: Scope, action: string = scopeActions[scope]) {
  if (hasScope(ctx, scope)) return;
  const who = ctx.actor.type === "apiKey" ? "This key lacks" : "Your role lacks";
  throw forbidden(`${who} ${scope}, needed to ${action}`);
}

/**
 * What a request or console action does, for the suspension rule: "change" alters the workspace
 * (the default of every console action and of every /v1 method but GET and HEAD); "read" reads or
 * exports; "account" acts on the signed-in person's own account (profile, password, sessions),
 * which spans workspaces; "platform" is platform administration, which acts on other workspaces.
 */
export type Effect = "change" | "read" | "account" | "platform";

export const SUSPENDED_MESSAGE = "The workspace is suspended; contact the platform administrator";

/**
 * spec: States > Workspace: members of a suspended workspace can still sign in to the console,
 * read and export; anything that changes the workspace answers 403 FORBIDDEN. The one check of
 * apiRoute's session requests, consoleAction and upload links (API keys are refused whole, in
 * lib/keys).
 */
export function refuseWhileSuspended(suspended: boolean, effect: Effect = "change") {
  if (suspended && effect === "change") throw forbidden(SUSPENDED_MESSAGE);
}

export function actorRef(ctx: Ctx): { type: "user" | "apiKey" | "system"; id: string } {
  switch (ctx.actor.type) {
    case "apiKey":
      return { type: "apiKey", id: ctx.actor.keyId };
    case "user":
      return { type: "user", id: ctx.actor.userId };
    case "system":
      return { type: "system", id: ctx.actor.job };
  }
}
