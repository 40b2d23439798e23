import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { workerContainment, type WorkerContainmentRow } from "../db/schema";

export async function upsertWorkerContainment(ex: Executor, row: Omit<WorkerContainmentRow, "seenAt">) {
  const { sandbox, separateUser, dumpable, warnings } = row;
  await ex
    .insert(workerContainment)
    .values({ ...row, seenAt: sql`now()` })
    .onConflictDoUpdate({ target: workerContainment.id, set: { sandbox, separateUser, dumpable, warnings, seenAt: sql`now()` } });
}

export async function deleteWorkerContainment(ex: Executor, id: string) {
  await ex.delete(workerContainment).where(eq(workerContainment.id, id));
}

/** Workers seen within `seconds` whose containment has warnings. */
export function listWarnedWorkers(ex: Executor, seconds: number): Promise<WorkerContainmentRow[]> {
  return ex
    .select()
    .from(workerContainment)
    .where(and(gt(workerContainment.seenAt, sql`now() - make_interval(secs => ${seconds})`), sql`jsonb_array_length(${workerContainment.warnings}) > 0`))
    .orderBy(asc(workerContainment.id));
}
