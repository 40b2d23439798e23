import { inject } from "vitest";

// Tests call lib/ verbs directly against the same database the server under test uses.
const env = inject("serverEnv");
for (const [k, v] of Object.entries(env)) process.env[k] = v;
process.env.FOLIO_PROCESS = "test";
process.env.LOG_LEVEL = "warn";
