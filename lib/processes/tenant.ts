/**
 * Whose work a contained process runs (lib/processes/pool.ts's fair turns): the workspace of the
 * request or render in progress, carried through its async calls so that the modules between the
 * route and the pool (templates, renders, margins) need not pass it along.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const tenancy = new AsyncLocalStorage<string>();

/** Runs `fn` on behalf of `workspaceId`: contained jobs it starts take that workspace's turns. */
export function runAsTenant<T>(workspaceId: string, fn: () => T): T {
  return tenancy.run(workspaceId, fn);
}

/** The workspace whose work is running, if one was named (runAsTenant). */
export function currentTenant(): string | undefined {
  return tenancy.getStore();
}
