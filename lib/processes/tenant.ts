/**
 * Whose work a contained process runs (lib/processes/pool.ts's fair turns): the workspace of the
 * request or render in progress, carried through its async calls so that the modules between the
 * route and the pool (templates, renders, margins) need not pass it along.
 */
import { AsyncLocalStorage } from "node:async_hooks";

// why on globalThis: Next.js may load this module more than once in a process (route bundles); the
// route that sets the workspace and the sandbox that reads it must share one store.
const KEY = Symbol.for("folio.tenancy");
const g = globalThis as unknown as Record<symbol, AsyncLocalStorage<string> | undefined>;
const tenancy = (g[KEY] ??= new AsyncLocalStorage<string>());

/** Runs `fn` on behalf of `workspaceId`: contained jobs it starts take that workspace's turns. */
export function runAsTenant<T>(workspaceId: string, fn: () => T): T {
  return tenancy.run(workspaceId, fn);
}

/** The workspace whose work is running, if one was named (runAsTenant). */
export function currentTenant(): string | undefined {
  return tenancy.getStore();
}
