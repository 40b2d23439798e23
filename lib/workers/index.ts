import os from "node:os";
import type { Ctx } from "../auth/context";
import { db } from "../db/client";
import { requirePlatformAdmin } from "../workspaces";
import * as repo from "./repository";

/**
 * What the workers say of their own containment (docs/architecture.md, Threat model), for the
 * console's platform page: a worker rendering without Chromium's sandbox, as its own user, or
 * dumpable is an operator's business, not only a log line on one host.
 */

/** A worker reports every minute; one not seen for three is taken as stopped. */
export const REPORT_EVERY_MS = 60_000;
const STALE_AFTER_SECONDS = 180;

export type ContainmentReport = { sandbox: boolean; separateUser: boolean; dumpable: boolean; warnings: string[] };
export type WarnedWorker = ContainmentReport & { id: string; seenAt: Date };

/** This worker process's id in the table. */
export const thisWorkerId = () => `${os.hostname()}:${process.pid}`;

/** The worker's own report (the worker is the system: no caller's context). */
export async function reportContainment(report: ContainmentReport, id = thisWorkerId()) {
  await repo.upsertWorkerContainment(db(), { id, ...report });
}

/** At the worker's stop. */
export async function forgetWorker(id = thisWorkerId()) {
  await repo.deleteWorkerContainment(db(), id);
}

/** Running workers whose containment has warnings; platform administrators only. */
export async function warnedWorkers(ctx: Ctx): Promise<WarnedWorker[]> {
  requirePlatformAdmin(ctx);
  const rows = await repo.listWarnedWorkers(db(), STALE_AFTER_SECONDS);
  return rows.map((r) => ({ id: r.id, sandbox: r.sandbox, separateUser: r.separateUser, dumpable: r.dumpable, warnings: r.warnings, seenAt: r.seenAt }));
}
