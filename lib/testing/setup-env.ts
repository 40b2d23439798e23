import { inject } from "vitest";
import path from "node:path";
import { BUILT_DIR } from "../processes/programs";
import type { ServerSet } from "./global-setup";
import { projectRoot } from "./server";

/**
 * Gives this test file its vitest worker's server set (lib/testing/global-setup.ts starts one per
 * worker), so inject("baseUrl"), inject("databaseUrl") and the rest name that set's servers.
 * why through vitest's worker state: inject() reads the one context the global setup provided
 * to every worker; there is no per-worker provide. Replacing the keys here, before the file's
 * imports run, keeps every test and helper on plain inject().
 */
const sets = inject("serverSets");
// why the remainder: the global setup starts no more sets than files to run, and vitest numbers
// its workers from 1 up, so this is the worker's own set; were it ever not, files share a set.
const set: ServerSet = sets[(Number(process.env.VITEST_POOL_ID ?? "1") - 1) % sets.length]!;
const state = (globalThis as { __vitest_worker__?: { providedContext?: Record<string, unknown> } }).__vitest_worker__;
if (!state?.providedContext) throw new Error("vitest's worker state has no providedContext: see lib/testing/setup-env.ts");
Object.assign(state.providedContext, set);

// Tests call lib/ verbs directly against the same database the server under test uses.
for (const [k, v] of Object.entries(set.serverEnv)) process.env[k] = v;
process.env.FOLIO_PROCESS = "test";
// why: the global setup has just compiled Folio's programs (buildPrograms), so the pools a test
// makes in its own process start the compiled helper jobs, as production does, instead of their
// source through tsx (about 2.5 s of CPU a helper against 0.7).
process.env.FOLIO_BUILT_DIR ??= path.join(projectRoot, BUILT_DIR);
process.env.LOG_LEVEL = "warn";
