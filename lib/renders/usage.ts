import { sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { usageDays, type RenderRow } from "../db/schema";

/** spec: Usage record: counted once, on the UTC day the render ends. */
export async function countUsage(ex: Executor, r: RenderRow) {
  const day = r.finishedAt!.toISOString().slice(0, 10); // ISO strings are UTC: this is the UTC day
  const inc = {
    rendersSucceeded: r.state === "succeeded" ? 1 : 0,
    rendersFailed: r.state === "failed" ? 1 : 0,
    rendersCancelled: r.state === "cancelled" ? 1 : 0,
    pages: r.state === "succeeded" ? (r.pageCount ?? 0) : 0,
    outputBytes: r.state === "succeeded" ? (r.outputBytes ?? 0) : 0,
  };
  await ex
    .insert(usageDays)
    .values({ workspaceId: r.workspaceId, day, ...inc })
    .onConflictDoUpdate({
      target: [usageDays.workspaceId, usageDays.day],
      set: {
        rendersSucceeded: sql`${usageDays.rendersSucceeded} + ${inc.rendersSucceeded}`,
        rendersFailed: sql`${usageDays.rendersFailed} + ${inc.rendersFailed}`,
        rendersCancelled: sql`${usageDays.rendersCancelled} + ${inc.rendersCancelled}`,
        pages: sql`${usageDays.pages} + ${inc.pages}`,
        outputBytes: sql`${usageDays.outputBytes} + ${inc.outputBytes}`,
      },
    });
}
