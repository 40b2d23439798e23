import { sql } from "drizzle-orm";
import { z } from "zod";
import pkg from "../../package.json";
import { config } from "../config";
import { db } from "../db/client";
import { log } from "../log";

export const Instance = z
  .object({ name: z.literal("Folio"), version: z.string(), deployment: z.enum(["self-hosted", "hosted"]), apiVersion: z.literal("v1"), publicUrl: z.url() })
  .meta({ id: "Instance", description: "What this Folio instance is." });
export type Instance = z.infer<typeof Instance>;

/** decisions.md: Instance and health. */
export function getInstance(): Instance {
  const cfg = config();
  return { name: "Folio", version: pkg.version, deployment: cfg.DEPLOYMENT_MODE, apiVersion: "v1", publicUrl: cfg.PUBLIC_URL };
}

/**
 * A readiness answer: each named check says "ok" or, in a fixed word, what is not ready. The
 * answer needs no credential, so it never carries an error's text; the error goes to the log.
 */
export type Readiness = { ok: boolean; checks: Record<string, string> };

/** Ready when every check says "ok". */
export function readiness(checks: Record<string, string>): Readiness {
  return { ok: Object.values(checks).every((v) => v === "ok"), checks };
}

/**
 * "ok" when the database answers, else "unreachable" (the error is logged). why a deadline of the
 * connect time-out: a database that stopped running never answers, and a balancer asking whether
 * to send traffic here needs its answer promptly (the statement itself ends as lib/db/watchdog.ts says).
 */
export async function checkDatabase(): Promise<"ok" | "unreachable"> {
  const seconds = config().DATABASE_CONNECT_TIMEOUT_SECONDS;
  let timer: NodeJS.Timeout | undefined;
  try {
    // why Promise.resolve: drizzle's query runs again on each then(); this runs it once.
    const answer = Promise.resolve(db().execute(sql`select 1`));
    answer.catch(() => {}); // a failure after the deadline is no one's to handle
    await Promise.race([
      answer,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`The database did not answer select 1 within ${seconds} s`)), seconds * 1000);
      }),
    ]);
    return "ok";
  } catch (err) {
    log().error({ err }, "not ready: the database does not answer");
    return "unreachable";
  } finally {
    clearTimeout(timer);
  }
}

/** The web process: ready when the database answers. */
export async function checkReady(): Promise<Readiness> {
  return readiness({ database: await checkDatabase() });
}
