import { sql } from "drizzle-orm";
import pkg from "../../package.json";
import { config } from "../config";
import { db } from "../db/client";

export type Instance = { name: "Folio"; version: string; deployment: "self-hosted" | "hosted"; apiVersion: "v1"; publicUrl: string };

/** decisions.md: Instance and health. */
export function getInstance(): Instance {
  const cfg = config();
  return { name: "Folio", version: pkg.version, deployment: cfg.DEPLOYMENT_MODE, apiVersion: "v1", publicUrl: cfg.PUBLIC_URL };
}

/** Ready when the database answers. */
export async function checkReady(): Promise<{ ok: boolean; checks: Record<string, "ok" | string> }> {
  try {
    await db().execute(sql`select 1`);
    return { ok: true, checks: { database: "ok" } };
  } catch (e) {
    return { ok: false, checks: { database: (e as Error).message } };
  }
}
